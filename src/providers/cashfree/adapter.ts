/**
 * The Cashfree PG connector (collections by UPI intent, and their refunds) behind the Provider
 * interface. Facts and their sources: ../../../docs/providers.md and the design note on providers.
 *
 * - createCollection: `POST /orders` (order_id = our reference, amount as exact decimal rupees),
 *   then Order Pay `POST /orders/sessions` with UPI `channel: link`: the intent is
 *   `data.payload.default`, stored byte for byte; the attempt's `cf_payment_id` (the intent's `tr`)
 *   is our provider reference, so a payment of any other attempt is a mismatch (review).
 * - collectionStatus: `GET /orders/{id}/payments` (every attempt; a SUCCESS one wins, with its
 *   amount and UTR `bank_reference`).
 * - refunds: `POST /orders/{id}/refunds` keyed by our refund_id, `GET /orders/{id}/refunds/{refund_id}`.
 * - parseCallback: Cashfree's webhook signature, our 300 s window, explicit status mapping.
 * Payouts are not a Cashfree PG service: a bank connection never uses this connector (bank connections refuse it).
 */
import { AppError, validationError } from '../../domain/errors.js';
import { hasDuplicateKeys } from '../../security/strict-json.js';
import type { CashfreeConfig } from '../accounts/config.js';
import {
  type CollectionIssued,
  type CollectionRequest,
  type CollectionStatus,
  type Provider,
  type ProviderCallback,
  ProviderError,
  type RefundRequest,
  type RefundStatus,
  type RefundSubmitResult,
} from '../provider.js';
import { decoded } from '../decode.js';
import type { ProviderFactoryDeps } from '../factory-deps.js';
import { cashfreeAmountToPaise, jsonWithAmounts } from './amount.js';
import { type CashfreeAnswer, CashfreeClient, cashfreeErrorText, CashfreeRateLimited } from './client.js';
import { OrderAnswer, OrderPayAnswer, PaymentAttempt, PaymentAttempts, RefundAnswer, WebhookBody, WebhookData } from './schemas.js';
import { verifyCashfreeSignature } from './signature.js';
import { paymentMeaning, refundMeaning } from './statuses.js';
import { fetchCashfreeSettlements } from './settlements.js';

/**
 * Stand-in payer phone when an order has none (an INTENT order need not carry a payer): Cashfree
 * requires `customer_details.customer_phone` even for a pure UPI intent, and the payer's UPI app,
 * not this field, decides who pays. A fixed, obviously-synthetic 10-digit Indian mobile number.
 */
