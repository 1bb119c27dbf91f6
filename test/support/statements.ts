/**
 * Counts the statements a transaction sends while `fn` runs: for the tests that show the units of
 * work of a shared transaction coalescing their single-item statements (src/store/shared-transactions.ts).
 */
import type { Queryable } from '../../src/store/db.js';

export async function countingStatements<R>(tx: Queryable, fn: () => Promise<R>): Promise<{ result: R; statements: number }> {
  const client = tx as unknown as { query: (...args: unknown[]) => unknown };
  const original = client.query;
  let statements = 0;
  client.query = (...args: unknown[]) => {
    statements++;
    return original.apply(client, args);
  };
  try {
    return { result: await fn(), statements };
  } finally {
    client.query = original;
  }
}
