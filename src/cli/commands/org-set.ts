/**
 * `tijori org set --org ORG [--refund-review none|required] [--settlement-expected-days N]`
 * (contract §6, §9): whether refunds wait for a reviewer; how many days a confirmed collection may
 * wait for its settlement before it is an UNSETTLED break (1 to 30, default 3). Prints the
 * organization's settings.
 */
import { optionalInt, optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const orgSet: CliCommand = {
  name: 'org set',
  summary: "Changes an organization's settings: whether its refunds wait for a reviewer (default required), the days a settlement is expected in (default 3).",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" },
    'refund-review': { type: 'string', value: 'none|required', help: 'none: refunds go to the provider at once; required: a reviewer approves each' },
    'settlement-expected-days': { type: 'string', value: 'N', help: 'days (1 to 30) after which a confirmed collection in no settlement is an UNSETTLED break' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const review = optionalString(flags, 'refund-review');
    const days = optionalInt(flags, 'settlement-expected-days');
    if (review === undefined && days === undefined) throw new UsageError('org set: give --refund-review or --settlement-expected-days', 'usage: tijori org set --help');
    if (review !== undefined && review !== 'none' && review !== 'required') throw new UsageError(`org set: --refund-review must be none or required, not "${review}"`, 'usage: tijori org set --help');
    if (days !== undefined && (days < 1 || days > 30)) throw new UsageError(`org set: --settlement-expected-days must be from 1 to 30, not ${days}`, 'usage: tijori org set --help');
    const r = await admin.request<{ id: string; name: string; refund_review: string; settlement_expected_days: number }>('POST', `/admin/orgs/${encodeURIComponent(org)}/settings`, {
      ...(review !== undefined ? { refund_review: review } : {}),
      ...(days !== undefined ? { settlement_expected_days: days } : {}),
    });
    return {
      json: { id: r.id, name: r.name, refund_review: r.refund_review, settlement_expected_days: r.settlement_expected_days },
      text: `organization ${r.id} (${r.name}): refunds ${r.refund_review === 'none' ? 'go to the provider without review' : 'wait for a reviewer'}; settlements expected within ${r.settlement_expected_days} days`,
    };
  },
};
