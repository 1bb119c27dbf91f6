/** `tijori org set --org ORG --refund-review none|required` (contract §6): whether refunds wait for a reviewer. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const orgSet: CliCommand = {
  name: 'org set',
  summary: "Changes an organization's settings: whether its refunds wait for a reviewer (default required).",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" },
    'refund-review': { type: 'string', required: true, value: 'none|required', help: 'none: refunds go to the provider at once; required: a reviewer approves each' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const review = requireString(flags, 'refund-review');
    if (review !== 'none' && review !== 'required') throw new UsageError(`org set: --refund-review must be none or required, not "${review}"`, 'usage: tijori org set --help');
    const r = await admin.request<{ id: string; name: string; refund_review: string }>('POST', `/admin/orgs/${encodeURIComponent(org)}/settings`, { refund_review: review });
    return {
      json: { id: r.id, name: r.name, refund_review: r.refund_review },
      text: `organization ${r.id} (${r.name}): refunds ${r.refund_review === 'none' ? 'go to the provider without review' : 'wait for a reviewer'}`,
    };
  },
};
