/**
 * Reading the ledger (contract §9): an organization's balances from the journal, and `verify`, which
 * recomputes every balance two ways — from the journal, and from the orders, refunds, payouts and
 * settlements themselves — and checks every entry sums to zero. Behind `tijori ledger balances` and
 * `tijori ledger verify` (admin API). Read-only: entries are posted only by the writers (post.ts).
 */
import { AppError } from '../../domain/errors.js';
import { type AccountBalance, type BalanceMismatch, compareBalances, CONFIRMED_ORDER_STATUSES } from '../../domain/ledger.js';
import { isUuid } from '../../domain/text.js';
import { setLongStatementTimeout, withLongStatements } from '../../store/long-query.js';
import { type Db, type Queryable, readOneSnapshot } from '../../store/db.js';
import * as records from '../../store/repos/ledger-records-repo.js';
import * as repo from '../../store/repos/ledger-repo.js';

export interface LedgerVerification {
  entries: number;
  /** Every entry's postings sum to zero (at least two of them). */
  balanced: boolean;
  /** Accounts whose balance from the journal differs from the one from the records. */
  mismatches: BalanceMismatch[];
}

/** The balances from the records, without the journal: one term per kind of record. */
export async function recordBalances(q: Queryable, orgId: string): Promise<AccountBalance[]> {
  const terms = await Promise.all([
    records.collectionTerms(q, orgId, CONFIRMED_ORDER_STATUSES),
    records.payoutTerms(q, orgId),
    records.settlementTerms(q, orgId),
  ]);
  return terms.flat();
}

export class LedgerService {
  constructor(private readonly deps: { db: Db }) {}

  private async requireOrg(q: Queryable, orgId: string): Promise<void> {
    if (!isUuid(orgId) || !(await records.orgExists(q, orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
  }

  /** Every account's balance of the organization, per provider account, from the journal. */
  async balances(orgId: string): Promise<AccountBalance[]> {
    await this.requireOrg(this.deps.db, orgId);
    return repo.journalBalances(this.deps.db, orgId);
  }

  /**
   * Both computations read one snapshot (a REPEATABLE READ, read-only transaction), so writes that
   * commit meanwhile cannot show up on one side only.
   */
  async verify(orgId: string): Promise<LedgerVerification> {
    await this.requireOrg(this.deps.db, orgId);
    return this.deps.db.tx(
      async (tx) => {
        await readOneSnapshot(tx);
        // Over a journal of millions of entries a statement takes longer than a request's 10 s
        // (docs/performance.md: 10,000,000 entries): verify's own limit, not the pool's.
        await setLongStatementTimeout(tx);
        const q = withLongStatements(tx);
        const check = await repo.entryCheck(q, orgId);
        const journal = await repo.journalBalances(q, orgId);
        const fromRecords = await recordBalances(q, orgId);
        return { entries: check.entries, balanced: check.unbalanced.length === 0, mismatches: compareBalances(journal, fromRecords) };
      },
    );
  }
}
