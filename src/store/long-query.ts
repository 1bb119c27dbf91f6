/**
 * A statement allowed more time than a request's (the pool's 10 s statement timeout and its
 * client-side query timeout): the completing transaction of a long settlement import, and
 * `ledger verify` over a large journal. Only inside db.tx(), whose Queryable is the pool's client
 * (Queryable itself takes no per-query options); the caller first raises the transaction's own
 * limit with setLongStatementTimeout.
 */
import type pg from 'pg';
import type { Queryable } from './db.js';

export const LONG_STATEMENT_MS = 600_000;

export async function setLongStatementTimeout(tx: Queryable, ms = LONG_STATEMENT_MS): Promise<void> {
  await tx.query(`SET LOCAL statement_timeout = ${Math.trunc(ms)}`);
}

export function longQuery<R extends pg.QueryResultRow>(tx: Queryable, text: string, values: unknown[], ms = LONG_STATEMENT_MS): Promise<pg.QueryResult<R>> {
  return (tx as unknown as pg.ClientBase).query<R>({ text, values, query_timeout: ms + 5_000 } as pg.QueryConfig);
}

/** `tx` whose plain-text statements run as longQuery: for repository functions written against Queryable. */
export function withLongStatements(tx: Queryable, ms = LONG_STATEMENT_MS): Queryable {
  return {
    query: <R extends pg.QueryResultRow>(text: string | { name: string; text: string }, values?: unknown[]) =>
      typeof text === 'string' ? longQuery<R>(tx, text, values ?? [], ms) : tx.query<R>(text, values),
  };
}
