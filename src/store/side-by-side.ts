/**
 * Units of work in one transaction, side by side: each unit is written for one item (lock it,
 * decide, write), and the units run together so that their single-item statements coalesce
 * (coalesced.ts) into one statement per step. Units with the same key never run together: a
 * unit whose key an earlier unit already has waits for the next round, and so decides on what the
 * earlier one wrote, exactly as if it ran in its own transaction afterwards. Nothing is replayed
 * in memory. The caller's key names the row its units move (an order's or a payout's reference);
 * where it cannot (held payout attempts, keyed by attempt), a coalesced write that meets the same
 * row twice fails (payouts-repo writeMove), and every unit runs again alone.
 */
import type { Queryable } from './db.js';

/**
 * Runs `unit` for every item in the transaction `tx` and returns their results in the items' order.
 * Rounds keep the items' order per key. If a unit fails, every unit is let finish (a statement
 * queued after a rollback would run outside the transaction) and the first failure is thrown, so
 * the caller's transaction rolls back as a whole.
 */
export async function sideBySide<T, R>(tx: Queryable, items: T[], keyOf: (item: T) => string, unit: (tx: Queryable, item: T) => Promise<R>): Promise<R[]> {
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
