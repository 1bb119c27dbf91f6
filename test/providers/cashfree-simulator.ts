/**
 * A Cashfree PG simulator: a real HTTP server on 127.0.0.1 speaking the documented API (base path
 * /pg), for tests of the Cashfree connector through the whole service. Built from:
 * - Cashfree's OpenAPI for PG (github.com/cashfree/cashfree-mcp, src/openapi/openapi-PG.json,
 *   info.version 2025-01-01): paths, CreateOrderRequest / OrderEntity / PayOrderEntity /
 *   PaymentEntity / OrderCreateRefundRequest / RefundEntity field names, status enums, the
 *   x-client-id / x-client-secret / x-api-version / x-idempotency-key headers, error shape
 *   {message, code, type} with 400/401/404/409/422/429/5xx.
 * - The official Go SDK github.com/cashfree/cashfree-pg (docs/*.md, api_orders.go: 409 ApiError409
 *   `invalid_request_error`, 422 IdempotencyError `idempotency_error`; configuration.go
 *   PGVerifyWebhookSignature).
 * - cashfree.com/docs/api-reference/payments/latest/payments/pay.md (Order Pay, no client
 *   credentials), .../payments/webhooks (payload envelope, x-webhook-* headers, timestamp in ms),
 *   .../webhooks/signature-verification.md (Base64 HMAC-SHA256 of timestamp + raw body with the
 *   client secret), the Meta-hosted Cashfree UPI-intent guide (data.payload.default = upi://pay?...,
 *   `tr` = cf_payment_id, action "custom"), rate-limit headers x-ratelimit-* (cashfree/agent-skills).
 * Amounts are written as two-decimal JSON literals (`499.00`) as Cashfree sends them, so a client
 * that re-serialises a webhook body breaks its signature, as with the real service.
 * - Settlements: the Settlement Reconciliation API, in cashfree-recon-sim.ts (its sources there).
 * Not modelled: disputes, other payment methods, Cashfree's sandbox simulator links.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeSettlement, reconAnswer, type ReconEvent, type SettleOptions } from './cashfree-recon-sim.js';

export interface SimulatorOptions {
  clientId: string;
  clientSecret: string;
}

type PaymentStatus = 'SUCCESS' | 'NOT_ATTEMPTED' | 'FAILED' | 'USER_DROPPED' | 'VOID' | 'CANCELLED' | 'PENDING' | string;

interface SimPayment {
  cf_payment_id: number;
  order_id: string;
  payment_status: PaymentStatus;
  amountPaise: number;
  bank_reference: string | null;
  payment_time: string;
  payment_completion_time: string | null;
  payment_message: string | null;
}

interface SimRefund {
  cf_refund_id: number;
  refund_id: string;
  order_id: string;
  cf_payment_id: number;
  amountPaise: number;
  refund_status: string;
  refund_note: string | null;
  created_at: string;
  processed_at: string | null;
}

interface SimOrder {
  cf_order_id: number;
  order_id: string;
  amountPaise: number;
  order_status: 'ACTIVE' | 'PAID' | 'EXPIRED' | 'TERMINATED';
  payment_session_id: string;
  order_expiry_time: string;
  order_note: string | null;
  customer_details: Record<string, unknown>;
  created_at: string;
  payments: SimPayment[];
  refunds: SimRefund[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Fault = { kind: 'status'; status: number; headers?: Record<string, string> } | { kind: 'hang' };

/** Two-decimal rupee literal of paise (`49900` -> `499.00`), as Cashfree writes amounts. */
export function rupees(paise: number): string {
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}

