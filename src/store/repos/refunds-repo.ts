/** SQL of refunds (table refunds, migration 0014). Status changes are written by src/services/refunds/refunds.ts only. */
import { RELEASED_REFUND_STATUSES, type RefundReview, type RefundStatus } from '../../domain/refund.js';
import type { Queryable } from '../db.js';

export interface RefundRow {
  id: string;
  refund_id: string;
  order_pk: string;
  org_id: string;
  client_pk: string;
  amount_paise: number;
  currency: 'INR';
  reason: string | null;
  status: RefundStatus;
  submission: 'NOT_SENT' | 'ACCEPTED' | 'UNKNOWN';
  provider: string;
  livemode: boolean;
  provider_reference: string | null;
  failure_reason: string | null;
  reviewed_by: string | null;
  /** The console user who started it (migration 0040); null through the merchant API. */
  requested_by_user_id: string | null;
  /** The console user shown the API client secret that made it (migration 0092); null: the console, the operator's CLI, or older. */
  requested_with_secret_of: string | null;
  review_note: string | null;
  reviewed_at: Date | null;
  claimed_until: Date | null;
  provider_calls: number;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** A refund with the order_id of its order (what the API shows). */
export type RefundWithOrder = RefundRow & { order_id: string; /** The order's provider account: the refund goes where the payment was made. */ provider_account_id: string | null };

const WITH_ORDER = `SELECT r.*, o.order_id, o.provider_account_id FROM refunds r JOIN payment_orders o ON o.id = r.order_pk`;

export async function orgRefundReview(q: Queryable, orgId: string): Promise<RefundReview> {
  const r = await q.query<{ refund_review: RefundReview }>('SELECT refund_review FROM organizations WHERE id = $1', [orgId]);
  return r.rows[0]?.refund_review ?? 'required';
}

export async function setOrgRefundReview(q: Queryable, orgId: string, review: RefundReview): Promise<{ id: string; name: string; refund_review: RefundReview } | null> {
  const r = await q.query<{ id: string; name: string; refund_review: RefundReview }>('UPDATE organizations SET refund_review = $2 WHERE id = $1 RETURNING id, name, refund_review', [
    orgId,
    review,
  ]);
  return r.rows[0] ?? null;
}

/** Sum of the order's refunds that still count against its amount (not REJECTED/FAILED). Call under the order's lock. */
export async function committedAmount(q: Queryable, orderPk: string): Promise<number> {
  const r = await q.query<{ n: string }>(`SELECT coalesce(sum(amount_paise), 0)::text AS n FROM refunds WHERE order_pk = $1 AND status <> ALL($2::text[])`, [orderPk, RELEASED_REFUND_STATUSES]);
  return Number(r.rows[0]!.n);
}

export async function completedAmount(q: Queryable, orderPk: string): Promise<number> {
  const r = await q.query<{ n: string }>(`SELECT coalesce(sum(amount_paise), 0)::text AS n FROM refunds WHERE order_pk = $1 AND status = 'COMPLETED'`, [orderPk]);
  return Number(r.rows[0]!.n);
}

export type NewRefund = Pick<RefundRow, 'id' | 'refund_id' | 'order_pk' | 'org_id' | 'client_pk' | 'amount_paise' | 'reason' | 'status' | 'provider' | 'livemode'> & {
  /** Held by the creating request while it calls the provider (PROCESSING only). */
  leaseMs: number | null;
  /** The console user who started it; absent through the merchant API. */
  requestedByUserId?: string | undefined;
  /** Through the merchant API: the console user shown the secret that authenticated it (null: the operator's CLI). */
  requestedWithSecretOf?: string | null | undefined;
};

export async function insertRefund(q: Queryable, r: NewRefund): Promise<RefundRow> {
  const res = await q.query<RefundRow>(
    `INSERT INTO refunds (id, refund_id, order_pk, org_id, client_pk, amount_paise, reason, status, provider, livemode, claimed_until, requested_by_user_id, requested_with_secret_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11::bigint IS NULL THEN NULL ELSE now() + make_interval(secs => $11::double precision / 1000) END, $12, $13)
     RETURNING *`,
    [r.id, r.refund_id, r.order_pk, r.org_id, r.client_pk, r.amount_paise, r.reason, r.status, r.provider, r.livemode, r.leaseMs, r.requestedByUserId ?? null, r.requestedWithSecretOf ?? null],
  );
  return res.rows[0]!;
}

/** FOR NO KEY UPDATE: see payment-orders-repo.ts lockById (settlement lines reference refunds too). */
export async function lockRefund(q: Queryable, id: string): Promise<RefundRow | null> {
  const r = await q.query<RefundRow>('SELECT * FROM refunds WHERE id = $1 FOR NO KEY UPDATE', [id]);
  return r.rows[0] ?? null;
}

/** By id (UUID) or refund_id; `clientPk` scopes it to one API client (null: any, for the admin API). */
export async function findRefund(q: Queryable, ref: { id?: string; refundId?: string }, clientPk: string | null): Promise<RefundWithOrder | null> {
  const r = await q.query<RefundWithOrder>(`${WITH_ORDER} WHERE ${ref.id !== undefined ? 'r.id = $1' : 'r.refund_id = $1'} AND ($2::uuid IS NULL OR r.client_pk = $2)`, [
    ref.id ?? ref.refundId,
    clientPk,
  ]);
  return r.rows[0] ?? null;
}

export async function refundsOfOrder(q: Queryable, orderPk: string): Promise<RefundWithOrder[]> {
  const r = await q.query<RefundWithOrder>(`${WITH_ORDER} WHERE r.order_pk = $1 ORDER BY r.created_at, r.id`, [orderPk]);
  return r.rows;
}

export async function listRefunds(q: Queryable, f: { orgId?: string | undefined; status?: RefundStatus | undefined; limit: number }): Promise<RefundWithOrder[]> {
  const r = await q.query<RefundWithOrder>(
    `${WITH_ORDER} WHERE ($1::uuid IS NULL OR r.org_id = $1) AND ($2::text IS NULL OR r.status = $2) ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
    [f.orgId ?? null, f.status ?? null, f.limit],
  );
  return r.rows;
}

/** What changes with a move (null keeps what is stored). */
export interface RefundChange {
  status?: RefundStatus;
  submission?: RefundRow['submission'];
  providerReference?: string | null;
  failureReason?: string | null;
  completedAt?: Date | null;
  review?: { actor: string; note: string };
  /** A lease from now (ms), or null to release it. */
  leaseMs?: number | null;
  lastError?: string | null;
  countCall?: boolean;
}

export async function updateRefund(q: Queryable, id: string, c: RefundChange): Promise<RefundRow> {
  const r = await q.query<RefundRow>(
    `UPDATE refunds SET
        status = coalesce($2, status),
        submission = coalesce($3, submission),
        provider_reference = coalesce($4, provider_reference),
        failure_reason = coalesce($5, failure_reason),
        completed_at = coalesce($6, completed_at),
        reviewed_by = coalesce($7, reviewed_by),
        review_note = coalesce($8, review_note),
        reviewed_at = CASE WHEN $7::text IS NULL THEN reviewed_at ELSE now() END,
        claimed_until = CASE WHEN $9::boolean THEN (CASE WHEN $10::bigint IS NULL THEN NULL ELSE now() + make_interval(secs => $10::double precision / 1000) END) ELSE claimed_until END,
        last_error = CASE WHEN $11::boolean THEN $12 ELSE last_error END,
        provider_calls = provider_calls + CASE WHEN $13::boolean THEN 1 ELSE 0 END,
        updated_at = now()
      WHERE id = $1 RETURNING *`,
    [
      id,
      c.status ?? null,
      c.submission ?? null,
      c.providerReference ?? null,
      c.failureReason ?? null,
      c.completedAt ?? null,
      c.review?.actor ?? null,
      c.review?.note ?? null,
      'leaseMs' in c,
      c.leaseMs ?? null,
      'lastError' in c,
      c.lastError ?? null,
      c.countCall === true,
    ],
  );
  return r.rows[0]!;
}

/**
 * Claims PROCESSING refunds nobody holds (lease ended: a crashed or slow caller, an UNKNOWN answer
 * due for inquiry) for `leaseMs`; FOR NO KEY UPDATE SKIP LOCKED keeps instances off each other's rows.
 */
export async function claimDue(q: Queryable, limit: number, leaseMs: number): Promise<RefundWithOrder[]> {
  const r = await q.query<RefundWithOrder>(
    `WITH due AS (
       SELECT id FROM refunds WHERE status = 'PROCESSING' AND (claimed_until IS NULL OR claimed_until <= now())
        ORDER BY claimed_until NULLS FIRST LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE refunds r SET claimed_until = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
         FROM due WHERE r.id = due.id RETURNING r.*)
     SELECT c.*, o.order_id, o.provider_account_id FROM claimed c JOIN payment_orders o ON o.id = c.order_pk`,
    [limit, leaseMs],
  );
  return r.rows;
}

/** Refunds still PROCESSING, by where their provider call stands, with the oldest one's age (metrics). */
export async function unresolvedSummary(q: Queryable): Promise<Array<{ submission: string; n: number; oldest_s: number }>> {
  const r = await q.query<{ submission: string; n: number; oldest_s: number }>(
    `SELECT submission, count(*)::int AS n, coalesce(extract(epoch FROM now() - min(updated_at)), 0)::float8 AS oldest_s
       FROM refunds WHERE status = 'PROCESSING' GROUP BY submission`,
  );
  return r.rows;
}
