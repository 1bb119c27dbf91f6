/**
 * A thin client for the merchant API: one method per operation, bodies and answers typed from the
 * OpenAPI document (generated/openapi.ts). Creates carry an Idempotency-Key made here (or given)
 * and reused on every retry of that create; retries happen only where API §5 and §7 allow them.
 */
import { TijoriApiError, TijoriConnectionError, type ErrorCode } from './errors.js';
import type { components } from './generated/openapi.js';

type S = components['schemas'];
export type PaymentOrder = S['PaymentOrder'];
export type CreatePaymentOrderRequest = S['CreatePaymentOrderRequest'];
export type Payout = S['Payout'];
export type CreatePayoutRequest = S['CreatePayoutRequest'];
export type PayoutCreated = Omit<S['PayoutCreatedEnvelope'], 'success' | 'request_id'>;
export type Refund = S['Refund'];
export type CreateRefundRequest = S['CreateRefundRequest'];

/** The filters of a list (contract §7). Dates as ISO 8601 text (with a zone) or Date; both bounds inclusive. */
export interface ListQuery<Status extends string> {
  status?: Status;
  created_from?: string | Date;
  created_to?: string | Date;
  /** 1–100, default 20. */
  limit?: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
}
export type PaymentOrderListQuery = ListQuery<PaymentOrder['status']>;
export type PayoutListQuery = ListQuery<Payout['status']>;

/** One page of a list, newest first; `next_cursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

function queryString(q: ListQuery<string>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) {
    if (value === undefined) continue;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export interface TijoriOptions {
  /** The API's base address, with its `/api/v1` prefix, e.g. `https://pay.example.in/api/v1`. */
  baseUrl: string;
  clientId: string;
  /** Server-side only; never ship it to a browser. */
  clientSecret: string;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff step in ms (default 500), doubled each retry, with full jitter; Retry-After wins. */
  retryBaseMs?: number;
  /** Per-attempt timeout in ms (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface CreateOptions {
  /** Reuse the key of an earlier, uncertain create (from the error it threw). Made here when absent. */
  idempotencyKey?: string;
}

/** When an attempt may be repeated. */
type RetryRule = 'idempotent-create' | 'read' | 'never-processed';

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  retry: RetryRule;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a failed attempt allows. A create with its key may be repeated after any uncertain outcome
 * (no answer, 5xx, 429, 409 IDEMPOTENCY_KEY_IN_PROGRESS): the key makes a repeat return the first
 * result. A read may be repeated likewise. Anything else (cancel) only after 429, which is answered
 * before the request is processed.
 */
function mayRetry(rule: RetryRule, status: number | null, code: ErrorCode | null): boolean {
  if (status === 429) return true;
  if (rule === 'never-processed') return false;
  if (status === null) return true;
  if (status >= 500) return true;
  return rule === 'idempotent-create' && status === 409 && code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
}

export class Tijori {
  private readonly baseUrl: string;
  private readonly auth: Record<string, string>;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof globalThis.fetch;

  constructor(options: TijoriOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.auth = { 'x-service-client-id': options.clientId, authorization: `Bearer ${options.clientSecret}` };
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetchFn = options.fetch ?? globalThis.fetch;
  }

  /** Payment orders (API §4.1, §4.2) and their list (contract §7). */
  readonly paymentOrders = {
    create: async (body: CreatePaymentOrderRequest, options: CreateOptions = {}): Promise<PaymentOrder> =>
      (await this.call<S['PaymentOrderEnvelope']>({ method: 'POST', path: '/merchant/payment-orders', body, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(), retry: 'idempotent-create' })).data,
    /** `ref`: the service UUID or the order_id. */
    get: async (ref: string): Promise<PaymentOrder> =>
      (await this.call<S['PaymentOrderEnvelope']>({ method: 'GET', path: `/merchant/payment-orders/${encodeURIComponent(ref)}`, retry: 'read' })).data,
    cancel: async (ref: string): Promise<PaymentOrder> =>
      (await this.call<S['PaymentOrderEnvelope']>({ method: 'POST', path: `/merchant/payment-orders/${encodeURIComponent(ref)}/cancel`, retry: 'never-processed' })).data,
    /** One page of this client's orders, newest first. */
    list: (query: PaymentOrderListQuery = {}): Promise<Page<PaymentOrder>> => this.page<PaymentOrder>('/merchant/payment-orders', query),
    /** Every page from `query.cursor` (or the newest) on: `for await (const page of tijori.paymentOrders.pages({ status: 'PAID' }))`. */
    pages: (query: PaymentOrderListQuery = {}): AsyncGenerator<PaymentOrder[]> => this.pages<PaymentOrder>('/merchant/payment-orders', query),
  };

