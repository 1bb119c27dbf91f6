/** SQL for provider anomalies (migration 0028): written by the connectors' sink, read by the console. */
import type { Queryable } from '../db.js';

export interface NewAnomaly {
  id: string;
  provider_account_id: string;
  provider: string;
  kind: string;
  operation: string | null;
  resource_type: string | null;
  resource_ref: string | null;
  excerpt: string;
}

export interface AnomalyRow extends NewAnomaly {
  created_at: Date;
}

/** Inserts anomalies; the organization is the account's. Rows of an account that no longer exists are skipped. */
export async function insertAnomalies(q: Queryable, rows: NewAnomaly[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO provider_anomalies (id, org_id, provider_account_id, provider, kind, operation, resource_type, resource_ref, excerpt)
     SELECT r.id, a.org_id, a.id, r.provider, r.kind, r.operation, r.resource_type, r.resource_ref, r.excerpt
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, provider_account_id uuid, provider text, kind text, operation text, resource_type text, resource_ref text, excerpt text)
       JOIN provider_accounts a ON a.id = r.provider_account_id`,
    [JSON.stringify(rows)],
  );
}

export interface AnomalyFilter {
  orgId: string;
  accountId?: string | undefined;
  resource?: { type: 'payment_order' | 'payout'; ref: string } | undefined;
  /** Keyset: rows older than this one (ids are time-ordered UUIDv7, src/store/row-id.ts). */
  beforeId?: string | undefined;
  limit: number;
}

/** The organization's anomalies, newest first, narrowed to one account or one resource. */
export async function listAnomalies(q: Queryable, f: AnomalyFilter): Promise<AnomalyRow[]> {
  const where = ['org_id = $1'];
  const params: unknown[] = [f.orgId];
  if (f.accountId !== undefined) {
    params.push(f.accountId);
    where.push(`provider_account_id = $${params.length}`);
  }
  if (f.resource) {
    params.push(f.resource.type, f.resource.ref);
    where.push(`resource_type = $${params.length - 1} AND resource_ref = $${params.length}`);
  }
  if (f.beforeId !== undefined) {
    params.push(f.beforeId);
    where.push(`id < $${params.length}`);
  }
  params.push(f.limit);
  const r = await q.query<AnomalyRow>(
    `SELECT id, provider_account_id, provider, kind, operation, resource_type, resource_ref, excerpt, created_at
       FROM provider_anomalies WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
  return r.rows;
}

/**
 * The provider account of a payout attempt's bank connection (null: the built-in sandbox, which has
 * no account) with its provider and the payout's transaction_id.
 */
export async function accountOfAttempt(q: Queryable, attemptId: string): Promise<{ provider_account_id: string | null; provider: string; transaction_id: string } | null> {
  const r = await q.query<{ provider_account_id: string | null; provider: string; transaction_id: string }>(
    `SELECT bc.provider_account_id, bc.provider, p.transaction_id
       FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id JOIN bank_connections bc ON bc.id = p.bank_connection_id
      WHERE a.id = $1`,
    [attemptId],
  );
  return r.rows[0] ?? null;
}
