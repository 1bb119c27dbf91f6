/** `tijori ledger balances --org ORG` (contract §9): every account's balance, per provider account, from the journal. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface BalanceRow {
  provider_account_id: string;
  account: string;
  balance_paise: number;
}

export const ledgerBalances: CliCommand = {
  name: 'ledger balances',
  summary: "An organization's ledger balances per provider account and account, in paise (docs/accounting.md).",
  flags: { org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const rows = await admin.request<BalanceRow[]>('GET', `/admin/orgs/${encodeURIComponent(org)}/ledger/balances`);
    const json = rows.map((b) => ({ provider_account_id: b.provider_account_id, account: b.account, balance_paise: b.balance_paise }));
    const text = rows.length === 0 ? `no ledger entries in ${org}` : rows.map((b) => `${b.provider_account_id}  ${b.account.padEnd(24)} ${String(b.balance_paise).padStart(16)}`).join('\n');
    return { json, text };
  },
};
