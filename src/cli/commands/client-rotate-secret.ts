/** `tijori client rotate-secret --client CLIENT_ID [--overlap-hours N]` (contract §2, §11). */
import { optionalInt, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const clientRotateSecret: CliCommand = {
  name: 'client rotate-secret',
  summary: 'Gives an API client a new secret (shown once); the old one stops working at once, or after --overlap-hours. Audited.',
  flags: {
    client: { type: 'string', required: true, value: 'CLIENT_ID', help: 'the API client' },
    'overlap-hours': { type: 'string', value: 'N', help: 'hours the old secret keeps working (0–168, default 0: it stops at once)' },
  },
  async run({ admin, flags }) {
    const client = requireString(flags, 'client');
    const overlap = optionalInt(flags, 'overlap-hours');
    if (overlap !== undefined && (overlap < 0 || overlap > 168)) throw new UsageError('--overlap-hours must be an integer from 0 to 168');
    const r = await admin.request<{ client_id: string; client_secret: string; previous_secret_expires_at?: string | null }>(
      'POST',
      `/admin/clients/${encodeURIComponent(client)}/rotate-secret`,
      overlap !== undefined ? { overlap_hours: overlap } : undefined,
    );
    const until = r.previous_secret_expires_at ?? null;
    return {
      json: { client_id: r.client_id, client_secret: r.client_secret, ...(until !== null ? { previous_secret_expires_at: until } : {}) },
      text:
        `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\n` +
        (until !== null ? `The old secret keeps working until ${until}.` : 'The old secret no longer works (within 2 s on every instance).'),
    };
  },
};
