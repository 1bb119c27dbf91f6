/**
 * SQL for payment orders, their append-only history and late confirmations. Status changes are
 * written only by updateStatusWithHistory(), which the one transition step of
 * src/services/payin/payment-order-transitions.ts calls. The creates: payment-order-creates-repo.ts.
 */
import { type OrderTrigger, type PaymentOrderStatus } from '../../domain/payment-order.js';
import { batched } from '../batched.js';
import { coalesced, coalescedLookup } from '../shared-transactions.js';
import { prepared, type PreparedStatement, type Queryable } from '../db.js';

export interface PaymentOrderRow {
  id: string;
  order_id: string;
  org_id: string;
  client_pk: string;
  merchant_order_reference: string | null;
  amount_paise: number;
  currency: 'INR';
  purpose: string;
  response_mode: 'CHECKOUT' | 'INTENT';
  status: PaymentOrderStatus;
  provider: string;
  /** Fixed at create from the provider's `livemode` (false: sandbox, no real money). */
  livemode: boolean;
  /** The provider account the order was issued with (null: the built-in sandbox); its checks and refunds go there. */
  provider_account_id: string | null;
  provider_status: string;
  provider_reference: string | null;
  upi_uri: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  customer_consent_at: Date | null;
  payer_reference: string | null;
  expires_in_minutes: number;
  expires_at: Date | null;
  callback_url: string | null;
  callback_secret_enc: Buffer | null;
  return_url: string | null;
  bank_transaction_id: string | null;
  confirmed_at: Date | null;
  failure_reason: string | null;
  review_required: boolean;
  last_provider_check_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of PaymentOrderRow, for prepared statements (which must not say `*`, see prepared()). */
const ORDER_COLUMNS = [
  'id', 'order_id', 'org_id', 'client_pk', 'merchant_order_reference', 'amount_paise', 'currency', 'purpose', 'response_mode', 'status',
  'provider', 'livemode', 'provider_account_id', 'provider_status', 'provider_reference', 'upi_uri', 'customer_name', 'customer_email', 'customer_phone', 'customer_consent_at',
  'payer_reference', 'expires_in_minutes', 'expires_at', 'callback_url', 'callback_secret_enc', 'return_url', 'bank_transaction_id',
  'confirmed_at', 'failure_reason', 'review_required', 'last_provider_check_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof PaymentOrderRow)[];
const ROW = ORDER_COLUMNS.join(', ');

/** Columns a transition may set besides the status. */
export const UPDATABLE_COLUMNS = [
  'provider_status', 'provider_reference', 'upi_uri', 'customer_name', 'customer_email', 'customer_phone', 'customer_consent_at',
  'payer_reference', 'expires_at', 'bank_transaction_id', 'confirmed_at', 'failure_reason',
] as const satisfies readonly (keyof PaymentOrderRow)[];
export type OrderColumnChanges = Partial<Pick<PaymentOrderRow, (typeof UPDATABLE_COLUMNS)[number]>>;


/**
 * Look-ups by order_id go through the primary key: order_id is orderIdFor(id), a reversible
 * function of the id (the caller decodes it, src/services/payin/payment-order-view.ts idForOrderId), so
 * the column has no index of its own; `order_id = ...` is still checked in the same statement.
 */
export interface OrderRef {
  id: string;
  orderId?: string;
}

function byRef(ref: OrderRef, first: number): { where: string; params: unknown[] } {
  return ref.orderId === undefined
    ? { where: `id = $${first}`, params: [ref.id] }
    : { where: `id = $${first} AND order_id = $${first + 1}`, params: [ref.id, ref.orderId] };
}

/**
 * The columns the merchant API's representation (API §2.2) and the live check read: the merchant
 * GET selects only these, since every column of a result costs its parsing on every request.
 */
export const VIEW_COLUMNS = [
  'id', 'order_id', 'merchant_order_reference', 'amount_paise', 'currency', 'status', 'provider_status', 'response_mode', 'upi_uri',
  'expires_at', 'bank_transaction_id', 'confirmed_at', 'purpose', 'livemode', 'provider_account_id', 'created_at',
] as const satisfies readonly (keyof PaymentOrderRow)[];
/**
 * The settlement that covers an order (contract §9: a MATCHED payment line of a stored settlement),
 * as `settlement_id`, `settlement_utr`, `settled_at` (null each while none does). Absent on a row
 * read without ORDER_SETTLEMENT_JOIN: only rows of orders that cannot be settled yet (a create, an
 * open order's live check or cancel), whose answer shows `settlement: null`.
 */
export interface OrderSettlementColumns {
  settlement_id?: string | null;
  settlement_utr?: string | null;
  settled_at?: Date | null;
}
export type PaymentOrderViewRow = Pick<PaymentOrderRow, (typeof VIEW_COLUMNS)[number]> & OrderSettlementColumns;

/**
 * The settlement columns of OrderSettlementColumns for the order `alias`: one look-up of the
 * partial index settlement_lines_order_idx (0110) and the settlement's primary key per order, in
 * the same statement as the order (no query per row of a list).
 */
export const ORDER_SETTLEMENT_COLUMNS = 'os.settlement_id, os.settlement_utr, os.settled_at';
export const ORDER_SETTLEMENT_JOIN = (alias: string) =>
  `LEFT JOIN LATERAL (SELECT s.id AS settlement_id, s.utr AS settlement_utr, s.settled_at FROM settlement_lines l JOIN settlements s ON s.id = l.settlement_id
      WHERE l.order_pk = ${alias}.id AND l.type = 'PAYMENT' AND l.match = 'MATCHED' ORDER BY l.id LIMIT 1) os ON true`;

/** One merchant GET's look-up: the order, visible only to the client that created it. */
export interface ClientOrderLookup {
  clientPk: string;
  ref: OrderRef;
}

const FIND_MANY_BY_ID = prepared(
  `SELECT o.client_pk, ${VIEW_COLUMNS.map((c) => `o.${c}`).join(', ')}, ${ORDER_SETTLEMENT_COLUMNS} FROM payment_orders o ${ORDER_SETTLEMENT_JOIN('o')} WHERE o.id = ANY($1::uuid[])`,
);

/**
 * The merchant GETs of a batch in one statement (a prepared statement, the view's columns): for
 * each look-up its order, or null when there is none with that id (and order_id, if given) for
 * that client. Ids are lower-case, as orderRefFor() and PostgreSQL write them.
 */
export async function findManyForClient(q: Queryable, lookups: ClientOrderLookup[]): Promise<Array<PaymentOrderViewRow | null>> {
  const r = await q.query<PaymentOrderViewRow & { client_pk: string }>(FIND_MANY_BY_ID, [lookups.map((l) => l.ref.id)]);
  const byId = new Map(r.rows.map((row) => [row.id, row]));
  return lookups.map(({ clientPk, ref }) => {
    const row = byId.get(ref.id);
    if (row === undefined || row.client_pk !== clientPk || (ref.orderId !== undefined && row.order_id !== ref.orderId)) return null;
    return row;
  });
}

/** One merchant GET's look-up (findManyForClient), in a statement shared with the GETs that arrive together. */
export const findForClient = batched('orderReads', findManyForClient);

/** Unscoped look-up (admin API, provider events, checkout tokens). */
export async function findByIdOrOrderId(q: Queryable, ref: OrderRef): Promise<PaymentOrderRow | null> {
  const b = byRef(ref, 1);
  const r = await q.query<PaymentOrderRow>(`SELECT * FROM payment_orders WHERE ${b.where}`, b.params);
  return r.rows[0] ?? null;
}

/**
 * Row locks on the path of every provider event: prepared (parsed and planned once per connection).
 * FOR NO KEY UPDATE: the writers never change a key column, and this lock does not conflict with the
 * FOR KEY SHARE a settlement import's line insert takes through its foreign key (no deadlock with it).
 */
const LOCK_MANY = prepared(`SELECT ${ROW} FROM payment_orders WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`);

/**
 * Locks an order for the rest of the transaction; undefined when there is none. The locks of a
 * shared transaction take one statement, always in id order (so two transactions locking
 * overlapping sets wait for each other instead of deadlocking).
 */
export const lockById = coalescedLookup<PaymentOrderRow, PaymentOrderRow>(LOCK_MANY, (row) => row.id, (row) => row);

/** A checked status change of one order (see transitionOrder), ready to be written. */
export interface OrderMoveWrite {
  id: string;
  from: PaymentOrderStatus;
  to: PaymentOrderStatus;
  trigger: OrderTrigger;
  changes: OrderColumnChanges;
  detail: Record<string, unknown> | null;
}

/** PostgreSQL types of the updatable columns, for the JSON records of updateStatusesWithHistory. */
const UPDATABLE_TYPES: Record<(typeof UPDATABLE_COLUMNS)[number], string> = {
  provider_status: 'text', provider_reference: 'text', upi_uri: 'text', customer_name: 'text', customer_email: 'text',
  customer_phone: 'text', customer_consent_at: 'timestamptz', payer_reference: 'text', expires_at: 'timestamptz',
  bank_transaction_id: 'text', confirmed_at: 'timestamptz', failure_reason: 'text',
};

/** The statement for moves that change the same columns (prepared: parsed once per connection). */
function movesStatement(columns: readonly (typeof UPDATABLE_COLUMNS)[number][]): PreparedStatement {
  const defs = ['id uuid', 'from_status text', 'to_status text', 'trigger text', 'detail jsonb', ...columns.map((c) => `${c} ${UPDATABLE_TYPES[c]}`)];
  const sets = ['status = v.to_status', 'updated_at = now()', ...columns.map((c) => `${c} = v.${c}`)];
  return prepared(`WITH v AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS v(${defs.join(', ')})),
          u AS (UPDATE payment_orders o SET ${sets.join(', ')} FROM v WHERE o.id = v.id AND o.status = v.from_status
                RETURNING ${ORDER_COLUMNS.map((c) => `o.${c}`).join(', ')}),
          h AS (INSERT INTO payment_order_transitions (order_pk, from_status, to_status, trigger, detail)
                SELECT v.id, v.from_status, v.to_status, v.trigger, v.detail FROM v JOIN u ON u.id = v.id)
     SELECT ${ROW} FROM u`);
}

/**
 * Status changes + their history rows, one statement per set of changed columns (a batch of
 * confirmations is one statement). Each is guarded by the status its caller saw, so a change can
 * never be applied on top of a state nobody checked. Returns the updated rows in the order of
 * `moves`, null where the guard failed. At most one move per order (a second one would be
 * guarded by a status the first has not written yet).
 */
async function updateStatusesWithHistory(q: Queryable, moves: OrderMoveWrite[]): Promise<Array<PaymentOrderRow | null>> {
  const groups = new Map<string, { columns: (typeof UPDATABLE_COLUMNS)[number][]; moves: OrderMoveWrite[] }>();
  for (const move of moves) {
    const columns = UPDATABLE_COLUMNS.filter((c) => c in move.changes);
    const key = columns.join(',');
    const group = groups.get(key) ?? { columns, moves: [] };
    group.moves.push(move);
    groups.set(key, group);
  }
  const updated = new Map<string, PaymentOrderRow>();
  for (const { columns, moves: same } of groups.values()) {
    const records = same.map((m) => {
      const record: Record<string, unknown> = { id: m.id, from_status: m.from, to_status: m.to, trigger: m.trigger, detail: m.detail };
      for (const c of columns) record[c] = m.changes[c];
      return record;
    });
    const r = await q.query<PaymentOrderRow>(movesStatement(columns), [JSON.stringify(records)]);
    for (const row of r.rows) updated.set(row.id, row);
  }
  return moves.map((m) => updated.get(m.id) ?? null);
}

/**
 * A status change with its history row (see updateStatusesWithHistory); null where the guard
 * failed. The moves of a shared transaction take one statement per set of changed columns, so
 * each order must be in at most one of them (store/shared-transactions.ts runs news about the same order
 * one after the other).
 */
export const updateStatusWithHistory = coalesced<OrderMoveWrite, PaymentOrderRow | null>((q, moves) => {
  // Two moves of one order in one statement would update the row once and write two history rows.
  if (new Set(moves.map((m) => m.id)).size !== moves.length) throw new Error('two moves of the same payment order in one statement');
  return updateStatusesWithHistory(q, moves);
});

/** What the provider last said, for an order whose status does not change. */
export async function setProviderStatus(q: Queryable, id: string, providerStatus: string): Promise<void> {
  await q.query('UPDATE payment_orders SET provider_status = $2, updated_at = now() WHERE id = $1 AND provider_status <> $2', [id, providerStatus]);
}

/** Records money that arrived for a closed order and flags the order; false when already known. */
export async function recordLateConfirmation(
  q: Queryable,
  c: { orderPk: string; statusAtArrival: PaymentOrderStatus; utr: string; paidAt: Date; source: string },
): Promise<boolean> {
  const r = await q.query(
    `WITH l AS (INSERT INTO payment_order_late_confirmations (order_pk, status_at_arrival, utr, paid_at, source)
                VALUES ($1, $2, $3, $4, $5) ON CONFLICT (order_pk, utr) DO NOTHING RETURNING order_pk)
     UPDATE payment_orders SET review_required = true, updated_at = now() WHERE id IN (SELECT order_pk FROM l) RETURNING 1`,
    [c.orderPk, c.statusAtArrival, c.utr, c.paidAt, c.source],
  );
  return r.rowCount === 1;
}


