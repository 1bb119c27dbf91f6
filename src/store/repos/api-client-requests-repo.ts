/** SQL of the API client requests waiting for a second admin (migration 0038). */
import type { Queryable } from '../db.js';

export type ClientRequestKind = 'create' | 'update' | 'rotate';
export type ClientRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'COLLECTED';

export interface ClientRequestRow {
  id: string;
  org_id: string;
  kind: ClientRequestKind;
  client_id: string | null;
  change: Record<string, unknown>;
  requested_by: string;
  requester_email: string;
  status: ClientRequestStatus;
  decided_by: string | null;
  decided_at: Date | null;
  collected_at: Date | null;
  created_at: Date;
}

const COLS = `r.id, r.org_id, r.kind, r.client_id, r.change, r.requested_by, u.email AS requester_email, r.status, r.decided_by,
  r.decided_at, r.collected_at, r.created_at`;

export async function insertRequest(
  q: Queryable,
  r: { id: string; org_id: string; kind: ClientRequestKind; client_id: string | null; change: unknown; requested_by: string },
): Promise<void> {
  await q.query('INSERT INTO api_client_requests (id, org_id, kind, client_id, change, requested_by) VALUES ($1, $2, $3, $4, $5, $6)', [
    r.id, r.org_id, r.kind, r.client_id, JSON.stringify(r.change), r.requested_by,
  ]);
}

export async function findRequest(q: Queryable, orgId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<ClientRequestRow | null> {
  const r = await q.query<ClientRequestRow>(
    `SELECT ${COLS} FROM api_client_requests r JOIN console_users u ON u.id = r.requested_by WHERE r.id = $1 AND r.org_id = $2${opts.forUpdate ? ' FOR UPDATE OF r' : ''}`,
    [id, orgId],
  );
  return r.rows[0] ?? null;
}

export async function listRequests(q: Queryable, orgId: string, limit: number): Promise<ClientRequestRow[]> {
  const r = await q.query<ClientRequestRow>(
    `SELECT ${COLS} FROM api_client_requests r JOIN console_users u ON u.id = r.requested_by WHERE r.org_id = $1 ORDER BY r.created_at DESC, r.id LIMIT $2`,
    [orgId, limit],
  );
  return r.rows;
}

export async function decideRequest(q: Queryable, id: string, status: 'APPROVED' | 'REJECTED', decidedBy: string): Promise<void> {
  await q.query(`UPDATE api_client_requests SET status = $2, decided_by = $3, decided_at = now() WHERE id = $1 AND status = 'PENDING'`, [id, status, decidedBy]);
}

/** Marks an approved request collected (once); false when it was not APPROVED any more. */
export async function markCollected(q: Queryable, id: string, clientId: string): Promise<boolean> {
  const r = await q.query(`UPDATE api_client_requests SET status = 'COLLECTED', collected_at = now(), client_id = $2 WHERE id = $1 AND status = 'APPROVED'`, [id, clientId]);
  return (r.rowCount ?? 0) === 1;
}
