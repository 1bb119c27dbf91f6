/**
 * Server-rendered HTML of the hosted checkout. Every dynamic value passes through `esc`; the only
 * script and stylesheet are Tijori's own (see the CSP in routes.ts). Accessibility: one h1 per
 * page naming the step, labelled fields whose hint and error are tied to them with
 * aria-describedby, errors in role=alert regions, the state of a final page in a role=status region.
 */
import { formatInr } from '../../../domain/money.js';
import type { PaymentOrderStatus } from '../../../domain/payment-order.js';
import { PHONE_INPUT_MAX_LENGTH, PHONE_RULE_FOR_PAGE } from '../../../domain/phone.js';

export interface CheckoutView {
  token: string;
  /** Cache-busting version of the static assets (see routes.ts). */
  assetVersion: string;
  status: PaymentOrderStatus;
  merchantName: string;
  amountPaise: number;
  purpose: string;
  upiIntent: string | null;
  qrSvg: string | null;
  expiresAt: string | null;
  returnUrl: string | null;
  /** false: a test-mode (sandbox) order, marked "Test mode"; only such an order offers "Simulate payment". */
  livemode: boolean;
  /** What the payer can quote to the merchant: merchant_order_reference, else our order_id. */
  orderReference: string;
  bankTransactionId: string | null;
  /** When the payment was confirmed (ISO 8601), for the receipt. */
  confirmedAt: string | null;
  payerReference: string | null;
}

export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const FINAL: Partial<Record<PaymentOrderStatus, { title: string; text: string; tone: 'ok' | 'bad' | 'warn' }>> = {
  PAID: { title: 'Payment received', text: 'Your payment is confirmed. You can close this page.', tone: 'ok' },
  MANUALLY_CONFIRMED: { title: 'Payment confirmed', text: 'Your payment was confirmed after review. You can close this page.', tone: 'ok' },
  REFUNDED: { title: 'Payment refunded', text: 'This payment was refunded to you.', tone: 'warn' },
  FAILED: { title: 'Payment failed', text: 'The payment did not go through and no money was taken by this request. Ask the merchant for a new payment link to try again.', tone: 'bad' },
  EXPIRED: { title: 'Payment link expired', text: 'The time to pay has run out. If money left your account, it will be confirmed or returned by your bank. Ask the merchant for a new payment link.', tone: 'warn' },
  CANCELLED: { title: 'Payment cancelled', text: 'The merchant cancelled this payment request. Nothing more is needed from you.', tone: 'warn' },
};

function head(title: string, assetVersion: string): string {
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${esc(assetVersion)}">`;
}

/**
 * The receipt's time before the script runs (and without it): India Standard Time, named. The
 * script rewrites it in the payer's own time zone with the same options (checkout.js).
 */
const RECEIPT_TIME = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: 'Asia/Kolkata',
});

/**
 * The page around a step. `heading` is the step's h1 text, and the tab title is made from it, so
 * the title always names what the page shows ("Checking your payment", "Payment received", ...).
 */
function layout(view: CheckoutView, heading: string, inner: string, final: boolean): string {
  const testMode = view.livemode
    ? ''
    : `<p class="test-mode" id="test-mode"><span class="badge test">Test mode</span> <span class="small">Sandbox order: no real money moves.</span></p>\n`;
  return `<!doctype html>
<html lang="en">
<head>
${head(`${view.livemode ? '' : '[Test] '}${heading} · ${view.merchantName}`, view.assetVersion)}
<script src="/checkout/assets/checkout.js?v=${esc(view.assetVersion)}" defer></script>
</head>
<body data-token="${esc(view.token)}" data-status="${esc(view.status)}" data-final="${final}">
<main>
${testMode}<header class="summary">
<p class="merchant">Pay <strong>${esc(view.merchantName)}</strong></p>
<p class="amount">${esc(formatInr(view.amountPaise))}</p>
<p class="purpose">${esc(view.purpose)}</p>
<p class="reference small" id="order-reference">Order reference <strong>${esc(view.orderReference)}</strong></p>
</header>
${inner}
</main>
</body>
</html>`;
}

function field(id: string, label: string, type: string, extra: string, hint = ''): string {
  const describedBy = hint ? `${id}-hint ${id}-error` : `${id}-error`;
  return `<div class="field">
<label for="${id}">${esc(label)}</label>${hint ? `\n<p class="hint" id="${id}-hint">${esc(hint)}</p>` : ''}
<input id="${id}" name="${id}" type="${type}" ${extra} aria-describedby="${describedBy}" aria-invalid="false">
<p class="error" id="${id}-error" role="alert"></p>
</div>`;
}

function detailsForm(view: CheckoutView): string {
  // method=post: should the script not run, the payer's details never end up in a URL.
  return `<h1>Your details</h1>
<noscript><p class="error">This page needs JavaScript to continue. Please enable it, or open the link in another browser.</p></noscript>
<form id="details-form" method="post" novalidate>
${field('customer_name', 'Full name', 'text', 'autocomplete="name" maxlength="120" required')}
${field('customer_email', 'Email', 'email', 'autocomplete="email" maxlength="190" required')}
${field(
  'customer_phone',
  'Mobile number',
  'tel',
  // The rule's patterns from src/domain/phone.ts, applied by checkout.js exactly as the server applies them.
  `autocomplete="tel" inputmode="tel" maxlength="${PHONE_INPUT_MAX_LENGTH}" required data-separators="${esc(PHONE_RULE_FOR_PAGE.separators)}" data-prefix="${esc(PHONE_RULE_FOR_PAGE.prefix)}" data-mobile="${esc(PHONE_RULE_FOR_PAGE.mobile)}"`,
  '10-digit Indian mobile number; +91 or 0 in front is fine',
)}
<div class="field">
<div class="consent">
<input id="customer_consent" name="customer_consent" type="checkbox" aria-describedby="customer_consent-error" aria-invalid="false" required>
<label for="customer_consent">I agree to share these details with ${esc(view.merchantName)} and its payment provider for this payment.</label>
</div>
<p class="error" id="customer_consent-error" role="alert"></p>
</div>
<div>
<p class="error" id="details-error" role="alert"></p>
<button type="submit" id="details-submit">Continue to pay</button>
</div>
<p class="small">Never share your UPI PIN, OTP or card details. This page never asks for them.</p>
</form>`;
}

