/**
 * The one way an entry reaches the ledger: the single writers of orders, refunds, payouts (and the
 * settlement import) call postLedgerEntry with the transaction of their state change, so the entry
 * commits or rolls back with it. The postings come from the pure builders of src/domain/ledger.ts.
 * See docs/accounting.md.
 */
import { type EntryPlan, isBalanced } from '../../domain/ledger.js';
import type { Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/ledger-repo.js';
import { newRowId } from '../../store/row-id.js';

export interface LedgerEntryInput {
  orgId: string;
  /** The provider account the money sits at; null: the built-in sandbox (or the route's account, see bankConnectionId). */
  providerAccountId: string | null;
  /** Payouts: the route whose provider account the entry is kept under (used when providerAccountId is null). */
  bankConnectionId?: string | null;
  /** The record whose state change causes the entry (an order, refund, payout or settlement id). */
  sourceId: string;
  /** Kind, source type and postings, from a builder of src/domain/ledger.ts. */
  entry: EntryPlan;
}

/**
 * Posts one entry in the caller's transaction `q`. Returns false when the same (kind, source) was
 * posted before (a retried unit of work): nothing is written twice. An entry with no postings (a
 * settlement of nothing) is not written. Entries of the units of a shared transaction take one
 * statement (store/coalesced.ts).
 */
export async function postLedgerEntry(q: Queryable, input: LedgerEntryInput): Promise<boolean> {
  const { entry } = input;
  if (entry.postings.length === 0) return false;
  // The database checks it too, at commit; failing here names the caller.
  if (!isBalanced(entry.postings)) throw new Error(`unbalanced ledger entry ${entry.kind} for ${input.sourceId}`);
  return repo.insertEntry(q, {
    id: newRowId(),
    orgId: input.orgId,
    providerAccountId: input.providerAccountId,
    bankConnectionId: input.bankConnectionId ?? null,
    kind: entry.kind,
    sourceType: entry.sourceType,
    sourceId: input.sourceId,
    postings: entry.postings,
  });
}
