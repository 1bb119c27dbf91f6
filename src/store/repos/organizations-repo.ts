/** An organization's settings row (name, refund review) for the console's settings page. */
import type { Queryable } from '../db.js';

export interface OrgSettingsRow {
  id: string;
  name: string;
  refund_review: 'none' | 'required';
  created_at: Date;
}

const COLUMNS = 'id, name, refund_review, created_at';

export async function findOrgSettings(q: Queryable, orgId: string): Promise<OrgSettingsRow | null> {
  const r = await q.query<OrgSettingsRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [orgId]);
  return r.rows[0] ?? null;
}

/** The row locked for the rest of the transaction (two admins saving at once: one after the other). */
export async function lockOrgSettings(q: Queryable, orgId: string): Promise<OrgSettingsRow | null> {
  const r = await q.query<OrgSettingsRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1 FOR UPDATE`, [orgId]);
  return r.rows[0] ?? null;
}

export async function updateOrgSettings(q: Queryable, orgId: string, s: { name: string; refund_review: 'none' | 'required' }): Promise<OrgSettingsRow> {
  const r = await q.query<OrgSettingsRow>(`UPDATE organizations SET name = $2, refund_review = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [orgId, s.name, s.refund_review]);
  return r.rows[0] as OrgSettingsRow;
}
