/**
 * The payment order as the merchant API shows it (API §2.2), the checkout page's view, and the
 * identifiers an order carries: order_id (our UPI `tr`) and the checkout token.
 */
import { timingSafeEqual } from 'node:crypto';
import { isUuid } from '../../domain/text.js';
import type { Vault } from '../../security/vault.js';
import type { OrderSettlementColumns, PaymentOrderRow, PaymentOrderViewRow } from '../../store/repos/payment-orders-repo.js';
import { idForOrderId } from '../../domain/order-id.js';

// The order's identifiers live in the domain (one rule for services and the store's look-ups).
export { base32, idForOrderId, orderIdFor } from '../../domain/order-id.js';

export const VERIFICATION_MODE = 'PROVIDER_PAYIN_STATUS_API' as const;

/** `{order}` of a path (UUID, any case, or order_id, any case) as a primary-key reference; null when it cannot name an order. */
export function orderRefFor(ref: string): { id: string; orderId?: string } | null {
  if (isUuid(ref)) return { id: ref.toLowerCase() };
  const orderId = ref.toUpperCase();
  const id = idForOrderId(orderId);
  return id === null ? null : { id, orderId };
}

const TOKEN_MAC_BYTES = 16;

function tokenMac(vault: Vault, id: Buffer): Buffer {
  return vault.lookupHash(id.toString('hex'), 'payment-order/checkout-token/v2').subarray(0, TOKEN_MAC_BYTES);
}

/**
 * The checkout token names the order and proves it was issued by us: the 16 id bytes followed by
 * a 128-bit HMAC of them under a key derived from MASTER_KEY (unguessable without the key; a
 * forgery needs 2^128 attempts), base64url, 43 characters. Nothing is stored: the link is checked
 * by recomputing the MAC (constant-time compare) and the order is read by primary key, so
 * checkout_url can be shown again on every retrieval, a copy of the database alone does not reveal
 * any live checkout link, and a create writes no token column or index.
 */
export function checkoutTokenFor(vault: Vault, orderPk: string): string {
  const id = Buffer.from(orderPk.replace(/-/g, ''), 'hex');
  return Buffer.concat([id, tokenMac(vault, id)]).toString('base64url');
}

/** The order id a checkout token was issued for; null for anything we did not issue. */
export function orderPkForCheckoutToken(vault: Vault, token: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 16 + TOKEN_MAC_BYTES || raw.toString('base64url') !== token) return null;
  const id = raw.subarray(0, 16);
  if (!timingSafeEqual(raw.subarray(16), tokenMac(vault, id))) return null;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function checkoutUrl(base: string, token: string): string {
  return `${base}/checkout/${token}`;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export type NextAction =
  | { type: 'HOSTED_CHECKOUT'; url: string }
  | { type: 'UPI_INTENT'; upi_uri: string; qr_payload: string; expires_at: string };

/** An INTENT order is issued (URI and window) when it is created, so both are always there. */
function upiIntentAction(o: PaymentOrderViewRow): NextAction {
  if (o.upi_uri === null || o.expires_at === null) throw new Error(`INTENT order ${o.id} has no issued intent`);
  return { type: 'UPI_INTENT', upi_uri: o.upi_uri, qr_payload: o.upi_uri, expires_at: o.expires_at.toISOString() };
}

/** API §2.2, field for field. Confirmation fields appear once the order is confirmed. */
export function paymentOrderView(o: PaymentOrderViewRow, checkoutPageUrl: string) {
  const nextAction: NextAction = o.response_mode === 'CHECKOUT' ? { type: 'HOSTED_CHECKOUT', url: checkoutPageUrl } : upiIntentAction(o);
  const confirmed = o.bank_transaction_id !== null && o.confirmed_at !== null;
  return {
    id: o.id,
    order_id: o.order_id,
    merchant_order_reference: o.merchant_order_reference,
    amount_paise: o.amount_paise,
    currency: o.currency,
    status: o.status,
    provider_status: o.provider_status,
    response_mode: o.response_mode,
    verification_mode: VERIFICATION_MODE,
    next_action: nextAction,
    checkout_url: checkoutPageUrl,
    ...(o.response_mode === 'INTENT' && o.upi_uri !== null ? { upi_intent: o.upi_uri } : {}),
    ...(confirmed ? { bank_transaction_id: o.bank_transaction_id as string, utr: o.bank_transaction_id as string, confirmed_at: (o.confirmed_at as Date).toISOString() } : {}),
    purpose: o.purpose,
    expires_at: iso(o.expires_at),
    livemode: o.livemode,
    settlement: settlementOf(o),
    created_at: o.created_at.toISOString(),
  };
}

/** Contract §9: the settlement that covers the order (a MATCHED payment line), or null. */
export function settlementOf(o: OrderSettlementColumns): { settlement_id: string; utr: string | null; settled_at: string } | null {
  if (!o.settlement_id || !o.settled_at) return null;
  return { settlement_id: o.settlement_id, utr: o.settlement_utr ?? null, settled_at: o.settled_at.toISOString() };
}

export type PaymentOrderView = ReturnType<typeof paymentOrderView>;

/** What the hosted checkout page needs to render an order (no merchant or payer secrets). */
export interface CheckoutView {
  order_id: string;
  merchant_name: string;
  amount_paise: number;
  currency: 'INR';
  purpose: string;
  status: PaymentOrderRow['status'];
  response_mode: PaymentOrderRow['response_mode'];
  /** The intent for the QR, once payer details were given; render it exactly as is. */
  upi_uri: string | null;
  expires_at: string | null;
  expires_in_minutes: number;
  payer_reference: string | null;
  bank_transaction_id: string | null;
  confirmed_at: string | null;
  return_url: string | null;
  merchant_order_reference: string | null;
  /**
   * false for a test-mode order (the sandbox): the page marks it "Test mode" and may offer
   * "Simulate payment". A livemode order never offers it.
   */
  livemode: boolean;
}

export function checkoutView(o: PaymentOrderRow, merchantName: string): CheckoutView {
  return {
    order_id: o.order_id,
    merchant_name: merchantName,
    amount_paise: o.amount_paise,
    currency: o.currency,
    purpose: o.purpose,
    status: o.status,
    response_mode: o.response_mode,
    upi_uri: o.upi_uri,
    expires_at: iso(o.expires_at),
    expires_in_minutes: o.expires_in_minutes,
    payer_reference: o.payer_reference,
    bank_transaction_id: o.bank_transaction_id,
    confirmed_at: iso(o.confirmed_at),
    return_url: o.return_url,
    merchant_order_reference: o.merchant_order_reference,
    livemode: o.livemode,
  };
}
