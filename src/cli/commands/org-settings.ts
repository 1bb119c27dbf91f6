/** `tijori org set --org ORG --refund-review none|required` (contract §6): whether refunds wait for a reviewer. */
import { CliError } from '../admin-client.js';
import { optionalString, requireString } from '../args.js';
import type { CliCommand } from '../registry.js';

const USAGE = 'usage: tijori org set --org ORG --refund-review none|required [--json]';

export const orgSettingsCommand: CliCommand = {
  group: 'org',
  usage: 'org set --org ORG --refund-review none|required',
  async run({ admin, sub, flags }) {
    if (sub !== 'set') throw new CliError(USAGE);
    const org = requireString(flags, 'org');
    const review = optionalString(flags, 'refund-review');
    if (review !== 'none' && review !== 'required') throw new CliError(`--refund-review must be none or required\n${USAGE}`);
    const r = await admin.request<{ id: string; name: string; refund_review: string }>('POST', `/admin/orgs/${encodeURIComponent(org)}/settings`, { refund_review: review });
    return {
      json: { id: r.id, name: r.name, refund_review: r.refund_review },
      text: `organization ${r.id} (${r.name}): refunds ${r.refund_review === 'none' ? 'go to the provider without review' : 'wait for a reviewer'}`,
    };
  },
};
