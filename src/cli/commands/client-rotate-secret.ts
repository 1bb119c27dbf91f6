/** `tijori client rotate-secret --client CLIENT_ID` (contract §2). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const clientRotateSecret: CliCommand = {
  name: 'client rotate-secret',
  summary: "Gives an API client a new secret (shown once); the old one stops working.",
  flags: { client: { type: 'string', required: true, value: 'CLIENT_ID', help: 'the API client' } },
  async run({ admin, flags }) {
    const client = requireString(flags, 'client');
    const r = await admin.request<{ client_id: string; client_secret: string }>('POST', `/admin/clients/${encodeURIComponent(client)}/rotate-secret`);
    return {
      json: { client_id: r.client_id, client_secret: r.client_secret },
      text: `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\nThe old secret no longer works (within 2 s on every instance).`,
    };
  },
};
