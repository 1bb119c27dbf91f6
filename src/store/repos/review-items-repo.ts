/** SQL of the operations review queue (table review_items, migration 0014). */
import type { PaymentOrderStatus } from '../../domain/payment-order.js';
import type { ReviewKind, ReviewStatus } from '../../domain/review.js';
import type { Queryable } from '../db.js';
import { newRowId } from '../row-id.js';

export interface ReviewItemRow {
  id: string;
  org_id: string;
  order_pk: string;
  kind: ReviewKind;
  dedupe_key: string;
  order_status_at_open: PaymentOrderStatus;
  reported: Record<string, unknown> | null;
  payer_reference: string | null;
  status: ReviewStatus;
  acted_by: string | null;
  note: string | null;
  acted_at: Date | null;
  created_at: Date;
}

export interface NewReviewItem {
  orgId: string;
  orderPk: string;
  kind: ReviewKind;
  dedupeKey: string;
  orderStatus: PaymentOrderStatus;
  reported: Record<string, unknown> | null;
  payerReference: string | null;
}

/**
 * Opens an item and flags its order for review, in one statement; the same news again (same
 * order and key) opens nothing. True when an item was opened.
 */
export async function openItem(q: Queryable, i: NewReviewItem): Promise<boolean> {
  const r = await q.query(
    `WITH ins AS (
       INSERT INTO review_items (id, org_id, order_pk, kind, dedupe_key, order_status_at_open, reported, payer_reference)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (order_pk, dedupe_key) DO NOTHING RETURNING order_pk)
     UPDATE payment_orders SET review_required = true, updated_at = now() WHERE id IN (SELECT order_pk FROM ins) RETURNING 1`,
    [newRowId(), i.orgId, i.orderPk, i.kind, i.dedupeKey, i.orderStatus, i.reported === null ? null : JSON.stringify(i.reported), i.payerReference],
  );
  return r.rowCount === 1;
}

export async function lockItem(q: Queryable, id: string): Promise<ReviewItemRow | null> {
  const r = await q.query<ReviewItemRow>('SELECT * FROM review_items WHERE id = $1 FOR UPDATE', [id]);
  return r.rows[0] ?? null;
}

export async function findItem(q: Queryable, id: string): Promise<ReviewItemRow | null> {
  const r = await q.query<ReviewItemRow>('SELECT * FROM review_items WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

/** Closes an open item; null when it was not open any more (the caller holds its lock). */
export async function closeItem(q: Queryable, c: { id: string; status: ReviewStatus; actor: string; note: string }): Promise<ReviewItemRow | null> {
  const r = await q.query<ReviewItemRow>(
    `UPDATE review_items SET status = $2, acted_by = $3, note = $4, acted_at = now() WHERE id = $1 AND status = 'open' RETURNING *`,
    [c.id, c.status, c.actor, c.note],
  );
  return r.rows[0] ?? null;
}

export async function listItems(q: Queryable, f: { orgId?: string | undefined; status?: ReviewStatus | undefined; orderPk?: string | undefined; limit: number; openFirst?: boolean }): Promise<ReviewItemRow[]> {
  const r = await q.query<ReviewItemRow>(
    `SELECT * FROM review_items
      WHERE ($1::uuid IS NULL OR org_id = $1) AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR order_pk = $3)
      ORDER BY ($5::boolean AND status <> 'open'), created_at DESC, id DESC LIMIT $4`,
    [f.orgId ?? null, f.status ?? null, f.orderPk ?? null, f.limit, f.openFirst === true],
  );
  return r.rows;
}
