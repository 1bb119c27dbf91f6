/**
 * `tijori ledger verify --org ORG` (contract §9): every entry sums to zero, and every balance from
 * the journal equals the one recomputed from the orders, refunds, payouts and settlements.
 */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface Mismatch {
  provider_account_id: string;
  account: string;
  journal_paise: number;
  records_paise: number;
}

export const ledgerVerify: CliCommand = {
  name: 'ledger verify',
  summary: "Checks an organization's ledger: every entry balanced, every balance equal to the one recomputed from the records.",
  flags: { org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const v = await admin.request<{ entries: number; balanced: boolean; mismatches: Mismatch[] }>('GET', `/admin/orgs/${encodeURIComponent(org)}/ledger/verify`);
    const json = { entries: v.entries, balanced: v.balanced, mismatches: v.mismatches };
    const lines = [`${v.entries} entries, ${v.balanced ? 'every one balanced' : 'SOME NOT BALANCED'}, ${v.mismatches.length} mismatches`];
    for (const m of v.mismatches) lines.push(`${m.provider_account_id}  ${m.account}: journal ${m.journal_paise}, records ${m.records_paise}`);
    return { json, text: lines.join('\n') };
  },
};
