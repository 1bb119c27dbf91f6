/**
 * The one way an entry reaches the ledger: the single writers of orders, refunds, payouts (and the
 * settlement import) call postLedgerEntry with the transaction of their state change, so the entry
 * commits or rolls back with it. The postings come from the pure builders of src/domain/ledger.ts.
 * See docs/accounting.md.
 */
import { type EntryPlan, isBalanced } from '../../domain/ledger.js';
import type { Tx } from '../../store/db.js';
import * as repo from '../../store/repos/ledger-repo.js';
import { newRowId } from '../../store/row-id.js';

export interface LedgerEntryInput {
  orgId: string;
  /** The provider account the money sits at; null: the built-in sandbox (or the payout route's account, see payoutId). */
  providerAccountId: string | null;
  /** Payouts: the payout (already written) whose route's provider account keeps the entry (used when providerAccountId is null). */
  payoutId?: string | null;
  /** The record whose state change causes the entry (an order, refund, payout or settlement id). */
  sourceId: string;
  /** Kind, source type and postings, from a builder of src/domain/ledger.ts. */
  entry: EntryPlan;
}

/**
 * Bench only (bench/ledger-ab.ts): BENCH_LEDGER_OFF=1 makes the service post no entry, so that
 * `npm run bench` can measure what the ledger costs an order's path against the same build without
 * it (docs/performance.md). Never set in production: `tijori ledger verify` would report every
 * state change since as a difference, and the service warns at start (main.ts).
 */
export const LEDGER_OFF_FOR_BENCH = process.env.BENCH_LEDGER_OFF === '1';

/**
 * Posts one entry in the caller's transaction `q`. Returns false when the same (kind, source) was
 * posted before (a retried unit of work): nothing is written twice. An entry with no postings (a
 * settlement of nothing) is not written. Entries of the units of a shared transaction take one
 * statement (store/shared-transactions.ts).
 */
export async function postLedgerEntry(q: Tx, input: LedgerEntryInput): Promise<boolean> {
  const { entry } = input;
  if (entry.postings.length === 0 || LEDGER_OFF_FOR_BENCH) return false;
  // The database checks it too, at commit; failing here names the caller.
  if (!isBalanced(entry.postings)) throw new Error(`unbalanced ledger entry ${entry.kind} for ${input.sourceId}`);
  return repo.insertEntry(q, {
    id: newRowId(),
    orgId: input.orgId,
    providerAccountId: input.providerAccountId,
    payoutId: input.payoutId ?? null,
    kind: entry.kind,
    sourceType: entry.sourceType,
    sourceId: input.sourceId,
    postings: entry.postings,
  });
}