export const STAND_IN_PHONE = '9999999999';
const UTR = /^[0-9A-Za-z]{6,35}$/;

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Cashfree's ISO-8601 form with the IST offset, e.g. 2021-07-02T10:20:12+05:30 (seconds cut: never later than ours). */
export function istTimestamp(d: Date): string {
  return `${new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;
}


export function createCashfreeProvider(cfg: CashfreeConfig, deps: ProviderFactoryDeps): Provider {
  const badAnswers = deps.metrics.counter('tijori_provider_bad_answers_total', 'Provider answers and callbacks that did not fit (unknown status, missing UTR, bad amount): never applied', ['provider', 'what']);
  // The same answers in the metric every connector counts (razorpayx too), by kind.
  const anomalies = deps.metrics.counter('tijori_provider_anomalies_total', 'Provider answers and events that could not be used (unknown status, missing UTR, unparseable), by provider and kind', ['provider', 'kind']);
  const rateLimited = deps.metrics.counter('tijori_provider_rate_limited_total', 'Provider calls answered 429 (retried later)', ['provider']);
  const client = new CashfreeClient(cfg, deps.timeoutMs, () => rateLimited.inc({ provider: 'cashfree' }), deps.now);
  const log = deps.log.child({ provider: 'cashfree', provider_account_id: deps.accountId });

  /**
   * Records an answer that does not fit (log, both counters, the account's anomaly record) and
   * returns the error to throw: money never moves on it. `reference`: the order it concerns.
   */
  const bad = (what: string, detail: Record<string, unknown> & { reference?: unknown; operation: string }): ProviderError => {
    badAnswers.inc({ provider: 'cashfree', what });
    anomalies.inc({ provider: 'cashfree', kind: what });
    log.error({ what, ...detail }, 'cashfree answer does not fit; nothing applied');
    const { reference, operation, ...rest } = detail;
    deps.anomalies?.({
      kind: what,
      operation,
      ...(typeof reference === 'string' && reference ? { resource: { type: 'payment_order' as const, ref: reference } } : {}),
      detail: rest,
    });
    return new ProviderError(`cashfree answer does not fit: ${what}`, false);
  };

  const path = (...segments: string[]) => segments.map((s) => `/${encodeURIComponent(s)}`).join('');

  /** An attempt's meaning as a CollectionStatus, checking what a success must carry. */
  function fromAttempt(reference: string, a: PaymentAttempt, operation: string): CollectionStatus {
    const meaning = paymentMeaning(a.payment_status);
    if (meaning === null) throw bad('unknown_payment_status', { operation, reference, payment_status: a.payment_status });
    const status = String(a.payment_status);
    if (meaning === 'open') return { status: 'PENDING', providerStatus: status };
    if (meaning === 'failed') return { status: 'FAILED', providerStatus: status, reason: typeof a.payment_message === 'string' && a.payment_message ? a.payment_message.slice(0, 200) : status };
    const amountPaise = cashfreeAmountToPaise(a.payment_amount);
    if (amountPaise === null) throw bad('bad_amount', { operation, reference, payment_amount: a.payment_amount });
    if (typeof a.bank_reference !== 'string' || !UTR.test(a.bank_reference)) throw bad('missing_utr', { operation, reference, bank_reference: a.bank_reference });
    if (typeof a.cf_payment_id !== 'number' && typeof a.cf_payment_id !== 'string') throw bad('missing_payment_id', { operation, reference });
    const when = typeof a.payment_completion_time === 'string' ? a.payment_completion_time : a.payment_time;
    const paidAt = typeof when === 'string' ? new Date(when) : new Date(NaN);
    if (Number.isNaN(paidAt.getTime())) throw bad('bad_payment_time', { operation, reference, payment_completion_time: a.payment_completion_time });
    return { status: 'SUCCESS', providerStatus: 'SUCCESS', utr: a.bank_reference, paidAt, amountPaise, providerReference: String(a.cf_payment_id) };
  }

  async function createOrder(req: CollectionRequest): Promise<{ sessionId: string }> {
    const c = req.customer;
    const body = jsonWithAmounts(
      {
        order_id: req.reference,
        order_amount: 0,
        order_currency: 'INR',
        customer_details: {
          // Stable per order: Cashfree requires an id; we have no payer account to name.
          customer_id: req.reference,
          customer_phone: c?.phone ?? STAND_IN_PHONE,
          ...(c?.email ? { customer_email: c.email } : {}),
          ...(c?.name ? { customer_name: c.name } : {}),
        },
        order_meta: { payment_methods: 'upi' },
        order_expiry_time: istTimestamp(req.expiresAt),
        order_note: req.note.slice(0, 200),
      },
      { order_amount: req.amountPaise },
    );
    let a = await client.call('POST', '/orders', { body, idempotencyKey: `${req.reference}-order` });
    // 409: the order exists (our earlier create whose answer was lost): fetch it, never a new one.
    if (a.status === 409) a = await client.call('GET', path('orders', req.reference));
    if (a.status >= 500) throw new ProviderError(`cashfree create order: ${cashfreeErrorText(a)}`, true);
    if (a.status !== 200) throw new ProviderError(`cashfree create order: ${cashfreeErrorText(a)}`, false);
    const o = decoded(OrderAnswer, a.json);
    if (!o || typeof o.payment_session_id !== 'string' || !o.payment_session_id) throw bad('order_without_session', { operation: 'create', reference: req.reference });
    if (cashfreeAmountToPaise(o.order_amount) !== req.amountPaise) throw bad('order_amount_differs', { operation: 'create', reference: req.reference, order_amount: o.order_amount });
    if (o.order_status !== 'ACTIVE') throw new ProviderError(`cashfree order ${req.reference} is ${String(o.order_status)}`, false);
    return { sessionId: o.payment_session_id };
  }

  async function createCollection(req: CollectionRequest): Promise<CollectionIssued> {
    const { sessionId } = await createOrder(req);
    // Order Pay authenticates by the session id alone; each call makes a new attempt, so retries
    // of one create carry the same idempotency key.
    const a = await client.call('POST', '/orders/sessions', {
      body: JSON.stringify({ payment_session_id: sessionId, payment_method: { upi: { channel: 'link' } } }),
      idempotencyKey: `${req.reference}-pay`,
      auth: false,
    });
    if (a.status >= 500) throw new ProviderError(`cashfree order pay: ${cashfreeErrorText(a)}`, true);
    if (a.status !== 200) throw new ProviderError(`cashfree order pay: ${cashfreeErrorText(a)}`, false);
    const p = decoded(OrderPayAnswer, a.json);
    const intent = p?.data?.payload?.default;
    // Cashfree's own sandbox answers https:// simulator links instead of upi:// (design note §1.3): accepted off production only.
    const okIntent = typeof intent === 'string' && (intent.startsWith('upi://pay?') || (!deps.livemode && intent.startsWith('https://')));
    if (!okIntent) throw bad('intent_not_upi', { operation: 'create', reference: req.reference });
    if (typeof p?.cf_payment_id !== 'number' && typeof p?.cf_payment_id !== 'string') throw bad('missing_payment_id', { operation: 'create', reference: req.reference });
    if (p.payment_amount !== undefined && cashfreeAmountToPaise(p.payment_amount) !== req.amountPaise) throw bad('payment_amount_differs', { operation: 'create', reference: req.reference, payment_amount: p.payment_amount });
    return { providerReference: String(p.cf_payment_id), upiUri: intent };
  }

  async function collectionStatus(reference: string, opts?: { timeoutMs?: number }): Promise<CollectionStatus> {
    const a = await client.call('GET', `${path('orders', reference)}/payments`, opts?.timeoutMs ? { timeoutMs: opts.timeoutMs } : {});
    if (a.status === 404) return { status: 'NOT_FOUND' };
    if (a.status !== 200) throw new ProviderError(`cashfree payments of ${reference}: ${cashfreeErrorText(a)}`, a.status >= 500);
    const attempts = decoded(PaymentAttempts, a.json);
    if (!attempts) throw bad('payments_not_a_list', { operation: 'status', reference, http_status: a.status });
    const statuses = attempts.map((att) => fromAttempt(reference, att, 'status'));
    const paid = statuses.filter((s) => s.status === 'SUCCESS');
    if (paid.length > 1) log.error({ reference, attempts: paid.length }, 'several successful attempts on one order: the first is applied, the others are real money to review');
    if (paid[0]) return paid[0];
    const open = statuses.find((s) => s.status === 'PENDING');
    if (open) return open;
    // No attempt yet: the order is open at Cashfree.
    if (statuses.length === 0) return { status: 'PENDING', providerStatus: 'ACTIVE' };
    return statuses[statuses.length - 1]!;
  }

  /** `orderReference`: the order the refund belongs to (the anomaly's resource). */
  function refundAnswer(a: CashfreeAnswer, reference: string, orderReference: string): RefundStatus | 'pending' {
    const r = decoded(RefundAnswer, a.json);
    if (!r || r.refund_id !== reference) throw bad('refund_not_ours', { operation: 'refund', reference: orderReference, refund_id: reference });
    const meaning = refundMeaning(r.refund_status);
    if (meaning === null) throw bad('unknown_refund_status', { operation: 'refund', reference: orderReference, refund_id: reference, refund_status: r.refund_status });
    if (meaning === 'pending') return 'pending';
    if (meaning === 'failed') return { status: 'FAILED', reason: typeof r.status_description === 'string' && r.status_description ? r.status_description.slice(0, 200) : String(r.refund_status) };
    const completedAt = typeof r.processed_at === 'string' ? new Date(r.processed_at) : new Date();
    return { status: 'COMPLETED', providerReference: String(r.cf_refund_id ?? reference), completedAt: Number.isNaN(completedAt.getTime()) ? new Date() : completedAt };
  }

  async function submitRefund(req: RefundRequest): Promise<RefundSubmitResult> {
    try {
      const body = jsonWithAmounts({ refund_amount: 0, refund_id: req.reference, refund_speed: 'STANDARD' }, { refund_amount: req.amountPaise });
      const a = await client.call('POST', `${path('orders', req.collectionReference)}/refunds`, { body, idempotencyKey: req.reference });
      // 409: a refund with this refund_id exists (our lost earlier answer): inquire.
      if (a.status >= 500 || a.status === 409) return { outcome: 'UNKNOWN', error: cashfreeErrorText(a) };
      if (a.status !== 200) return { outcome: 'FAILED', reason: cashfreeErrorText(a) };
      const s = refundAnswer(a, req.reference, req.collectionReference);
      if (s === 'pending') return { outcome: 'UNKNOWN', error: 'refund pending at cashfree' };
      if (s.status === 'COMPLETED') return { outcome: 'COMPLETED', providerReference: s.providerReference, completedAt: s.completedAt };
      if (s.status === 'FAILED') return { outcome: 'FAILED', reason: s.reason };
      return { outcome: 'UNKNOWN', error: 'refund not found right after its create' };
    } catch (err) {
      return { outcome: 'UNKNOWN', error: (err as Error).message };
    }
  }

  async function refundStatus(reference: string, opts?: { collectionReference?: string }): Promise<RefundStatus> {
    if (!opts?.collectionReference) throw new ProviderError('cashfree refunds are looked up under their order', false);
    const a = await client.call('GET', `${path('orders', opts.collectionReference, 'refunds', reference)}`);
    if (a.status === 404) return { status: 'NOT_FOUND' };
    if (a.status !== 200) throw new ProviderError(`cashfree refund ${reference}: ${cashfreeErrorText(a)}`, a.status >= 500);
    const s = refundAnswer(a, reference, opts.collectionReference);
    if (s === 'pending') throw new ProviderError(`cashfree refund ${reference} is still pending`, false);
    return s;
  }

  function parseCallback(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderCallback | null {
    const verdict = verifyCashfreeSignature(cfg.client_secret, rawBody, header(headers, 'x-webhook-timestamp'), header(headers, 'x-webhook-signature'));
    if (verdict !== 'ok') {
      log.warn({ verdict }, 'cashfree webhook refused');
      return null;
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      bad('webhook_not_json', { operation: 'webhook', body_bytes: Buffer.byteLength(rawBody) });
      throw validationError([{ field: 'body', issue: 'a signed webhook that is not JSON' }]);
    }
    if (hasDuplicateKeys(rawBody, body)) throw new AppError('INVALID_JSON', 'The callback body names a key twice in one object.');
    const b = decoded(WebhookBody, body);
    const data = decoded(WebhookData, b?.data);
    const type = typeof b?.type === 'string' ? b.type : '';
    const reference = data?.order?.order_id;
    switch (type) {
      case 'PAYMENT_SUCCESS_WEBHOOK':
      case 'PAYMENT_FAILED_WEBHOOK':
      case 'PAYMENT_USER_DROPPED_WEBHOOK': {
        const payment = decoded(PaymentAttempt, data?.payment);
        if (typeof reference !== 'string' || !payment) {
          bad('webhook_without_payment', { operation: 'webhook', reference, type });
          throw validationError([{ field: 'data', issue: 'a payment webhook without data.order.order_id and data.payment' }]);
        }
        let status: CollectionStatus;
        try {
          // The payment's own status decides, not the event type (a SUCCESS webhook may say PENDING).
          status = fromAttempt(reference, payment, 'webhook');
        } catch (err) {
          throw validationError([{ field: 'data.payment', issue: (err as Error).message }]);
        }
        return { eventId: `${type}:${String(payment.cf_payment_id)}:${String(payment.payment_status)}`, kind: 'collection', reference, status };
      }
      default:
        // Refund and settlement news: refunds are settled by inquiry (the refund worker), so these
        // are acknowledged and not stored.
        return { eventId: `${type}:${header(headers, 'x-webhook-timestamp') ?? ''}`, kind: 'none', reference: typeof reference === 'string' ? reference : '', note: type || 'untyped' };
    }
  }

  return {
    name: 'cashfree',
    livemode: deps.livemode,
    createCollection,
    collectionStatus,
    async submitPayout() {
      return { outcome: 'REJECTED', reason: 'Cashfree PG does not make payouts' };
    },
    async payoutStatus() {
      return { status: 'NOT_FOUND' };
    },
    submitRefund,
    refundStatus,
    parseCallback,
    // The merchant is the account itself (its credentials); the since window and cursor are Cashfree's.
    fetchSettlements: (q) => fetchCashfreeSettlements(client, cfg.api_version, { since: q.since }),
  };
}

export { CashfreeRateLimited };
