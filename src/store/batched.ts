/**
 * Single-item calls with batching behind them: `batched(name, call)` turns a statement for many
 * items into a function of one item (`insertCreate(db, c)` resolves with c's own result), whose
 * items that arrive close together share one statement (src/store/batcher.ts). Sizes come from the
 * one table, src/store/batch-limits.ts, the concurrency scaled to the Db's pool. The batchers
 * belong to the pool: one per (kind, Db), however many services use it, so the table's sum bounds
 * the connections batching takes. A failure is the item's own: a batch that fails is retried item
 * by item (unless the database is unreachable), so one bad item never fails its neighbours.
 */
import { Batcher } from './batcher.js';
import { BATCH_LIMITS, type BatchName, concurrencyFor } from './batch-limits.js';
import type { Db, Queryable } from './db.js';
import { sideBySide } from './side-by-side.js';

const claimed = new Set<BatchName>();

/** A single-item call: resolves with the item's result once its batch is written. */
export type BatchedCall<T, R> = (db: Db, item: T) => Promise<R>;

/**
 * `call` gets the items of a batch (at most the table's maxBatch) and returns one result per item,
 * in their order (nothing for a write without results); it runs on the pool, not in a caller's
 * transaction, so the batch is its own unit of work (one statement, or `db.tx`).
 */
export function batched<T, R = void>(name: BatchName, call: (db: Db, items: T[]) => Promise<R[] | undefined | void>): BatchedCall<T, R> {
  // One call per kind: the table's row is the whole of that kind's use of the pool.
  if (claimed.has(name)) throw new Error(`batch kind ${name} is used twice`);
  claimed.add(name);
  const perDb = new WeakMap<Db, (item: T) => Promise<R>>();
  return (db, item) => {
    let add = perDb.get(db);
    if (!add) {
      const batcher = new Batcher<T, R>((items) => call(db, items), { maxBatch: BATCH_LIMITS[name].maxBatch, concurrency: concurrencyFor(name, db.poolSize) });
      add = (one) => batcher.add(one);
      perDb.set(db, add);
    }
    return add(item);
  };
}

/** A unit of work that may share its transaction with others of its kind (see sharedTransactions). */
export type SharedTransaction = <R>(db: Db, work: (tx: Queryable) => Promise<R>, key: string) => Promise<R>;

/**
 * Transactions shared by the units of work of one kind that arrive together (a payout create with
 * its event, the news of a held payout attempt): the caller writes its unit for one item, and
 * `run(db, (tx) => …, key)` resolves with that unit's result once the shared transaction has
 * committed. Inside it the units run side by side (side-by-side.ts: units with the same `key` one
 * after the other) and their single-item statements coalesce (coalesced.ts), so N units cost one
 * commit and a few statements. Sized by the table's row like `batched`; when the shared
 * transaction fails, each unit runs again in one of its own.
 */
export function sharedTransactions(name: BatchName): SharedTransaction {
  type Unit = { work: (tx: Queryable) => Promise<unknown>; key: string };
  const run = batched<Unit, unknown>(name, (db, units) => db.tx((tx) => sideBySide(tx, units, (u) => u.key, (t, u) => u.work(t))));
  return <R>(db: Db, work: (tx: Queryable) => Promise<R>, key: string) => run(db, { work, key }) as Promise<R>;
}
