/**
 * SQL of the master key rotation (src/services/keys/master-key-rotation.ts) over the columns of
 * src/services/keys/encrypted-columns.ts: a keyset page of one column's non-null values, and a
 * compare-and-set of one value (a row changed meanwhile by the service keeps its new value).
 * Table and column names come only from that fixed list, quoted as identifiers.
 */
import type { Queryable } from '../db.js';

export interface ColumnRef {
  table: string;
  column: string;
  key: readonly string[];
  extra?: readonly string[] | undefined;
}

const ident = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not an identifier: ${name}`);
  return `"${name}"`;
};

export interface EncryptedValueRow {
  key: string[];
  fields: Record<string, string>;
  value: Buffer;
}

/** Up to `limit` rows of the column after `after` (its key values as text), in key order. */
export async function pageOfEncrypted(q: Queryable, c: ColumnRef, after: readonly string[] | null, limit: number): Promise<EncryptedValueRow[]> {
  const keys = c.key.map(ident);
  const fields = [...c.key, ...(c.extra ?? [])];
  const select = fields.map((f, i) => `${ident(f)}::text AS f${i}`).join(', ');
  // Native key order (the primary key's index); the key values travel as text and PostgreSQL gives them the column's type.
  const tuple = `(${keys.join(', ')})`;
  const params: unknown[] = [limit];
  let where = `${ident(c.column)} IS NOT NULL`;
  if (after !== null) {
    params.push(...after);
    where += ` AND ${tuple} > (${after.map((_, i) => `$${i + 2}`).join(', ')})`;
  }
  const sql = `SELECT ${select}, ${ident(c.column)} AS v FROM ${ident(c.table)} WHERE ${where} ORDER BY ${keys.join(', ')} LIMIT $1`;
  const res = await q.query<Record<string, unknown>>(sql, params);
  return res.rows.map((row) => {
    const named: Record<string, string> = {};
    fields.forEach((f, i) => {
      const v = row[`f${i}`];
      if (v !== null && v !== undefined) named[f] = String(v);
    });
    return { key: c.key.map((k) => named[k] as string), fields: named, value: row.v as Buffer };
  });
}

/** Replaces the value only if it is still `old`; true when it was replaced. */
export async function replaceEncrypted(q: Queryable, c: ColumnRef, key: readonly string[], old: Buffer, next: Buffer): Promise<boolean> {
  const cond = c.key.map((k, i) => `${ident(k)} = $${i + 3}`).join(' AND ');
  const res = await q.query(`UPDATE ${ident(c.table)} SET ${ident(c.column)} = $1 WHERE ${ident(c.column)} = $2 AND ${cond}`, [next, old, ...key]);
  return (res.rowCount ?? 0) === 1;
}

/** Whether the table exists (a column listed for a module whose migrations have not run). */
export async function tableExists(q: Queryable, table: string): Promise<boolean> {
  const res = await q.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [table]);
  return res.rows[0]?.ok === true;
}

export async function insertOperatorAudit(q: Queryable, e: { id: string; actor: string; action: string; detail: Record<string, unknown>; ip: string | null }): Promise<void> {
  await q.query('INSERT INTO operator_audit_log (id, actor, action, detail, ip) VALUES ($1, $2, $3, $4, $5)', [e.id, e.actor, e.action, JSON.stringify(e.detail), e.ip]);
}

/** Inserts the entry unless one with the same action and detail exists (start-up notes written by every instance). */
export async function insertOperatorAuditOnce(q: Queryable, e: { id: string; actor: string; action: string; detail: Record<string, unknown> }): Promise<void> {
  await q.query(
    `INSERT INTO operator_audit_log (id, actor, action, detail)
     SELECT $1, $2, $3, $4::jsonb WHERE NOT EXISTS (SELECT 1 FROM operator_audit_log WHERE action = $3 AND detail = $4::jsonb)`,
    [e.id, e.actor, e.action, JSON.stringify(e.detail)],
  );
}

export async function listOperatorAudit(q: Queryable, limit: number): Promise<Array<{ id: string; actor: string; action: string; detail: Record<string, unknown>; ip: string | null; created_at: Date }>> {
  const res = await q.query<{ id: string; actor: string; action: string; detail: Record<string, unknown>; ip: string | null; created_at: Date }>(
    'SELECT id, actor, action, detail, ip, created_at FROM operator_audit_log ORDER BY id DESC LIMIT $1',
    [limit],
  );
  return res.rows;
}

/** The look-up key fingerprint the last verified master key rotation recorded, if any. */
export async function recordedLookupFingerprint(q: Queryable): Promise<string | null> {
  const res = await q.query<{ fp: string | null }>(
    `SELECT detail->>'lookup_fingerprint' AS fp FROM operator_audit_log
      WHERE action = 'master_key.rotation_verified' AND detail ? 'lookup_fingerprint' ORDER BY id DESC LIMIT 1`,
  );
  return res.rows[0]?.fp ?? null;
}
