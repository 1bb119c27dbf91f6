/**
 * Shared transactions: units of work that run together in one transaction, their single-item
 * statements coalesced. The one way the store groups work that must decide between its statements
 * (lock a row, decide on what it holds, write the move with its event). A unit is written for one
 * item — `(tx) => …` for one payout create, one piece of news about one payout or one order — and
 * the store decides how units run together; the writers hand it their units (payout-units.ts,
 * payment-order-transitions.ts) and services call the writers' single-item functions, never this
 * module (test/foundation/layers.test.ts checks it).
 *
 * Two entry points, one rule:
 * - `unitsOfKind(kind)`, on the pool: the units of one kind that arrive together share a
 *   transaction the store opens (a batched statement of batched.ts, sized by the kind's row of its
 *   table), and each call resolves with its own unit's result once that transaction has committed.
 *   When the shared transaction fails, every unit of it runs again in a transaction of its own, so
 *   one bad unit fails only its own caller.
 * - `unitsInTransaction(tx, items, keyOf, unit)`, in a transaction the caller holds (the intake's
 *   lane): one unit per item.
 * Either way the units of a transaction run side by side, so that their single-item statements
 * (`coalesced` below) reach the database as one statement per step, and units with the same key
 * never run together: a unit whose key an earlier unit already has waits for the next round, and so
 * decides on what the earlier one wrote, exactly as if it ran in its own transaction afterwards.
 * Nothing is replayed in memory. The key names the row a unit moves (an order's or a payout's
 * reference); where it cannot (held payout attempts, keyed by attempt), a coalesced write that
 * meets the same row twice fails (payout-writes-repo writeMove), and every unit runs again alone.
 *
 * What the types hold: a unit gets a `Tx` (db.ts), which only a transaction hands out, and a
 * coalesced statement takes nothing else (not the pool, not a bare connection), so it cannot be
 * called outside a transaction; `unitsInTransaction` takes a `Tx`, never the pool (whose
 * statements would lock nothing); `unitsOfKind` takes a `Db`, never a `Tx`, so no unit is queued
 * for the pool while its caller holds a connection in a transaction (a small pool is then slow,
 * never deadlocked). What TypeScript cannot see — a `Tx` kept past its transaction, a call left
 * un-awaited until after commit — is refused at run time: such a statement is never sent.
 */
import DataLoader from 'dataloader';
import type pg from 'pg';
import { batched, type BatchName } from './batched.js';
import { type Db, type PreparedStatement, transactionOf, type Tx } from './db.js';

/** One unit of work, written for one item; it runs in the transaction it is given. */
export type Unit<R> = (tx: Tx) => Promise<R>;

/**
 * Runs one unit of a kind: `run(db, key, unit)` resolves with the unit's result once the
 * transaction it ran in has committed (shared with the units of the kind that arrived together).
 */
export type UnitsOfKind = <R>(db: Db, key: string, unit: Unit<R>) => Promise<R>;

/** The units of one kind (a row of batched.ts's table, used by one call only, as for `batched`). */
export function unitsOfKind(kind: BatchName): UnitsOfKind {
  type Queued = { unit: Unit<unknown>; key: string };
  const run = batched<Queued, unknown>(kind, (db, queued) => db.tx((tx) => unitsInTransaction(tx, queued, (q) => q.key, (t, q) => q.unit(t))));
  return <R>(db: Db, key: string, unit: Unit<R>) => run(db, { unit, key }) as Promise<R>;
}

/**
 * Runs `unit` for every item in the caller's transaction `tx` and returns their results in the
 * items' order. Rounds keep the items' order per key. If a unit fails, every unit is let finish (a
 * statement queued after a rollback would run outside the transaction) and the first failure is
 * thrown, so the caller's transaction rolls back as a whole.
 */
export async function unitsInTransaction<T, R>(tx: Tx, items: T[], keyOf: (item: T) => string, unit: (tx: Tx, item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let rest = items.map((item, index) => ({ item, index }));
  while (rest.length > 0) {
    const round: typeof rest = [];
    const later: typeof rest = [];
    const keys = new Set<string>();
    for (const entry of rest) {
      const key = keyOf(entry.item);
      if (keys.has(key)) later.push(entry);
      else {
        keys.add(key);
        round.push(entry);
      }
    }
    let failure: { err: unknown } | null = null;
    await Promise.all(
      round.map(async ({ item, index }) => {
        try {
          results[index] = await unit(tx, item);
        } catch (err) {
          // The first failure is the cause; the others are mostly "current transaction is aborted".
          failure ??= { err };
        }
      }),
    );
    if (failure) throw (failure as { err: unknown }).err;
    rest = later;
  }
  return results;
}

/**
 * A single-item statement of a transaction, `lockAttempt(tx, id)`: its result is its own item's.
 * The calls made on the same transaction before the event loop turns (the units side by side reach
 * each step together) go to the database as one statement, so N units in a shared transaction
 * still cost one lock statement, one write and one event insert, not N of each. Only inside a
 * transaction: there a failing statement dooms the whole transaction anyway, so one statement for
 * several items loses nothing (on the pool, independent requests would fail each other).
 */
export type CoalescedCall<T, R> = (tx: Tx, item: T) => Promise<R>;

/**
 * `call` gets the items of one tick (in the order their calls were made) and returns one result per
 * item, in that order (nothing for a write without results). The grouping is DataLoader's (one
 * batch per tick, collected across promise hops), without its cache: a lock or a write must reach
 * the database every time.
 */
export function coalesced<T, R = void>(call: (tx: Tx, items: T[]) => Promise<R[] | undefined | void>): CoalescedCall<T, R> {
  // One loader per transaction (not per pooled client, which serves the next transaction after).
  const loaders = new WeakMap<object, DataLoader<T, R>>();
  return (tx, item) => {
    const transaction = transactionOf(tx);
    // Not in a transaction (a Tx kept past its transaction, or the pool cast to one): never sent.
    if (!transaction) return Promise.reject(new Error('coalesced statement called outside a transaction'));
    let loader = loaders.get(transaction);
    if (!loader) {
      loader = new DataLoader<T, R>(async (items) => {
        // A call left un-awaited would otherwise run after its transaction ended: outside any
        // transaction, or inside the client's next one.
        if (transactionOf(tx) !== transaction) throw new Error('coalesced statement sent after its transaction ended');
        const results = await call(tx, [...items]);
        return items.map((_, i) => results?.[i] as R);
      }, { cache: false });
      loaders.set(transaction, loader);
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
  return coalesced<string, R | undefined>(async (tx, keys) => {
    const r = await tx.query<Row>(statement, [[...new Set(keys)]]);
    const found = new Map(r.rows.map((row) => [keyOf(row), row]));
    return keys.map((key) => {
      const row = found.get(key);
      return row === undefined ? undefined : view(row);
    });
  });
}
