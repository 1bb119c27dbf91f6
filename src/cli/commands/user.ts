/** `tijori user create --org ORG --email EMAIL --role ROLE` and `tijori user list --org ORG` (contract §5). */
import type { CliCommand } from '../registry.js';
import { CliError } from '../admin-client.js';
import { requireString } from '../args.js';

interface UserRow {
  user_id: string;
  email: string;
  role: string;
  status: string;
}

export const userCommand: CliCommand = {
  group: 'user',
  usage: 'user create --org ORG --email EMAIL --role admin|developer|maker|checker|reviewer|viewer | user list --org ORG',
  async run({ admin, sub, flags }) {
    const org = requireString(flags, 'org');
    if (sub === 'create') {
      const u = await admin.request<UserRow & { setup_url: string }>('POST', '/admin/users', {
        org,
        email: requireString(flags, 'email'),
        role: requireString(flags, 'role'),
      });
      return {
        json: { user_id: u.user_id, email: u.email, role: u.role, setup_url: u.setup_url },
        text: `user ${u.email} (${u.role}) of ${org}: ${u.user_id}\nsetup_url: ${u.setup_url}\nThe link works once, for 24 hours: send it to the user.`,
      };
    }
    if (sub === 'list') {
      const users = await admin.request<UserRow[]>('GET', `/admin/orgs/${encodeURIComponent(org)}/users`);
      const json = users.map((u) => ({ user_id: u.user_id, email: u.email, role: u.role, status: u.status }));
      return { json, text: users.length === 0 ? `no console users in ${org}` : users.map((u) => `${u.user_id}  ${u.role.padEnd(9)} ${u.status.padEnd(8)} ${u.email}`).join('\n') };
    }
    throw new CliError(`usage: tijori ${this.usage} [--json]`);
  },
};
