/**
 * The ledger check every fault scenario runs at its end (issue #33 §1): `ledger verify` on every
 * organization of the scenario's database — every entry balanced, every balance from the journal
 * equal to the one from the orders, refunds and payouts — as violations of that scenario.
 */
import { LedgerService } from '../../src/services/ledger/ledger.js';
import type { Db } from '../../src/store/db.js';

export async function ledgerViolations(db: Db): Promise<{ violations: string[]; entries: number; orgs: number }> {
  const ledger = new LedgerService({ db });
  const orgs = await db.query<{ id: string }>('SELECT id::text FROM organizations ORDER BY id');
  const violations: string[] = [];
  let entries = 0;
  for (const { id } of orgs.rows) {
    const v = await ledger.verify(id);
    entries += v.entries;
    if (!v.balanced) violations.push(`ledger of ${id}: an entry does not sum to zero`);
    for (const m of v.mismatches) violations.push(`ledger of ${id}: ${m.account} at ${m.provider_account_id} is ${m.journal_paise} in the journal, ${m.records_paise} from the records`);
  }
  return { violations, entries, orgs: orgs.rows.length };
}
