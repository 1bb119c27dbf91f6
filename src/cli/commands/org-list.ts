/** `tijori org list`: every organization, oldest first, so a lost id can be found again (issue #28). */
import type { CliCommand } from '../command.js';

interface OrgRow {
  id: string;
  name: string;
  created_at: string;
}

export const orgList: CliCommand = {
  name: 'org list',
  summary: 'Lists the organizations with their ids.',
  async run({ admin }) {
    const orgs = await admin.request<OrgRow[]>('GET', '/admin/orgs');
    const json = orgs.map((o) => ({ id: o.id, name: o.name, created_at: o.created_at }));
    const text = orgs.length === 0 ? 'no organizations yet (tijori org create --name NAME)' : orgs.map((o) => `${o.id}  ${o.created_at.slice(0, 10)}  ${o.name}`).join('\n');
    return { json, text };
  },
};