/** IST ISO-8601 as in Cashfree's answers (2021-07-02T10:20:12+05:30). */
function ist(d = new Date()): string {
  return `${new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;
}

/** JSON text with the given `$amount:NAME` placeholders replaced by rupee literals. */
function withAmounts(value: unknown, amounts: Record<string, number>): string {
  let text = JSON.stringify(value);
  for (const [k, paise] of Object.entries(amounts)) text = text.split(JSON.stringify(`$amount:${k}`)).join(rupees(paise));
  return text;
}

/** Decimal rupees (a JSON number, at most 2 dp) to paise; null when not exactly that. */
function toPaise(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return null;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(v));
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null;
}

export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(timestamp + rawBody).digest('base64');
}

export class CashfreeSimulator {
  readonly orders = new Map<string, SimOrder>();
  readonly requests: RecordedRequest[] = [];
  /** Faults for the next calls whose `METHOD /path` matches (consumed one per call). */
  private readonly faults: Array<{ match: RegExp; fault: Fault }> = [];
  private readonly idempotent = new Map<string, { bodyHash: string; status: number; text: string }>();
  private nextId = 5_114_910_000 + Math.floor(Math.random() * 1000);
  private server: Server | undefined;
  url = '';
  /** Where webhooks go (the account's callback_url). */
  webhookUrl: string | undefined;
  /** Refund outcome decided at create (else they stay PENDING until settleRefund). */
  refundOutcome: 'SUCCESS' | 'PENDING' | 'CANCELLED' = 'PENDING';
  /** Every settled event (settlement recon API); what each settlement covered. */
  readonly reconEvents: ReconEvent[] = [];
  private readonly settledKeys = new Set<string>();
  /** Page size cap of the recon API in this simulator (small, so tests see its cursor at work). */
  reconMaxPage = 1_000;

  constructor(private readonly opts: SimulatorOptions) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The base_url of an account config pointing here. */
  get baseUrl(): string {
    return `${this.url}/pg`;
  }

  /** The config file of contract §8 for an account on this simulator. */
  config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { base_url: this.baseUrl, client_id: this.opts.clientId, client_secret: this.opts.clientSecret, ...overrides };
  }

  inject(match: RegExp, fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push({ match, fault });
  }

  private id(): number {
    return this.nextId++;
  }

  private send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199', 'x-ratelimit-type': 'app_id', ...headers });
    res.end(text);
  }

  private error(res: ServerResponse, status: number, type: string, code: string, message: string): void {
    this.send(res, status, JSON.stringify({ message, code, type }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, headers: req.headers, body });
    const fi = this.faults.findIndex((f) => f.match.test(`${method} ${path}`));
    if (fi >= 0) {
      const { fault } = this.faults.splice(fi, 1)[0]!;
      if (fault.kind === 'hang') return; // never answers: the client's timeout decides
      return this.send(res, fault.status, JSON.stringify({ message: 'injected fault', code: 'internal_error', type: fault.status === 429 ? 'rate_limit_error' : 'api_error' }), fault.headers);
    }
    try {
      this.route(method, path, req.headers, body, res);
    } catch (err) {
      this.error(res, 500, 'api_error', 'internal_error', (err as Error).message);
    }
  }

  private authorised(h: Record<string, string | string[] | undefined>, res: ServerResponse): boolean {
    if (!h['x-api-version']) {
      this.error(res, 400, 'invalid_request_error', 'x-api-version_missing', 'x-api-version : is missing in the request');
      return false;
    }
    if (h['x-client-id'] !== this.opts.clientId || h['x-client-secret'] !== this.opts.clientSecret) {
      this.error(res, 401, 'authentication_error', 'request_failed', 'authentication Failed');
      return false;
    }
    return true;
  }

  /** Same x-idempotency-key + same body: the first answer again; another body: 422 idempotency_error. */
  private replayed(key: string | undefined, scope: string, body: string, res: ServerResponse): { remember(status: number, text: string): void } | null {
    if (!key) return { remember: () => {} };
    const k = `${scope}|${key}`;
    const seen = this.idempotent.get(k);
    if (seen) {
      if (seen.bodyHash !== body) this.error(res, 422, 'idempotency_error', 'idempotency_key_mismatch', 'the idempotency key was used with another request body');
      else this.send(res, seen.status, seen.text, { 'x-idempotency-replayed': 'true' });
      return null;
    }
    return { remember: (status, text) => this.idempotent.set(k, { bodyHash: body, status, text }) };
  }

  private route(method: string, path: string, h: Record<string, string | string[] | undefined>, body: string, res: ServerResponse): void {
    const key = typeof h['x-idempotency-key'] === 'string' ? h['x-idempotency-key'] : undefined;
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/pg/orders') {
      if (!this.authorised(h, res)) return;
      const idem = this.replayed(key, 'orders', body, res);
      if (!idem) return;
      const b = JSON.parse(body) as Record<string, any>;
      const amount = toPaise(b.order_amount);
      if (amount === null || amount < 100) return this.error(res, 400, 'invalid_request_error', 'order_amount_invalid', 'order_amount : should be a number >= 1.00 with at most 2 decimals');
      if (b.order_currency !== 'INR') return this.error(res, 400, 'invalid_request_error', 'order_currency_invalid', 'order_currency : invalid value');
      const cd = b.customer_details as Record<string, unknown> | undefined;
      if (!cd || typeof cd.customer_id !== 'string') return this.error(res, 400, 'invalid_request_error', 'customer_details.customer_id_missing', 'customer_details.customer_id : is missing in the request');
      if (typeof cd.customer_phone !== 'string' || !/^[0-9]{10}$/.test(cd.customer_phone)) return this.error(res, 400, 'invalid_request_error', 'customer_details.customer_phone_invalid', 'customer_details.customer_phone : is missing or invalid');
      if (typeof b.order_id !== 'string' || !/^[A-Za-z0-9_-]{3,50}$/.test(b.order_id)) return this.error(res, 400, 'invalid_request_error', 'order_id_invalid', 'order_id : invalid value');
      if (this.orders.has(b.order_id)) return this.error(res, 409, 'invalid_request_error', 'order_already_exists', 'order with same id is already present');
      const o: SimOrder = {
        cf_order_id: this.id(),
        order_id: b.order_id,
        amountPaise: amount,
        order_status: 'ACTIVE',
        payment_session_id: `session_${randomUUID().replace(/-/g, '')}`,
        order_expiry_time: typeof b.order_expiry_time === 'string' ? b.order_expiry_time : ist(new Date(Date.now() + 30 * 86_400_000)),
        order_note: typeof b.order_note === 'string' ? b.order_note : null,
        customer_details: cd,
        created_at: ist(),
        payments: [],
        refunds: [],
      };
      this.orders.set(o.order_id, o);
      const text = this.orderJson(o);
      idem.remember(200, text);
      return this.send(res, 200, text);
    }
    if (method === 'POST' && path === '/pg/orders/sessions') {
      // Order Pay: authenticated by the payment_session_id only.
      if (!h['x-api-version']) return this.error(res, 400, 'invalid_request_error', 'x-api-version_missing', 'x-api-version : is missing in the request');
      const idem = this.replayed(key, 'sessions', body, res);
      if (!idem) return;
      const b = JSON.parse(body) as Record<string, any>;
      const o = [...this.orders.values()].find((x) => x.payment_session_id === b.payment_session_id);
      if (!o) return this.error(res, 400, 'invalid_request_error', 'payment_session_id_invalid', 'payment_session_id : invalid value');
      if (o.order_status !== 'ACTIVE') return this.error(res, 400, 'invalid_request_error', 'order_inactive', `order is ${o.order_status}`);
      if (b.payment_method?.upi?.channel !== 'link') return this.error(res, 400, 'invalid_request_error', 'channel_invalid', 'only channel link is simulated');
      const p: SimPayment = { cf_payment_id: this.id(), order_id: o.order_id, payment_status: 'NOT_ATTEMPTED', amountPaise: o.amountPaise, bank_reference: null, payment_time: ist(), payment_completion_time: null, payment_message: null };
      o.payments.push(p);
      const q = `pa=cashfree.sim@yesbank&pn=Sim%20Merchant&tr=${p.cf_payment_id}&am=${rupees(o.amountPaise)}&cu=INR&mode=00&purpose=00&mc=5732&tn=${encodeURIComponent(o.order_note ?? '')}`;
      const text = withAmounts(
        {
          payment_amount: '$amount:p',
          cf_payment_id: p.cf_payment_id,
          payment_method: 'upi',
          channel: 'link',
          action: 'custom',
          data: { url: null, payload: { bhim: `bhim://upi/pay?${q}`, default: `upi://pay?${q}`, gpay: `tez://upi/pay?${q}`, paytm: `paytmmp://upi/pay?${q}`, phonepe: `phonepe://pay?${q}` }, content_type: null, method: null },
        },
        { p: o.amountPaise },
      );
      idem.remember(200, text);
      return this.send(res, 200, text);
    }
    if ((m = /^\/pg\/orders\/([^/]+)$/.exec(path)) && method === 'GET') {
      if (!this.authorised(h, res)) return;
      const o = this.orders.get(decodeURIComponent(m[1]!));
      if (!o) return this.error(res, 404, 'invalid_request_error', 'order_not_found', 'order not found');
      return this.send(res, 200, this.orderJson(o));
    }
    if ((m = /^\/pg\/orders\/([^/]+)\/payments$/.exec(path)) && method === 'GET') {
      if (!this.authorised(h, res)) return;
      const o = this.orders.get(decodeURIComponent(m[1]!));
      if (!o) return this.error(res, 404, 'invalid_request_error', 'order_not_found', 'order not found');
      const amounts: Record<string, number> = {};
      const list = o.payments.map((p, i) => {
        amounts[`p${i}`] = p.amountPaise;
        return this.paymentEntity(p, `$amount:p${i}`);
      });
      return this.send(res, 200, withAmounts(list, amounts));
    }
    if ((m = /^\/pg\/orders\/([^/]+)\/refunds$/.exec(path)) && method === 'POST') {
      if (!this.authorised(h, res)) return;
      const idem = this.replayed(key, 'refunds', body, res);
      if (!idem) return;
      const o = this.orders.get(decodeURIComponent(m[1]!));
      if (!o) return this.error(res, 404, 'invalid_request_error', 'order_not_found', 'order not found');
      const b = JSON.parse(body) as Record<string, any>;
      if (typeof b.refund_id !== 'string' || !b.refund_id) return this.error(res, 400, 'invalid_request_error', 'refund_id_missing', 'refund_id : is missing in the request');
      if (o.refunds.some((r) => r.refund_id === b.refund_id)) return this.error(res, 409, 'invalid_request_error', 'refund_already_exists', 'refund with same refund_id already exists');
      const amount = toPaise(b.refund_amount);
      const paid = o.payments.find((p) => p.payment_status === 'SUCCESS');
      if (!paid || o.order_status !== 'PAID') return this.error(res, 400, 'invalid_request_error', 'order_not_paid', 'refund is allowed only on paid orders');
      const refunded = o.refunds.filter((r) => r.refund_status !== 'CANCELLED').reduce((s, r) => s + r.amountPaise, 0);
      if (amount === null || amount < 1 || amount + refunded > paid.amountPaise) return this.error(res, 400, 'invalid_request_error', 'refund_amount_invalid', 'refund_amount : exceeds the refundable amount');
      const r: SimRefund = { cf_refund_id: this.id(), refund_id: b.refund_id, order_id: o.order_id, cf_payment_id: paid.cf_payment_id, amountPaise: amount, refund_status: this.refundOutcome, refund_note: b.refund_note ?? null, created_at: ist(), processed_at: this.refundOutcome === 'SUCCESS' ? ist() : null };
      o.refunds.push(r);
      const text = this.refundJson(r);
      idem.remember(200, text);
      return this.send(res, 200, text);
    }
    if ((m = /^\/pg\/orders\/([^/]+)\/refunds\/([^/]+)$/.exec(path)) && method === 'GET') {
      if (!this.authorised(h, res)) return;
      const o = this.orders.get(decodeURIComponent(m[1]!));
      const r = o?.refunds.find((x) => x.refund_id === decodeURIComponent(m![2]!));
      if (!r) return this.error(res, 404, 'invalid_request_error', 'refund_not_found', 'refund not found');
      return this.send(res, 200, this.refundJson(r));
    }
    if (method === 'POST' && path === '/pg/settlement/recon') {
      if (!this.authorised(h, res)) return;
      const a = reconAnswer(this.reconEvents, body, this.reconMaxPage);
      return this.send(res, a.status, a.text);
    }
    this.error(res, 404, 'invalid_request_error', 'not_found', `no route ${method} ${path}`);
  }

  /** Cashfree settles now every successful payment and refund not yet settled; the settlement's cf_settlement_id. */
  settle(o: SettleOptions = {}): number {
    const id = this.id();
    const paid = [];
    const refunds = [];
    for (const order of this.orders.values()) {
      for (const p of order.payments) {
        if (p.payment_status !== 'SUCCESS' || (this.settledKeys.has(`P${p.cf_payment_id}`) && o.again !== order.order_id)) continue;
        this.settledKeys.add(`P${p.cf_payment_id}`);
        paid.push({ order_id: order.order_id, cf_payment_id: p.cf_payment_id, amountPaise: p.amountPaise });
      }
      for (const r of order.refunds) {
        if (r.refund_status !== 'SUCCESS' || this.settledKeys.has(`R${r.cf_refund_id}`)) continue;
        this.settledKeys.add(`R${r.cf_refund_id}`);
        refunds.push({ order_id: order.order_id, refund_id: r.refund_id, cf_refund_id: r.cf_refund_id, cf_payment_id: r.cf_payment_id, amountPaise: r.amountPaise });
      }
    }
    this.reconEvents.push(...makeSettlement(id, paid, refunds, o));
    return id;
  }

  private orderJson(o: SimOrder): string {
    return withAmounts(
      {
        cf_order_id: String(o.cf_order_id),
        order_id: o.order_id,
        entity: 'order',
        order_currency: 'INR',
        order_amount: '$amount:o',
        order_status: o.order_status,
        payment_session_id: o.payment_session_id,
        order_expiry_time: o.order_expiry_time,
        order_note: o.order_note,
        created_at: o.created_at,
        customer_details: o.customer_details,
        order_meta: { return_url: null, notify_url: null, payment_methods: 'upi' },
        order_tags: null,
      },
      { o: o.amountPaise },
    );
  }

  private paymentEntity(p: SimPayment, amount: string): Record<string, unknown> {
    return {
      cf_payment_id: p.cf_payment_id,
      order_id: p.order_id,
      entity: 'payment',
      is_captured: p.payment_status === 'SUCCESS',
      payment_amount: amount,
      payment_currency: 'INR',
      payment_status: p.payment_status,
      payment_message: p.payment_message,
      payment_time: p.payment_time,
      payment_completion_time: p.payment_completion_time,
      bank_reference: p.bank_reference,
      auth_id: null,
      payment_group: 'upi',
      payment_method: { upi: { channel: 'link', upi_id: p.payment_status === 'SUCCESS' ? 'payer@okaxis' : null } },
      error_details: p.payment_status === 'FAILED' ? { error_code: 'TRANSACTION_DECLINED', error_description: p.payment_message, error_reason: 'bank_declined', error_source: 'customer' } : null,
    };
  }

  private refundJson(r: SimRefund): string {
    return withAmounts(
      {
        cf_payment_id: r.cf_payment_id,
        cf_refund_id: String(r.cf_refund_id),
        refund_id: r.refund_id,
        order_id: r.order_id,
        entity: 'refund',
        refund_amount: '$amount:r',
        refund_currency: 'INR',
        refund_note: r.refund_note,
        refund_status: r.refund_status,
        refund_arn: r.refund_status === 'SUCCESS' ? `ARN${r.cf_refund_id}` : null,
        refund_charge: 0,
        status_description: r.refund_status === 'SUCCESS' ? 'Refund processed successfully' : 'In Progress',
        refund_type: 'MERCHANT_INITIATED',
        refund_speed: { requested: 'STANDARD', accepted: 'STANDARD', processed: r.refund_status === 'SUCCESS' ? 'STANDARD' : null, message: null },
        created_at: r.created_at,
        processed_at: r.processed_at,
      },
      { r: r.amountPaise },
    );
  }

  /** The order's latest attempt (the one our intent's `tr` names). */
  attempt(orderId: string): SimPayment {
    const o = this.orders.get(orderId);
    const p = o?.payments.at(-1);
    if (!o || !p) throw new Error(`no attempt on ${orderId}`);
    return p;
  }

  /**
   * The payer's bank decides the latest attempt: SUCCESS (order PAID, even if it has expired: a
   * late success, as Cashfree's docs warn), FAILED or USER_DROPPED. Sends the webhook unless told not to.
   */
  async decide(orderId: string, status: 'SUCCESS' | 'FAILED' | 'USER_DROPPED' | string, o: { utr?: string; amountPaise?: number; webhook?: boolean } = {}): Promise<{ status: number; rawBody: string } | null> {
    const order = this.orders.get(orderId)!;
    const p = this.attempt(orderId);
    p.payment_status = status;
    p.payment_completion_time = ist();
    if (o.amountPaise !== undefined) p.amountPaise = o.amountPaise;
    if (status === 'SUCCESS') {
      p.bank_reference = o.utr ?? String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
      p.payment_message = 'Transaction Success';
      order.order_status = 'PAID';
    } else {
      p.payment_message = status === 'FAILED' ? 'Transaction declined by bank' : 'User dropped and did not complete the two factor authentication';
    }
    if (o.webhook === false) return null;
    return this.sendWebhook(this.paymentWebhookBody(order, p));
  }

  /** The order expired at Cashfree (no new attempt can start). */
  expire(orderId: string): void {
    this.orders.get(orderId)!.order_status = 'EXPIRED';
  }

  settleRefund(orderId: string, refundId: string, status: 'SUCCESS' | 'CANCELLED' | string): void {
    const r = this.orders.get(orderId)!.refunds.find((x) => x.refund_id === refundId)!;
    r.refund_status = status;
    r.processed_at = ist();
  }

  /** A PAYMENT_*_WEBHOOK body in the documented 2023-08-01 / 2025-01-01 envelope. */
  paymentWebhookBody(order: SimOrder, p: SimPayment): string {
    const type = p.payment_status === 'SUCCESS' ? 'PAYMENT_SUCCESS_WEBHOOK' : p.payment_status === 'USER_DROPPED' ? 'PAYMENT_USER_DROPPED_WEBHOOK' : 'PAYMENT_FAILED_WEBHOOK';
    return withAmounts(
      {
        data: {
          order: { order_id: order.order_id, order_amount: '$amount:o', order_currency: 'INR', order_tags: null },
          payment: {
            cf_payment_id: p.cf_payment_id,
            payment_status: p.payment_status,
            payment_amount: '$amount:p',
            payment_currency: 'INR',
            payment_message: p.payment_message,
            payment_time: p.payment_completion_time ?? p.payment_time,
            bank_reference: p.bank_reference,
            auth_id: null,
            payment_method: { upi: { channel: 'link', upi_id: p.payment_status === 'SUCCESS' ? 'payer@okaxis' : null } },
            payment_group: 'upi',
          },
          customer_details: { customer_name: null, customer_id: String(order.customer_details.customer_id), customer_email: null, customer_phone: String(order.customer_details.customer_phone) },
          payment_gateway_details: { gateway_name: 'CASHFREE', gateway_order_id: String(order.cf_order_id), gateway_payment_id: String(p.cf_payment_id), gateway_status_code: null },
        },
        event_time: ist(),
        type,
      },
      { o: order.amountPaise, p: p.amountPaise },
    );
  }

  /** Posts a webhook signed as Cashfree signs it (overrides: a forged signature or a stale timestamp). */
  async sendWebhook(rawBody: string, o: { timestamp?: string; signature?: string; secret?: string } = {}): Promise<{ status: number; rawBody: string }> {
    if (!this.webhookUrl) throw new Error('webhookUrl is not set');
    const ts = o.timestamp ?? String(Date.now());
    const res = await fetch(this.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-timestamp': ts,
        'x-webhook-signature': o.signature ?? signWebhook(o.secret ?? this.opts.clientSecret, ts, rawBody),
        'x-webhook-version': '2025-01-01',
        'x-webhook-attempt': '1',
      },
      body: rawBody,
    });
    await res.text();
    return { status: res.status, rawBody };
  }
}

/**
 * Adds an account on the simulator to the organization through the admin API, points the
 * simulator's webhooks at the account's intake and makes it the organization's collections
 * account (contract §8); the account as the admin API answered it.
 */
export async function collectThroughSimulator(
  t: { admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string; body: any }> },
  orgId: string,
  sim: CashfreeSimulator,
  opts: { name?: string; config?: Record<string, unknown> } = {},
): Promise<{ accountId: string; callbackUrl: string }> {
  const added = await t.admin('POST', '/provider-accounts', { org: orgId, provider: 'cashfree', ...(opts.name ? { name: opts.name } : {}), config: sim.config(opts.config) });
  assert.equal(added.status, 201, added.text);
  const accountId: string = added.body.data.provider_account_id;
  const callbackUrl: string = added.body.data.callback_url;
  sim.webhookUrl = callbackUrl;
  const use = await t.admin('PUT', `/orgs/${orgId}/collections`, { provider_account_id: accountId });
  assert.equal(use.status, 200, use.text);
  return { accountId, callbackUrl };
}
