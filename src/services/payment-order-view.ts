/**
 * The payment order as the merchant API shows it (API §2.2), the checkout page's view, and the
 * identifiers an order carries: order_id (our UPI `tr`) and the checkout token.
 */
import { createHash } from 'node:crypto';
import type { Vault } from '../security/vault.js';
import type { PaymentOrderRow } from '../store/repos/payment-orders-repo.js';

export const VERIFICATION_MODE = 'PROVIDER_PAYIN_STATUS_API';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/**
 * `PO` + the 128-bit service id in Crockford base32 (28 characters): unique because the id is,
 * alphanumeric and short enough for UPI's `tr` (≤ 35), and derived from the id so that an
 * idempotent create resumed after a crash sends the provider the same reference.
 */
export function orderIdFor(id: string): string {
  return `PO${base32(Buffer.from(id.replace(/-/g, ''), 'hex'))}`;
}

/**
 * The checkout token is an HMAC of the order id under a key derived from MASTER_KEY (256 bits,
 * unguessable without the key) and is never stored: the row keeps only its SHA-256 for look-up.
 * So checkout_url can be shown again on every retrieval, and a copy of the database alone does
 * not reveal any live checkout link.
 */
export function checkoutTokenFor(vault: Vault, orderPk: string): string {
  return vault.lookupHash(orderPk, 'payment-order/checkout-token').toString('base64url');
}

export function checkoutTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function checkoutUrl(base: string, token: string): string {
  return `${base}/checkout/${token}`;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** API §2.2, field for field. Confirmation fields appear once the order is confirmed. */
export function paymentOrderView(o: PaymentOrderRow, checkoutPageUrl: string): Record<string, unknown> {
  const nextAction =
    o.response_mode === 'CHECKOUT'
      ? { type: 'HOSTED_CHECKOUT', url: checkoutPageUrl }
      : { type: 'UPI_INTENT', upi_uri: o.upi_uri, qr_payload: o.upi_uri, expires_at: iso(o.expires_at) };
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
    ...(o.response_mode === 'INTENT' ? { upi_intent: o.upi_uri } : {}),
    ...(confirmed ? { bank_transaction_id: o.bank_transaction_id, utr: o.bank_transaction_id, confirmed_at: iso(o.confirmed_at) } : {}),
    purpose: o.purpose,
    expires_at: iso(o.expires_at),
    created_at: iso(o.created_at),
  };
}

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
  /** true when the order's provider is the sandbox: the page may offer "Simulate payment". */
  sandbox: boolean;
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
    sandbox: o.provider === 'sandbox',
  };
}
