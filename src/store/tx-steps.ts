/**
 * Statements that shape a transaction rather than read or write an aggregate: a savepoint around
 * one step, one read-only snapshot for a whole transaction.
 */
import type { Queryable } from './db.js';

/**
 * Runs `step` after a savepoint named `name`; if it throws, the transaction is rolled back to the
 * savepoint (what the step wrote is undone, the transaction goes on) and `onFailure` is told the
 * error. A failure of the savepoint statement itself is thrown.
 */
export async function inSavepoint(tx: Queryable, name: string, step: () => Promise<void>, onFailure: (err: unknown) => Promise<void>): Promise<void> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad savepoint name ${name}`);
  await tx.query(`SAVEPOINT ${name}`);
  try {
    await step();
  } catch (err) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    await onFailure(err);
  }
}

/** The transaction reads one snapshot and writes nothing (its first statement). */
export async function readOneSnapshot(tx: Queryable): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}
