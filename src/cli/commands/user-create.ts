/** `tijori user create --org ORG --email EMAIL --role ROLE` (contract §5): a console user and their one-time set-up link. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface CreatedUser {
  user_id: string;
  email: string;
  role: string;
  setup_url: string;
}

export const userCreate: CliCommand = {
  name: 'user create',
  summary: 'Creates a console user of an organization and prints their one-time set-up link (valid 24 hours).',
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" },
    email: { type: 'string', required: true, value: 'EMAIL', help: "the user's email address (their sign-in name)" },
    role: { type: 'string', required: true, value: 'ROLE', help: 'admin, developer, maker, checker, reviewer or viewer' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const u = await admin.request<CreatedUser>('POST', '/admin/users', {
      org,
      email: requireString(flags, 'email'),
      role: requireString(flags, 'role'),
    });
    return {
      json: { user_id: u.user_id, email: u.email, role: u.role, setup_url: u.setup_url },
      text: `user ${u.email} (${u.role}) of ${org}: ${u.user_id}\nsetup_url: ${u.setup_url}\nThe link works once, for 24 hours: send it to the user.`,
    };
  },
};
