/**
 * The console's reads of an organization's payment orders and payouts (issue #19 item 3): lists
 * newest first with keyset pagination on (created_at, id), and one resource with its history.
 * Every statement is scoped by org_id; the indexes are in migration 0017.
 */
import type { Queryable } from '../db.js';
import { ORDER_SETTLEMENT_COLUMNS, ORDER_SETTLEMENT_JOIN } from './payment-orders-repo.js';
import type { PayoutRow } from './payouts-repo.js';

/** A keyset position: created_at as PostgreSQL prints it (microseconds kept) and the row id. */
export interface Keyset {
  createdAt: string;
  id: string;
}

export interface ListFilter {
  orgId: string;
  status?: string;
  from?: Date;
  to?: Date;
  /** Search by the prefix of a reference (or a whole id): already split into what each reference can be (see the service). */
  search?: { text: string; uuids: string[] };
  after?: Keyset;
  limit: number;
}

/** created_at in UTC with microseconds: a Date would lose them and a cursor would skip rows. */
const KEY_TS = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key_ts`;

function where(f: ListFilter, searchColumns: string[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.orgId];
  const parts = ['org_id = $1'];
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.status !== undefined) parts.push(`status = ${p(f.status)}`);
  if (f.from !== undefined) parts.push(`created_at >= ${p(f.from)}`);
  if (f.to !== undefined) parts.push(`created_at < ${p(f.to)}`);
  if (f.search !== undefined) {
    // A reference starting with the text (LIKE with its wildcards escaped; indexes of migration 0090).
    const prefix = p(`${f.search.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const ors = searchColumns.map((c) => `${c} LIKE ${prefix}`);
    if (f.search.uuids.length > 0) ors.push(`id = ANY(${p(f.search.uuids)}::uuid[])`);
    parts.push(`(${ors.join(' OR ')})`);
  }
  if (f.after !== undefined) parts.push(`(created_at, id) < (${p(f.after.createdAt)}::timestamptz, ${p(f.after.id)}::uuid)`);
  return { sql: parts.join(' AND '), params: [...params, f.limit] };
}

export interface OrderListRow {
  id: string;
  order_id: string;
  merchant_order_reference: string | null;
  amount_paise: string | number;
  status: string;
  response_mode: string;
  bank_transaction_id: string | null;
  livemode: boolean;
  created_at: Date;
  purpose: string;
  customer_name: string | null;
  confirmed_at: Date | null;
  /** The settlement that covers the order (contract §9), null each while none does. */
  settlement_id: string | null;
  settlement_utr: string | null;
  settled_at: Date | null;
  key_ts: string;
}

export async function listOrders(q: Queryable, f: ListFilter): Promise<OrderListRow[]> {
  const w = where(f, ['merchant_order_reference', 'bank_transaction_id']);
  const r = await q.query<OrderListRow>(
    `SELECT id, order_id, merchant_order_reference, amount_paise, status, response_mode, bank_transaction_id, livemode, created_at,
            purpose, customer_name, confirmed_at, ${KEY_TS}, ${ORDER_SETTLEMENT_COLUMNS}
       FROM (SELECT * FROM payment_orders WHERE ${w.sql} ORDER BY created_at DESC, id DESC LIMIT $${w.params.length}) payment_orders
       ${ORDER_SETTLEMENT_JOIN('payment_orders')}
      ORDER BY created_at DESC, id DESC`,
    w.params,
  );
  return r.rows;
}

export interface PayoutListRow {
  id: string;
  transaction_id: string;
  client_reference: string | null;
  amount_paise: string | number;
  mode: string;
  status: string;
  beneficiary_name: string;
  beneficiary_last4: string;
  utr: string | null;
  livemode: boolean;
  created_at: Date;
  key_ts: string;
}

export async function listPayouts(q: Queryable, f: ListFilter): Promise<PayoutListRow[]> {
  const w = where(f, ['transaction_id', 'client_reference', 'utr']);
  const r = await q.query<PayoutListRow>(
    `SELECT id, transaction_id, client_reference, amount_paise, mode, status, beneficiary_name, beneficiary_last4, utr, livemode, created_at, ${KEY_TS}
       FROM payouts WHERE ${w.sql} ORDER BY created_at DESC, id DESC LIMIT $${w.params.length}`,
    w.params,
  );
  return r.rows;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  kind: string;
  target: string;
  status: string;
  attempts: number;
  delivered_at: Date | null;
  created_at: Date;
  attempt_log: Array<{ attempt_no: number; status_code: number | null; latency_ms: number; error: string | null; response_snippet: string | null; attempted_at: string }>;
}

/** The callbacks of one order or payout (events by aggregate, 0001's index) with every attempt. */
export async function deliveriesOf(q: Queryable, orgId: string, aggregateId: string): Promise<DeliveryRow[]> {
  const r = await q.query<DeliveryRow>(
    `SELECT d.id, d.event_id, e.kind, d.target, d.status, d.attempts, d.delivered_at, d.created_at,
            (SELECT coalesce(json_agg(json_build_object('attempt_no', a.attempt_no, 'status_code', a.status_code, 'latency_ms', a.latency_ms,
                     'error', a.error, 'response_snippet', a.response_snippet, 'attempted_at', a.attempted_at) ORDER BY a.id), '[]')
               FROM callback_delivery_attempts a WHERE a.delivery_id = d.id) AS attempt_log
       FROM events e JOIN callback_deliveries d ON d.event_id = e.id
      WHERE e.aggregate_id = $1 AND e.org_id = $2
      ORDER BY d.created_at, d.id`,
    [aggregateId, orgId],
  );
  return r.rows;
}

export interface PayoutAttemptDetail {
  attempt_no: number;
  status: string;
  bank_reference: string | null;
  utr: string | null;
  failure_reason: string | null;
  submitted_at: Date | null;
  inquiry_count: number;
  created_at: Date;
}

export async function payoutAttempts(q: Queryable, payoutId: string): Promise<PayoutAttemptDetail[]> {
  const r = await q.query<PayoutAttemptDetail>(
    `SELECT attempt_no, status, bank_reference, utr, failure_reason, submitted_at, inquiry_count, created_at
       FROM payout_attempts WHERE payout_id = $1 ORDER BY attempt_no`,
    [payoutId],
  );
  return r.rows;
}

export interface PayoutTransitionDetail {
  entity: string;
  from_status: string | null;
  to_status: string;
  trigger: string;
  detail: string | null;
  created_at: Date;
}

export async function payoutTransitions(q: Queryable, payoutId: string): Promise<PayoutTransitionDetail[]> {
  const r = await q.query<PayoutTransitionDetail>(
    'SELECT entity, from_status, to_status, trigger, detail, created_at FROM payout_transitions WHERE payout_id = $1 ORDER BY id',
    [payoutId],
  );
  return r.rows;
}

/** One payout of the organization by id or transaction_id, with the merchant view's columns. */
export async function findPayoutInOrg(q: Queryable, orgId: string, key: { id: string } | { transactionId: string }): Promise<PayoutRow | null> {
  const byId = 'id' in key;
  const r = await q.query<PayoutRow>(
    `SELECT id, transaction_id, org_id, client_pk, beneficiary_id, beneficiary_name, beneficiary_last4, beneficiary_ifsc,
            beneficiary_bank_name, amount_paise, currency, mode, client_reference, remarks, status, failure_reason, bank_reference,
            utr, processed_at, livemode, created_at
       FROM payouts WHERE org_id = $1 AND ${byId ? 'id = $2' : 'transaction_id = $2'}`,
    [orgId, byId ? key.id : key.transactionId],
  );
  return r.rows[0] ?? null;
}