  /**
   * Refunds of PAID (or MANUALLY_CONFIRMED) payment orders (contract §6). A refund may wait in
   * PENDING_REVIEW for a reviewer of the merchant's organization; it is done at COMPLETED.
   */
  readonly refunds = {
    /** `orderRef`: the order's UUID or order_id. Without `amount_paise`, what is left to refund. */
    create: async (orderRef: string, body: CreateRefundRequest = {}, options: CreateOptions = {}): Promise<Refund> =>
      (
        await this.call<S['RefundEnvelope']>({
          method: 'POST',
          path: `/merchant/payment-orders/${encodeURIComponent(orderRef)}/refunds`,
          body,
          idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
          retry: 'idempotent-create',
        })
      ).data,
    /** The refunds of one payment order, oldest first. */
    list: async (orderRef: string): Promise<Refund[]> =>
      (await this.call<S['RefundListEnvelope']>({ method: 'GET', path: `/merchant/payment-orders/${encodeURIComponent(orderRef)}/refunds`, retry: 'read' })).data,
    /** `ref`: the refund's UUID or refund_id. */
    get: async (ref: string): Promise<Refund> =>
      (await this.call<S['RefundEnvelope']>({ method: 'GET', path: `/merchant/refunds/${encodeURIComponent(ref)}`, retry: 'read' })).data,
  };

  /** Payouts (API §4.3, §4.4) and their list (contract §7). A created payout is submitted, not final: wait for SUCCESS with a UTR. */
  readonly payouts = {
    create: async (body: CreatePayoutRequest, options: CreateOptions = {}): Promise<PayoutCreated> => {
      const r = await this.call<S['PayoutCreatedEnvelope']>({ method: 'POST', path: '/merchant/payouts', body, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(), retry: 'idempotent-create' });
      return { data: r.data, approval_required: r.approval_required, message: r.message };
    },
    /** `ref`: the payout UUID or the transaction_id. */
    get: async (ref: string): Promise<Payout> =>
      (await this.call<S['PayoutEnvelope']>({ method: 'GET', path: `/merchant/payouts/${encodeURIComponent(ref)}`, retry: 'read' })).data,
    /** One page of this client's payouts, newest first. */
    list: (query: PayoutListQuery = {}): Promise<Page<Payout>> => this.page<Payout>('/merchant/payouts', query),
    /** Every page from `query.cursor` (or the newest) on. */
    pages: (query: PayoutListQuery = {}): AsyncGenerator<Payout[]> => this.pages<Payout>('/merchant/payouts', query),
  };

  private async page<T>(path: string, query: ListQuery<string>): Promise<Page<T>> {
    const r = await this.call<{ data: T[]; next_cursor: string | null }>({ method: 'GET', path: `${path}${queryString(query)}`, retry: 'read' });
    return { data: r.data, next_cursor: r.next_cursor };
  }

  /** Keyset pages stay correct while rows are added (contract §7): nothing is skipped or repeated. */
  private async *pages<T>(path: string, query: ListQuery<string>): AsyncGenerator<T[]> {
    let cursor = query.cursor;
    do {
      const page = await this.page<T>(path, { ...query, ...(cursor === undefined ? {} : { cursor }) });
      yield page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  private async call<T>(c: Call): Promise<T> {
    const headers: Record<string, string> = { ...this.auth, accept: 'application/json' };
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
    const init = { method: c.method, headers, ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }) };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await this.fetchFn(`${this.baseUrl}${c.path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
        text = await res.text();
      } catch (cause) {
        if (attempt < this.maxRetries && mayRetry(c.retry, null, null)) {
          await sleep(this.backoffMs(attempt, undefined));
          continue;
        }
        throw new TijoriConnectionError(`no answer from ${c.method} ${c.path}: ${(cause as Error)?.message ?? String(cause)}`, { cause, ...(c.idempotencyKey ? { idempotencyKey: c.idempotencyKey } : {}) });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (res.ok && parsed !== undefined) return parsed as T;
      const error = (parsed as { error?: { code?: ErrorCode; message?: string; request_id?: string; details?: [] } } | undefined)?.error;
      const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN);
      const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
      if (attempt < this.maxRetries && mayRetry(c.retry, res.status, error?.code ?? null)) {
        await sleep(this.backoffMs(attempt, retryAfterSeconds));
        continue;
      }
      const key = c.idempotencyKey ? { idempotencyKey: c.idempotencyKey } : {};
      if (!error?.code) throw new TijoriConnectionError(`${c.method} ${c.path} answered ${res.status} without the API's JSON`, key);
      throw new TijoriApiError({
        status: res.status,
        code: error.code,
        message: error.message ?? '',
        requestId: error.request_id ?? res.headers.get('x-request-id') ?? '',
        ...(error.details ? { details: error.details } : {}),
        ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        ...key,
      });
    }
  }

  private backoffMs(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 + Math.random() * this.retryBaseMs;
    return Math.random() * this.retryBaseMs * 2 ** attempt;
  }
}
