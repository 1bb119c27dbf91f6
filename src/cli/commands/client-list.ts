/** `tijori client list --org ORG`: the organization's API clients, never a secret (issue #28). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface ClientRow {
  client_id: string;
  name: string | null;
  scopes: string[];
  status: 'active' | 'revoked';
  created_at: string;
}

export const clientList: CliCommand = {
  name: 'client list',
  summary: "Lists an organization's API clients with their scopes and status (no secrets).",
  flags: { org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const rows = await admin.request<ClientRow[]>('GET', `/admin/orgs/${encodeURIComponent(org)}/clients`);
    const json = rows.map((c) => ({ client_id: c.client_id, name: c.name, scopes: c.scopes, status: c.status, created_at: c.created_at }));
    const text =
      rows.length === 0
        ? `no API clients in ${org}`
        : rows.map((c) => `${c.client_id}  ${c.status.padEnd(7)} ${c.scopes.join(',')}${c.name ? `  ${c.name}` : ''}`).join('\n');
    return { json, text };
  },
};
