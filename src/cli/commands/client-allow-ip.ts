/** `tijori client allow-ip --client CLIENT_ID --ip IP` (contract §2). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const clientAllowIp: CliCommand = {
  name: 'client allow-ip',
  summary: "Adds an address (or CIDR) to an API client's allow list; prints the list.",
  flags: {
    client: { type: 'string', required: true, value: 'CLIENT_ID', help: 'the API client' },
    ip: { type: 'string', required: true, value: 'IP', help: 'an IPv4/IPv6 address or CIDR' },
  },
  async run({ admin, flags }) {
    const client = requireString(flags, 'client');
    const r = await admin.request<{ client_id: string; allowed_ips: string[] }>('POST', `/admin/clients/${encodeURIComponent(client)}/allowed-ips`, {
      ip: requireString(flags, 'ip'),
    });
    return { json: { client_id: r.client_id, allowed_ips: r.allowed_ips }, text: `allowed IPs of ${r.client_id}: ${r.allowed_ips.join(', ')}` };
  },
};
