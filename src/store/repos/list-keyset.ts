/**
 * The SQL of the merchant API lists' keyset pages (services/shared/list-page.ts): newest first by
 * (created_at, id), served by the (client_pk[, status], created_at DESC, id DESC) indexes of
 * migration 0016. The key is the exact timestamptz in µs since the epoch (text: a bigint).
 */

/** Where a page starts: strictly after (older than) this row. */
export interface ListKey {
  createdUs: string;
  id: string;
}

export interface ListFilter {
  clientPk: string;
  status?: string;
  createdFrom?: Date;
  createdTo?: Date;
  after?: ListKey;
  /** Rows wanted on the page; the repo reads one more to know whether another page follows. */
  limit: number;
}

/** The WHERE clause and parameters of a list statement over `alias` (columns client_pk, status, created_at, id). */
export function listWhere(f: ListFilter, alias: string): { where: string; params: unknown[] } {
  const params: unknown[] = [f.clientPk];
  const conds = [`${alias}.client_pk = $1`];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conds.push(sql(`$${params.length}`));
  };
  if (f.status !== undefined) add((n) => `${alias}.status = ${n}`, f.status);
  if (f.createdFrom !== undefined) add((n) => `${alias}.created_at >= ${n}`, f.createdFrom);
  if (f.createdTo !== undefined) add((n) => `${alias}.created_at <= ${n}`, f.createdTo);
  if (f.after !== undefined) {
    params.push(f.after.createdUs, f.after.id);
    const us = `$${params.length - 1}`;
    const id = `$${params.length}`;
    conds.push(`(${alias}.created_at, ${alias}.id) < (timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond', ${id}::uuid)`);
  }
  return { where: conds.join(' AND '), params };
}

/** The µs key column every list statement selects. */
export const LIST_KEY_COLUMN = (alias: string) => `(extract(epoch FROM ${alias}.created_at) * 1000000)::bigint::text AS list_key_us`;

/**
 * The ORDER BY and LIMIT (limit + 1, as the last parameter, pushed onto `params`): the statement's
 * text depends only on which filters are present (16 texts per table), so it is prepared once per
 * connection (db.ts `prepared`) instead of parsed and planned on every request.
 */
export function listTail(alias: string, f: ListFilter, params: unknown[]): string {
  params.push(f.limit + 1);
  return `ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT $${params.length}`;
}

