/** SQL for payout routes (bank_connections). */
import type { PayoutMode } from '../../domain/payout.js';
import type { Queryable } from '../db.js';

export interface RouteRow {
  id: string;
  org_id: string;
  name: string;
  provider: string;
  modes: PayoutMode[];
  active: boolean;
  is_default: boolean;
}

const COLUMNS = 'id, org_id, name, provider, modes, active, is_default';

/** Locks the organization row so that concurrent first routes cannot both become the default. */
export async function lockOrg(q: Queryable, orgId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  return r.rowCount === 1;
}

/** The organization's first route becomes its default. Call after lockOrg in the same transaction. */
export async function insertRoute(q: Queryable, r: { id: string; orgId: string; name: string; provider: string; modes: PayoutMode[] }): Promise<RouteRow> {
  const res = await q.query<RouteRow>(
    `INSERT INTO bank_connections (id, org_id, name, provider, modes, is_default)
     VALUES ($1, $2, $3, $4, $5, NOT EXISTS (SELECT 1 FROM bank_connections WHERE org_id = $2 AND is_default))
     RETURNING ${COLUMNS}`,
    [r.id, r.orgId, r.name, r.provider, r.modes],
  );
  return res.rows[0] as RouteRow;
}

/** The given active route of the organization, or (id null) its active default route. */
export async function findUsableRoute(q: Queryable, orgId: string, id: string | null): Promise<RouteRow | null> {
  const res =
    id === null
      ? await q.query<RouteRow>(`SELECT ${COLUMNS} FROM bank_connections WHERE org_id = $1 AND is_default AND active`, [orgId])
      : await q.query<RouteRow>(`SELECT ${COLUMNS} FROM bank_connections WHERE org_id = $1 AND id = $2 AND active`, [orgId, id]);
  return res.rows[0] ?? null;
}
