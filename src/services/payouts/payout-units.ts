/**
 * The payout writer's units of work (payout-writer.ts): the single-item functions the channels call
 * for work the store may group — an API create, news of a held attempt, bank callbacks in the
 * intake's transaction. Each hands the store (store/shared-transactions.ts) a unit written for one payout: lock,
 * then the writer's decision and write. How units run together is the store's; the attempt locks
 * are taken only here, inside a unit.
 */
import type { Db, Tx } from '../../store/db.js';
import type { CreateKey } from '../../store/repos/idempotency-keys-repo.js';
import * as writes from '../../store/repos/payout-writes-repo.js';
import { unitsInTransaction, unitsOfKind } from '../../store/shared-transactions.js';
import { createPayout, type Locked, type PayoutDraft } from './payout-writer.js';


/** API creates that arrive together share a transaction (a row of the table in store/batched.ts). */
const apiCreates = unitsOfKind('payoutCreates');

/**
 * An API create (createPayout with its idempotency key) as a unit of work; resolves once it has
 * committed. Creates that arrive together share one transaction, where payout, attempt, history
 * and completed key of them all are one statement, then their events. A takeover of a key left in
 * progress (rare) writes with the key it holds, in a transaction of its own.
 */
export function writeApiCreate(db: Db, draft: PayoutDraft, key: CreateKey): Promise<{ written: boolean; attemptId: string | null }> {
  const unit = (tx: Tx) => createPayout(tx, draft, { kind: 'api', key });
  // Keyed by the new payout's own id, so every create runs in the first round: repeats of one
  // idempotency key share the key statement, whose ON CONFLICT writes the key (and so the payout)
  // once; a round per repeat would let a client firing one key hold the shared transaction open.
  return key.held ? db.tx(unit) : apiCreates(db, draft.id, unit);
}

/** News of held attempts that arrives together shares a transaction (a row of the table in store/batched.ts). */
const heldAttemptNews = unitsOfKind('payoutOutcomes');

/**
 * One piece of news about an attempt its caller holds (a submit or inquiry answer), as a unit of
 * work: the attempt is locked with its payout (undefined if there is no such attempt) and handed to
 * `apply`, which decides and writes through PayoutMove; resolves once committed. Every caller holds
 * its attempt's lease, so no attempt appears twice in one transaction (it keys the unit all the same).
 */
export function changeHeldAttempt<R>(db: Db, attemptId: string, apply: (tx: Tx, locked: Locked | undefined) => Promise<R>): Promise<R> {
  return heldAttemptNews(db, attemptId, async (tx) => apply(tx, await writes.lockAttempt(tx, attemptId)));
}

/**
 * News about payouts' live (latest) attempts by our reference (the payout's transaction_id), in the
 * caller's transaction (the intake's lane): each item is a unit of work that locks its payout's
 * live attempt (undefined for a reference we do not know) and hands it to `apply`; the locks of
 * all the units are one statement, and items about the same payout run one after the other, each
 * deciding on what the one before wrote. Results in the items' order.
 */
export function changeLatestAttempts<T, R>(tx: Tx, items: T[], referenceOf: (item: T) => string, apply: (tx: Tx, item: T, locked: Locked | undefined) => Promise<R>): Promise<R[]> {
  return unitsInTransaction(tx, items, referenceOf, async (t, item) => apply(t, item, await writes.lockLatestAttempt(t, referenceOf(item))));
}
