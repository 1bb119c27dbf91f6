/** `tijori client rotate-secret --client CLIENT_ID [--overlap-hours N]` (contract §2, §11). */
import { optionalInt, requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const clientRotateSecret: CliCommand = {
  name: 'client rotate-secret',
  summary: 'Gives an API client a new secret (shown once); the old one stops working at once, or after --overlap-hours.',
  flags: {
    client: { type: 'string', required: true, value: 'CLIENT_ID', help: 'the API client' },
    'overlap-hours': { type: 'string', value: 'N', help: 'keep the old secret valid for N hours (0–168, default 0) while the fleet is updated' },
  },
  async run({ admin, flags }) {
    const client = requireString(flags, 'client');
    const overlap = optionalInt(flags, 'overlap-hours') ?? 0;
    const r = await admin.request<{ client_id: string; client_secret: string; old_secret_expires_at: string | null }>(
      'POST',
      `/admin/clients/${encodeURIComponent(client)}/rotate-secret`,
      ...(overlap === 0 ? [] : [{ overlap_hours: overlap }]),
    );
    const old = r.old_secret_expires_at === null ? 'The old secret no longer works (within 2 s on every instance).' : `The old secret keeps working until ${r.old_secret_expires_at}.`;
    return {
      json: { client_id: r.client_id, client_secret: r.client_secret, ...(r.old_secret_expires_at === null ? {} : { old_secret_expires_at: r.old_secret_expires_at }) },
      text: `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\n${old}`,
    };
  },
};
