/** `tijori org create --name NAME` (contract §2). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const orgCreate: CliCommand = {
  name: 'org create',
  summary: 'Creates a merchant organization.',
  flags: { name: { type: 'string', required: true, value: 'NAME', help: "the organization's name" } },
  async run({ admin, flags }) {
    const org = await admin.request<{ id: string; name: string }>('POST', '/admin/orgs', { name: requireString(flags, 'name') });
    return { json: { id: org.id, name: org.name }, text: `organization ${org.id} (${org.name}) created` };
  },
};
