/** `tijori user list --org ORG` (contract §5): the organization's console users, never a secret. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface UserRow {
  user_id: string;
  email: string;
  role: string;
  status: string;
}

export const userList: CliCommand = {
  name: 'user list',
  summary: "Lists an organization's console users with their role and status.",
  flags: { org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const users = await admin.request<UserRow[]>('GET', `/admin/orgs/${encodeURIComponent(org)}/users`);
    const json = users.map((u) => ({ user_id: u.user_id, email: u.email, role: u.role, status: u.status }));
    const text = users.length === 0 ? `no console users in ${org}` : users.map((u) => `${u.user_id}  ${u.role.padEnd(9)} ${u.status.padEnd(8)} ${u.email}`).join('\n');
    return { json, text };
  },
};