function referenceStep(view: CheckoutView): string {
  if (view.status === 'AWAITING_CONFIRMATION') {
    const ref = view.payerReference ? ` <strong>${esc(view.payerReference)}</strong>` : '';
    return `<div class="notice" role="status"><p><span class="badge warn">Reference received</span></p><p>We received your reference${ref} and are waiting for the bank to confirm. This page updates by itself.</p></div>`;
  }
  return `<details id="reference">
<summary>I have paid</summary>
<form id="reference-form" method="post" novalidate>
<p class="small">If the page has not updated after you paid, enter the reference your UPI app showed.</p>
${field('payer_reference', 'UPI reference number (UTR)', 'text', 'inputmode="numeric" autocomplete="off" maxlength="12" pattern="[0-9]{12}"', '12 digits, shown in your UPI app after paying')}
<button type="submit" class="secondary">Submit reference</button>
</form>
</details>`;
}

function paySection(view: CheckoutView): string {
  const countdown = view.expiresAt
    ? `<p class="countdown" id="countdown" data-expires-at="${esc(view.expiresAt)}">Time left to pay: <span data-left>–:––</span></p>
<p class="visually-hidden" id="countdown-announce" aria-live="polite"></p>`
    : '';
  const amount = esc(formatInr(view.amountPaise));
  return `<h1>${esc(payHeading(view))}</h1>
<div class="qr" role="img" aria-label="UPI QR code: pay ${amount} to ${esc(view.merchantName)}">${view.qrSvg ?? ''}</div>
${countdown}
<div class="stack">
<a class="button" id="upi-link" href="${esc(view.upiIntent ?? '#')}">Pay with a UPI app</a>
<p class="small">On a phone, this opens your UPI app. Keep this page open until it shows the payment as received.</p>
${referenceStep(view)}
</div>`;
}

function payHeading(view: CheckoutView): string {
  return view.status === 'AWAITING_CONFIRMATION' ? 'Checking your payment' : 'Scan and pay with any UPI app';
}

/** Sandbox only: a livemode order never offers it (the endpoint refuses it too, routes.ts). */
function sandboxControls(view: CheckoutView): string {
  if (view.livemode) return '';
  return `<section class="sandbox" aria-labelledby="sandbox-title">
<h2 id="sandbox-title">Sandbox only — no real money</h2>
<p class="small">This order uses the sandbox provider. Decide its outcome as the bank would:</p>
<div class="row">
<button type="button" data-simulate="pay">Simulate payment</button>
<button type="button" data-simulate="fail">Simulate failure</button>
</div>
<p class="error" id="sandbox-error" role="alert"></p>
</section>`;
}

export function renderCheckout(view: CheckoutView): string {
  const final = FINAL[view.status];
  if (final) {
    // return_url is a convenience only, offered once the outcome is known; never proof of payment.
    const back = view.returnUrl ? `<footer><a class="button secondary" href="${esc(view.returnUrl)}" rel="noreferrer">Return to ${esc(view.merchantName)}</a></footer>` : '';
    return layout(
      view,
      final.title,
      `<div class="state" role="status"><h1><span class="badge ${final.tone}">${esc(final.title)}</span></h1><p>${esc(final.text)}</p></div>${receipt(view)}${back}`,
      true,
    );
  }
  if (view.status === 'AWAITING_CUSTOMER') return layout(view, 'Your details', detailsForm(view), false);
  return layout(view, payHeading(view), `${paySection(view)}${sandboxControls(view)}`, false);
}

/** Once the bank confirmed the payment: what the payer may keep as proof (amount, UTR, time). */
function receipt(view: CheckoutView): string {
  if (view.bankTransactionId === null || view.confirmedAt === null) return '';
  const paidAt = new Date(view.confirmedAt);
  return `<section class="receipt" aria-labelledby="receipt-title">
<h2 id="receipt-title">Receipt</h2>
<dl>
<div><dt>Amount paid</dt><dd id="receipt-amount" class="nowrap">${esc(formatInr(view.amountPaise))}</dd></div>
<div><dt>Paid to</dt><dd>${esc(view.merchantName)}</dd></div>
<div><dt>Order reference</dt><dd>${esc(view.orderReference)}</dd></div>
<div><dt>UPI reference (UTR)</dt><dd id="receipt-utr" class="nowrap">${esc(view.bankTransactionId)}</dd></div>
<div><dt>Paid at</dt><dd><time id="receipt-time" datetime="${esc(paidAt.toISOString())}" data-local-time>${esc(RECEIPT_TIME.format(paidAt))}</time></dd></div>
</dl>
<p class="small">Keep the UTR: your bank and ${esc(view.merchantName)} can trace the payment with it.</p>
</section>`;
}

export function renderNotFound(assetVersion: string): string {
  return `<!doctype html>
<html lang="en">
<head>
${head('Payment link not found', assetVersion)}
</head>
<body>
<main>
<h1>Payment link not found</h1>
<p>Check the link you were given, or ask the merchant for a new one.</p>
</main>
</body>
</html>`;
}
