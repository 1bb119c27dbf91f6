/**
 * SQL of the payment orders' workers and reads: the live check's cross-instance gate, the expiry
 * worker's claim, the merchant list and an order's history. No status is written here (payment-orders-repo.ts
 * updateStatusWithHistory is the one status write).
 */
import { OPEN_ORDER_STATUSES, type PaymentOrderStatus } from '../../domain/payment-order.js';
import { prepared, type Queryable } from '../db.js';
import { LIST_KEY_COLUMN, type ListFilter, listTail, listWhere } from './list-keyset.js';
import { ORDER_SETTLEMENT_COLUMNS, ORDER_SETTLEMENT_JOIN, type PaymentOrderRow, type PaymentOrderViewRow, VIEW_COLUMNS } from './payment-orders-repo.js';

/**
 * The cross-instance 2-second gate of the live check: true for the one caller that may ask the
 * provider now. The database clock decides, so instances with skewed clocks agree.
 */
export async function claimLiveCheck(q: Queryable, id: string, minIntervalMs: number, at: Date | null = null): Promise<boolean> {
  // `at`: the service clock's now (src/clock.ts); null: the database's.
  const r = await q.query(
    `UPDATE payment_orders SET last_provider_check_at = COALESCE($4::timestamptz, now())
      WHERE id = $1 AND status = ANY($3::text[])
        AND (last_provider_check_at IS NULL OR last_provider_check_at <= COALESCE($4::timestamptz, now()) - make_interval(secs => $2::double precision / 1000))
      RETURNING 1`,
    [id, minIntervalMs, OPEN_ORDER_STATUSES, at],
  );
  return r.rowCount === 1;
}

/**
 * Leases a batch of open orders whose window ended (a hosted checkout that never got payer details
 * ends `checkoutLinkMinutes` after creation) for the expiry worker. SKIP LOCKED + lease: several
 * instances share the work, and an instance that dies mid-check releases its batch by timeout.
 */
/** The SQL form of domain/payment-order.ts windowEnded, with its constants as parameters. */
export async function claimExpiredOrders(q: Queryable, o: { limit: number; leaseMs: number; checkoutLinkMinutes: number; linkWindowStatus: string }): Promise<PaymentOrderRow[]> {
  const r = await q.query<PaymentOrderRow>(
    `UPDATE payment_orders SET expiry_claimed_until = now() + make_interval(secs => $2::double precision / 1000)
      WHERE id IN (
        SELECT id FROM payment_orders
         WHERE status = ANY($4::text[])
           AND (expires_at <= now() OR (expires_at IS NULL AND status = $5 AND created_at <= now() - make_interval(mins => $3)))
           AND (expiry_claimed_until IS NULL OR expiry_claimed_until <= now())
         ORDER BY expires_at NULLS FIRST
         LIMIT $1
         FOR NO KEY UPDATE SKIP LOCKED)
      RETURNING *`,
    [o.limit, o.leaseMs, o.checkoutLinkMinutes, OPEN_ORDER_STATUSES, o.linkWindowStatus],
  );
  return r.rows;
}

/** One page of a client's orders, newest first (the merchant list, contract §7): limit + 1 rows, the view's columns. */
export async function listForClient(q: Queryable, f: ListFilter): Promise<Array<PaymentOrderViewRow & { list_key_us: string }>> {
  const w = listWhere(f, 'o');
  const r = await q.query<PaymentOrderViewRow & { list_key_us: string }>(
    prepared(
      `SELECT ${VIEW_COLUMNS.map((c) => `o.${c}`).join(', ')}, ${ORDER_SETTLEMENT_COLUMNS}, ${LIST_KEY_COLUMN('o')} FROM payment_orders o ${ORDER_SETTLEMENT_JOIN('o')} WHERE ${w.where} ${listTail('o', f, w.params)}`,
    ),
    w.params,
  );
  return r.rows;
}

export interface HistoryRow {
  from_status: PaymentOrderStatus | null;
  to_status: PaymentOrderStatus;
  trigger: string;
  detail: Record<string, unknown> | null;
  created_at: Date;
}

export async function history(q: Queryable, orderPk: string): Promise<HistoryRow[]> {
  const r = await q.query<HistoryRow>(
    'SELECT from_status, to_status, trigger, detail, created_at FROM payment_order_transitions WHERE order_pk = $1 ORDER BY id',
    [orderPk],
  );
  return r.rows;
}
