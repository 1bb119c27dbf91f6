/** SQL of the console's audit log. */
import type { Queryable } from '../db.js';

export interface AuditRow {
  id: string;
  org_id: string;
  actor_id: string | null;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: Date;
}

export async function insertAudit(q: Queryable, a: Omit<AuditRow, 'created_at'>): Promise<void> {
  await q.query(
    `INSERT INTO console_audit_log (id, org_id, actor_id, actor, action, target_type, target_id, before, after, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [a.id, a.org_id, a.actor_id, a.actor, a.action, a.target_type, a.target_id, a.before === null ? null : JSON.stringify(a.before), a.after === null ? null : JSON.stringify(a.after), a.ip],
  );
}

export interface AuditFilter {
  orgId: string;
  action?: string | undefined;
  actor?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Keyset: rows with a smaller (older: ids are time-ordered) id. */
  beforeId?: string | undefined;
  limit: number;
}

export async function listAudit(q: Queryable, f: AuditFilter): Promise<AuditRow[]> {
  const where = ['org_id = $1'];
  const values: unknown[] = [f.orgId];
  const add = (sql: string, v: unknown) => {
    values.push(v);
    where.push(sql.replace('?', `$${values.length}`));
  };
  if (f.action) add('action LIKE ?', `${f.action.replace(/[\\%_]/g, '\\$&')}%`);
  if (f.actor) add('actor = ?', f.actor.toLowerCase());
  if (f.from) add('created_at >= ?', f.from);
  if (f.to) add('created_at < ?', f.to);
  if (f.beforeId) add('id < ?', f.beforeId);
  values.push(f.limit);
  const r = await q.query<AuditRow>(
    `SELECT id, org_id, actor_id, actor, action, target_type, target_id, before, after, ip, created_at
       FROM console_audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`,
    values,
  );
  return r.rows;
}
