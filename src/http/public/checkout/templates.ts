/**
 * Server-rendered HTML of the hosted checkout. Every dynamic value passes through `esc`; the only
 * script and stylesheet are Tijori's own (see the CSP in routes.ts).
 */
import { formatInr } from '../../../domain/money.js';
import type { PaymentOrderStatus } from '../../../domain/payment-order.js';

export interface CheckoutView {
  token: string;
  status: PaymentOrderStatus;
  merchantName: string;
  amountPaise: number;
  purpose: string;
  upiIntent: string | null;
  qrSvg: string | null;
  expiresAt: string | null;
  returnUrl: string | null;
  sandbox: boolean;
  bankTransactionId: string | null;
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

function layout(view: CheckoutView, title: string, inner: string, final: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${esc(title)} · ${esc(view.merchantName)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css">
<script src="/checkout/assets/checkout.js" defer></script>
</head>
<body data-token="${esc(view.token)}" data-status="${esc(view.status)}" data-final="${final}">
<main>
<header>
<p class="merchant">Pay <strong>${esc(view.merchantName)}</strong></p>
<p class="amount" aria-label="Amount ${esc(formatInr(view.amountPaise))}">${esc(formatInr(view.amountPaise))}</p>
<p class="purpose">${esc(view.purpose)}</p>
</header>
${inner}
</main>
</body>
</html>`;
}

function field(id: string, label: string, type: string, extra: string, hint = ''): string {
  return `<div>
<label for="${id}">${esc(label)}${hint ? ` <span class="hint">${esc(hint)}</span>` : ''}</label>
<input id="${id}" name="${id}" type="${type}" ${extra} aria-describedby="${id}-error" aria-invalid="false">
<p class="error" id="${id}-error" role="alert" aria-live="polite"></p>
</div>`;
}

function detailsForm(): string {
  return `<h1>Your details</h1>
<form id="details-form" novalidate>
${field('customer_name', 'Full name', 'text', 'autocomplete="name" maxlength="120" required')}
${field('customer_email', 'Email', 'email', 'autocomplete="email" maxlength="190" required')}
${field('customer_phone', 'Mobile number', 'tel', 'autocomplete="tel-national" inputmode="numeric" maxlength="10" pattern="[6-9][0-9]{9}" required', '10 digits, without +91')}
<div>
<div class="consent">
<input id="customer_consent" name="customer_consent" type="checkbox" aria-describedby="customer_consent-error" required>
<label for="customer_consent">I agree to share these details with the merchant and its payment provider for this payment.</label>
</div>
<p class="error" id="customer_consent-error" role="alert" aria-live="polite"></p>
</div>
<p class="error" data-form-error role="alert" aria-live="polite"></p>
<button type="submit">Continue to pay</button>
<p class="small">Never share your UPI PIN, OTP or card details. This page never asks for them.</p>
</form>`;
}

function paySection(view: CheckoutView): string {
  const countdown = view.expiresAt
    ? `<p class="countdown" id="countdown" data-expires-at="${esc(view.expiresAt)}" aria-live="off">Time left to pay: <span data-left>–:––</span></p>`
    : '';
  const awaiting = view.status === 'AWAITING_CONFIRMATION';
  const reference = awaiting
    ? `<p class="state"><span class="badge warn">Checking your payment</span></p><p>We received your reference${view.payerReference ? ` <strong>${esc(view.payerReference)}</strong>` : ''} and are waiting for the bank to confirm. This page updates by itself.</p>`
    : `<details>
<summary>I have paid</summary>
<form id="reference-form" novalidate>
${field('payer_reference', 'UPI reference number (UTR)', 'text', 'inputmode="numeric" autocomplete="off" maxlength="12" pattern="[0-9]{12}"', '12 digits, shown in your UPI app after paying')}
<button type="submit" class="secondary">Submit reference</button>
</form>
</details>`;
  return `<h1>Scan and pay with any UPI app</h1>
<div class="qr" role="img" aria-label="UPI QR code for ${esc(formatInr(view.amountPaise))} to ${esc(view.merchantName)}">${view.qrSvg ?? ''}</div>
${countdown}
<div class="stack">
<a class="button" id="upi-link" href="${esc(view.upiIntent ?? '#')}">Pay with a UPI app</a>
<p class="small">On a phone, the button opens your UPI app. Do not close this page until it shows the payment as received.</p>
${reference}
</div>`;
}

function sandboxControls(view: CheckoutView): string {
  if (!view.sandbox) return '';
  return `<section class="sandbox" aria-labelledby="sandbox-title">
<h2 id="sandbox-title">Sandbox only — no real money</h2>
<p class="small">This order uses the sandbox provider. Decide its outcome as the bank would:</p>
<div class="row">
<button type="button" data-simulate="pay">Simulate payment</button>
<button type="button" data-simulate="fail">Simulate failure</button>
</div>
</section>`;
}

export function renderCheckout(view: CheckoutView): string {
  const final = FINAL[view.status];
  if (final) {
    const back = view.returnUrl ? `<footer><a class="button secondary" href="${esc(view.returnUrl)}" rel="noreferrer">Return to ${esc(view.merchantName)}</a></footer>` : '';
    const ref = view.bankTransactionId ? `<p class="small">Bank reference (UTR): <strong>${esc(view.bankTransactionId)}</strong></p>` : '';
    return layout(
      view,
      final.title,
      `<div class="state" role="status"><span class="badge ${final.tone}">${esc(final.title)}</span></div><p>${esc(final.text)}</p>${ref}${back}`,
      true,
    );
  }
  const inner = view.status === 'AWAITING_CUSTOMER' ? detailsForm() : paySection(view);
  return layout(view, 'Pay', `${inner}${view.status === 'AWAITING_CUSTOMER' ? '' : sandboxControls(view)}`, false);
}

export function renderNotFound(kind: 'unknown' | 'gone'): string {
  const [title, text] =
    kind === 'gone'
      ? ['This payment link has expired', 'Ask the merchant for a new payment link.']
      : ['Payment link not found', 'Check the link you were given, or ask the merchant for a new one.'];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><link rel="stylesheet" href="/checkout/assets/checkout.css"></head><body><main><h1>${esc(title)}</h1><p>${esc(text)}</p></main></body></html>`;
}
