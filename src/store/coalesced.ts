/**
 * Single-item statements of one transaction, coalesced: `coalesced(call)` turns a statement for
 * many items into a function of one item, `lockAttempt(tx, id)`, and the calls made on the same
 * transaction before the event loop turns (the units of work that share a transaction, see
 * units.ts, reach each step together) go to the database as one statement. So a unit of
 * work is written for one payout or one order, and N of them in a shared transaction still cost
 * one lock statement, one write and one event insert, not N of each.
 *
 * Only inside a transaction: there a failing statement dooms the whole transaction anyway, so
 * one statement for several items loses nothing. Outside a transaction (on the pool), a call is
 * its own statement: independent requests must not fail each other.
 *
 * The grouping is DataLoader's (one batch per tick, collected across promise hops), without its
 * cache: a lock or a write must reach the database every time.
 */
import DataLoader from 'dataloader';
import type pg from 'pg';
import { type PreparedStatement, type Queryable, transactionOf } from './db.js';

/** A single-item call; its result is its own item's. */
export type CoalescedCall<T, R> = (q: Queryable, item: T) => Promise<R>;

/**
 * `call` gets the items of one tick (in the order their calls were made) and returns one result per
 * item, in that order (nothing for a write without results).
 */
export function coalesced<T, R = void>(call: (q: Queryable, items: T[]) => Promise<R[] | undefined | void>): CoalescedCall<T, R> {
  // One loader per transaction (not per pooled client, which serves the next transaction after).
  const loaders = new WeakMap<object, DataLoader<T, R>>();
  return (q, item) => {
    const tx = transactionOf(q);
    if (!tx) return call(q, [item]).then((results) => results?.[0] as R);
    let loader = loaders.get(tx);
    if (!loader) {
      loader = new DataLoader<T, R>(async (items) => {
        // A call left un-awaited would otherwise run after its transaction ended: outside any
        // transaction, or inside the client's next one.
        if (transactionOf(q) !== tx) throw new Error('coalesced statement sent after its transaction ended');
        const results = await call(q, [...items]);
        return items.map((_, i) => results?.[i] as R);
      }, { cache: false });
      loaders.set(tx, loader);
    }
    return loader.load(item);
  };
}

/**
 * A coalesced look-up by key: one `statement` (taking the keys of a tick as `$1`, an array) for all
 * the calls, and each call gets `view` of the row whose `keyOf` is its own key, undefined if none.
 * (The row locks of the state writers: the statement sorts what it locks, so overlapping
 * transactions wait for each other instead of deadlocking.)
 */
export function coalescedLookup<Row extends pg.QueryResultRow, R>(statement: PreparedStatement, keyOf: (row: Row) => string, view: (row: Row) => R): CoalescedCall<string, R | undefined> {
  return coalesced<string, R | undefined>(async (q, keys) => {
    const r = await q.query<Row>(statement, [[...new Set(keys)]]);
    const found = new Map(r.rows.map((row) => [keyOf(row), row]));
    return keys.map((key) => {
      const row = found.get(key);
      return row === undefined ? undefined : view(row);
    });
  });
}
