/**
 * The rules of API §4.1 and §8 that a JSON schema cannot say (the schema in
 * src/contract/payment-orders.ts covers types, lengths, bounds and unknown fields, and is this
 * module's input type): INTENT needs the customer and consent, URLs are HTTPS, callback URL and
 * secret come together.
 */
import { destinationUrlIssue } from '../../callbacks/destination-url.js';
import type { CreatePaymentOrderBody } from '../../contract/payment-orders.js';
import { type FieldIssue, validationError } from '../../domain/errors.js';
import { isValidAmountPaise } from '../../domain/money.js';
import { EXPIRES_IN_MINUTES_DEFAULT, EXPIRES_IN_MINUTES_MAX, EXPIRES_IN_MINUTES_MIN } from '../../domain/payment-order.js';
import { isIndianMobile } from '../../domain/phone.js';
import { charLength, isEmail, isHttpsUrl, isStorableText } from '../../domain/text.js';

/** When expires_in_minutes is absent. */
/** Re-exported under its old name for the service's callers; the value lives in the domain. */
export const DEFAULT_EXPIRES_IN_MINUTES = EXPIRES_IN_MINUTES_DEFAULT;

export interface PayerDetails {
  name: string;
  email: string;
  phone: string;
  consent: boolean;
}

export interface CreatePaymentOrderInput {
  amountPaise: number;
  purpose: string;
  merchantOrderReference: string | null;
  responseMode: 'CHECKOUT' | 'INTENT';
  customer: { name: string | null; email: string | null; phone: string | null; consent: boolean };
  expiresInMinutes: number;
  callback: { url: string; secret: string } | null;
  returnUrl: string | null;
}

function textIssues(issues: FieldIssue[], field: string, value: string | undefined, min: number, max: number): void {
  if (value === undefined) return;
  const n = charLength(value);
  if (!isStorableText(value)) issues.push({ field, issue: 'must be well-formed Unicode text without U+0000' });
  else if (value.trim() === '') issues.push({ field, issue: 'must not be blank' });
  else if (n < min || n > max) issues.push({ field, issue: `must be ${min} to ${max} characters` });
}

/** Payer details, from an INTENT create or the hosted checkout page. */
export function payerDetailsIssues(d: { name?: string | undefined; email?: string | undefined; phone?: string | undefined; consent?: boolean | undefined }, prefix = 'customer_'): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (d.name === undefined) issues.push({ field: `${prefix}name`, issue: 'is required' });
  else textIssues(issues, `${prefix}name`, d.name, 1, 120);
  if (d.email === undefined) issues.push({ field: `${prefix}email`, issue: 'is required' });
  else if (charLength(d.email) > 190 || !isEmail(d.email)) issues.push({ field: `${prefix}email`, issue: 'must be an email address of at most 190 characters' });
  if (d.phone === undefined) issues.push({ field: `${prefix}phone`, issue: 'is required' });
  else if (!isIndianMobile(d.phone)) issues.push({ field: `${prefix}phone`, issue: 'must be an Indian 10-digit mobile number' });
  if (d.consent !== true) issues.push({ field: `${prefix}consent`, issue: 'must be true' });
  return issues;
}

/**
 * `allowPrivateNetworks` is CALLBACK_ALLOW_PRIVATE_NETWORKS: when false, an order's callback_url
 * naming a loopback/private/link-local/metadata address is refused at once (422), as an
 * organization destination is; DNS names are judged again at connection time by the dispatcher.
 */
export function validateCreatePaymentOrder(b: CreatePaymentOrderBody, opts: { allowPrivateNetworks: boolean } = { allowPrivateNetworks: false }): CreatePaymentOrderInput {
  const issues: FieldIssue[] = [];
  if (!isValidAmountPaise(b.amount_paise)) issues.push({ field: 'amount_paise', issue: 'must be an integer from 100 to 10000000000' });
  textIssues(issues, 'purpose', b.purpose, 3, 255);
  textIssues(issues, 'merchant_order_reference', b.merchant_order_reference, 1, 120);
  const mode = b.response_mode ?? 'CHECKOUT';
  if (mode === 'INTENT') {
    issues.push(...payerDetailsIssues({ name: b.customer_name, email: b.customer_email, phone: b.customer_phone, consent: b.customer_consent }));
  } else {
    // Optional for CHECKOUT, but checked when given (they are stored).
    textIssues(issues, 'customer_name', b.customer_name, 1, 120);
    if (b.customer_email !== undefined && (charLength(b.customer_email) > 190 || !isEmail(b.customer_email))) {
      issues.push({ field: 'customer_email', issue: 'must be an email address of at most 190 characters' });
    }
    if (b.customer_phone !== undefined && !isIndianMobile(b.customer_phone)) issues.push({ field: 'customer_phone', issue: 'must be an Indian 10-digit mobile number' });
  }
  const minutes = b.expires_in_minutes ?? DEFAULT_EXPIRES_IN_MINUTES;
  if (!Number.isInteger(minutes) || minutes < EXPIRES_IN_MINUTES_MIN || minutes > EXPIRES_IN_MINUTES_MAX) {
    issues.push({ field: 'expires_in_minutes', issue: `must be an integer from ${EXPIRES_IN_MINUTES_MIN} to ${EXPIRES_IN_MINUTES_MAX}` });
  }
  if (b.callback_url !== undefined) {
    const urlIssue = isHttpsUrl(b.callback_url) ? destinationUrlIssue(b.callback_url, opts) : 'must be an HTTPS URL';
    if (urlIssue) issues.push({ field: 'callback_url', issue: urlIssue });
  }
  if (b.return_url !== undefined && !isHttpsUrl(b.return_url)) issues.push({ field: 'return_url', issue: 'must be an HTTPS URL' });
  if ((b.callback_url === undefined) !== (b.callback_secret === undefined)) {
    const missing = b.callback_url === undefined ? 'callback_url' : 'callback_secret';
    issues.push({ field: missing, issue: 'is required together with ' + (missing === 'callback_url' ? 'callback_secret' : 'callback_url') });
  }
  if (b.callback_secret !== undefined) {
    const n = charLength(b.callback_secret);
    if (n < 32 || n > 500 || !isStorableText(b.callback_secret)) issues.push({ field: 'callback_secret', issue: 'must be 32 to 500 characters' });
  }
  if (issues.length > 0) throw validationError(issues);
  return {
    amountPaise: b.amount_paise,
    purpose: b.purpose,
    merchantOrderReference: b.merchant_order_reference ?? null,
    responseMode: mode,
    customer: { name: b.customer_name ?? null, email: b.customer_email ?? null, phone: b.customer_phone ?? null, consent: b.customer_consent === true },
    expiresInMinutes: minutes,
    callback: b.callback_url !== undefined && b.callback_secret !== undefined ? { url: b.callback_url, secret: b.callback_secret } : null,
    returnUrl: b.return_url ?? null,
  };
}
