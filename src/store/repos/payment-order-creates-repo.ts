/**
 * SQL of payment order creates: many creates in one statement, each order with its creation
 * history row and its completed idempotency key.
 */
import { batched } from '../batched.js';
import { type Db, type PreparedStatement, type Queryable } from '../db.js';
import { type CompletedKeyValues, type CreateKey, keyedCreateStatements, writeKeyedCreates } from './idempotency-keys-repo.js';
import type { PaymentOrderRow } from './payment-orders-repo.js';

export type NewPaymentOrder = Omit<
  PaymentOrderRow,
  'review_required' | 'last_provider_check_at' | 'created_at' | 'updated_at' | 'bank_transaction_id' | 'confirmed_at' | 'failure_reason' | 'payer_reference'
>;

const INSERT_COLUMNS = [
  'id', 'order_id', 'org_id', 'client_pk', 'merchant_order_reference', 'amount_paise', 'currency', 'purpose', 'response_mode',
  'status', 'provider', 'livemode', 'provider_account_id', 'provider_status', 'provider_reference', 'upi_uri', 'customer_name', 'customer_email', 'customer_phone',
  'customer_consent_at', 'expires_in_minutes', 'expires_at', 'callback_url', 'callback_secret_enc', 'return_url',
] as const satisfies readonly (keyof NewPaymentOrder)[];

const CREATE_COLUMNS = [...INSERT_COLUMNS, 'created_at', 'updated_at'] as const;
/** An order to create with the idempotency key row that answers for it. */
export interface OrderCreate {
  order: NewPaymentOrder & { created_at: Date };
  key: CompletedKeyValues;
}

/** The SQL type of every column a batched create carries (json_to_recordset needs them spelt out). */
const CREATE_COLUMN_TYPES: Record<(typeof CREATE_COLUMNS)[number], string> = {
  id: 'uuid', order_id: 'text', org_id: 'uuid', client_pk: 'uuid', merchant_order_reference: 'text', amount_paise: 'bigint',
  currency: 'text', purpose: 'text', response_mode: 'text', status: 'text', provider: 'text', livemode: 'boolean', provider_account_id: 'uuid', provider_status: 'text',
  provider_reference: 'text', upi_uri: 'text', customer_name: 'text', customer_email: 'text', customer_phone: 'text',
  customer_consent_at: 'timestamptz', expires_in_minutes: 'integer', expires_at: 'timestamptz', callback_url: 'text',
  callback_secret_enc: 'text', return_url: 'text', created_at: 'timestamptz', updated_at: 'timestamptz',
};

/**
 * Many creates in ONE statement (one round trip, one commit): each order, its creation history
 * row and its completed idempotency key, all passed as one JSON array (idempotency-keys-repo
 * keyedCreateStatements). An order is written only if its key row was.
 */
const CREATES = keyedCreateStatements(
  CREATE_COLUMNS.map((c) => `${c} ${CREATE_COLUMN_TYPES[c]}`).join(', '),
  `o AS (INSERT INTO payment_orders (${CREATE_COLUMNS.join(', ')})
           SELECT ${CREATE_COLUMNS.map((c) => (c === 'callback_secret_enc' ? `decode(v.${c}, 'base64')` : `v.${c}`)).join(', ')}
             FROM v JOIN k ON k.resource_id = v.id RETURNING id, status, created_at),
     h AS (INSERT INTO payment_order_transitions (order_pk, from_status, to_status, trigger, created_at)
           SELECT id, NULL, status, 'created', created_at FROM o)
  SELECT id FROM o`,
);

function writeCreates(q: Queryable, statement: PreparedStatement, creates: OrderCreate[]): Promise<boolean[]> {
  return writeKeyedCreates(q, statement, creates, ({ order }) => ({
    ...order,
    callback_secret_enc: order.callback_secret_enc?.toString('base64') ?? null,
    updated_at: order.created_at,
  }));
}

/** Writes the CHECKOUT creates of a batch; for each, whether it was written (false: its key already existed). */
export function insertCheckoutCreates(q: Queryable, creates: OrderCreate[]): Promise<boolean[]> {
  return writeCreates(q, CREATES.newKey, creates);
}

/** Writes the leased (INTENT) creates of a batch; for each, whether it was written (false: its key was no longer held). */
export function insertLeasedCreates(q: Queryable, creates: OrderCreate[]): Promise<boolean[]> {
  return writeCreates(q, CREATES.heldKey, creates);
}

const insertNewKeyCreate = batched('orderCreates', insertCheckoutCreates);
const insertHeldKeyCreate = batched('heldOrderCreates', insertLeasedCreates);

/**
 * One create, with its key as `key.held` says (a new key, or one this request holds), in a
 * statement shared with the creates that arrive together: whether it was written (false: a new
 * key already existed; a held one was no longer held).
 */
export function insertCreate(db: Db, c: { order: OrderCreate['order']; key: CreateKey }): Promise<boolean> {
  return c.key.held ? insertHeldKeyCreate(db, c) : insertNewKeyCreate(db, c);
}

/** The row as the batched creates write it, for answering before the write. */
export function rowAsInserted(o: NewPaymentOrder, createdAt: Date): PaymentOrderRow {
  return {
    ...o,
    review_required: false,
    last_provider_check_at: null,
    created_at: createdAt,
    updated_at: createdAt,
    bank_transaction_id: null,
    confirmed_at: null,
    failure_reason: null,
    payer_reference: null,
  };
}
