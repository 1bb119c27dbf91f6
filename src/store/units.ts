/**
 * Units of work: the one way the store groups work that must decide between its statements (lock a
 * row, decide on what it holds, write the move with its event). A unit is written for one item —
 * `(tx) => …` for one payout create, one piece of news about one payout or one order — and the
 * store decides how units run together; the writers hand it their units (payout-units.ts,
 * payment-order-transitions.ts) and services call the writers' single-item functions, never this
 * module (test/foundation/layers.test.ts checks it).
 *
 * Two entry points, one rule:
 * - `unitsOfKind(kind)`, on the pool: the units of one kind that arrive together share a
 *   transaction the store opens (sized by the kind's row of batch-limits.ts, like `batched`), and
 *   each call resolves with its own unit's result once that transaction has committed. When the
 *   shared transaction fails, every unit of it runs again in a transaction of its own, so one bad
 *   unit fails only its own caller.
 * - `unitsInTransaction(tx, items, keyOf, unit)`, in a transaction the caller holds (the intake's
 *   lane): one unit per item.
 * Either way the units of a transaction run side by side, so that their single-item statements
 * coalesce into one statement per step (coalesced.ts), and units with the same key never run
 * together: a unit whose key an earlier unit already has waits for the next round, and so decides
 * on what the earlier one wrote, exactly as if it ran in its own transaction afterwards. Nothing is
 * replayed in memory. The key names the row a unit moves (an order's or a payout's reference);
 * where it cannot (held payout attempts, keyed by attempt), a coalesced write that meets the same
 * row twice fails (payout-writes-repo writeMove), and every unit runs again alone.
 *
 * What the types hold: a unit gets a `Tx` (db.ts), which only a transaction hands out;
 * `unitsInTransaction` takes a `Tx`, never the pool (whose statements would lock nothing); and
 * `unitsOfKind` takes a `Db`, never a `Tx`, so no unit is queued for the pool while its caller
 * holds a connection in a transaction (a small pool is then slow, never deadlocked). A single-item
 * statement left un-awaited inside a unit is still refused at run time (coalesced.ts): the unit's
 * transaction may have ended before it is sent.
 */
import { batched } from './batched.js';
import type { BatchName } from './batch-limits.js';
import type { Db, Tx } from './db.js';

/** One unit of work, written for one item; it runs in the transaction it is given. */
export type Unit<R> = (tx: Tx) => Promise<R>;

/**
 * Runs one unit of a kind: `run(db, key, unit)` resolves with the unit's result once the
 * transaction it ran in has committed (shared with the units of the kind that arrived together).
 */
export type UnitsOfKind = <R>(db: Db, key: string, unit: Unit<R>) => Promise<R>;

/** The units of one kind (a row of batch-limits.ts, used by one call only, as for `batched`). */
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
