/**
 * Single-item calls with batching behind them: `batched(name, call)` turns a statement for many
 * items into a function of one item (`insertCreate(db, c)` resolves with c's own result), whose
 * items that arrive close together share one statement (src/store/batcher.ts). Sizes come from the
 * one table, src/store/batch-limits.ts, the concurrency scaled to the Db's pool. The batchers
 * belong to the pool: one per (kind, Db), however many services use it, so the table's sum bounds
 * the connections batching takes. A failure is the item's own: a batch that fails is retried item
 * by item (unless the database is unreachable), so one bad item never fails its neighbours.
 * Work that must decide between its statements is grouped as units of work instead (units.ts),
 * whose shared transactions are batches of this kind too.
 */
import { Batcher } from './batcher.js';
import { BATCH_LIMITS, type BatchName, concurrencyFor } from './batch-limits.js';
import type { Db } from './db.js';

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
