/**
 * A thin client for the merchant API: one method per operation, bodies and answers typed from the
 * OpenAPI document (generated/openapi.ts). Creates carry an Idempotency-Key made here (or given)
 * and reused on every retry of that create; retries happen only where API §5 and §7 allow them.
 */
import { TijoriApiError, TijoriConnectionError, type ErrorCode } from './errors.js';
import type { components } from './generated/openapi.js';
import { ListPromise, type ListQuery, queryString, type RequestOptions, type ResponseMeta, type WithResponse, withResponse } from './answers.js';

export { ListPromise, type ListQuery, type Page, type RequestOptions, type ResponseMeta, type WithResponse } from './answers.js';

type S = components['schemas'];
export type PaymentOrder = S['PaymentOrder'];
export type CreatePaymentOrderRequest = S['CreatePaymentOrderRequest'];
export type Payout = S['Payout'];
export type CreatePayoutRequest = S['CreatePayoutRequest'];
export type PayoutCreated = Omit<S['PayoutCreatedEnvelope'], 'success' | 'request_id'>;
export type Refund = S['Refund'];
export type CreateRefundRequest = S['CreateRefundRequest'];
export type Settlement = S['Settlement'];
export type SettlementLine = S['SettlementLine'];
/** The settlements list's filters (contract §9): created_from/created_to bound `settled_at`; no status. */
export type SettlementListQuery = Omit<ListQuery<never>, 'status'>;
/** A settlement's lines: pages only. */
export type SettlementLineListQuery = Pick<ListQuery<never>, 'limit' | 'cursor'>;
export type PaymentOrderListQuery = ListQuery<PaymentOrder['status']>;
export type PayoutListQuery = ListQuery<Payout['status']>;

export interface TijoriOptions {
  /** The API's base address, with its `/api/v1` prefix, e.g. `https://pay.example.in/api/v1`. */
  baseUrl: string;
  clientId: string;
  /** Server-side only; never ship it to a browser. */
  clientSecret: string;
  /** Retries after the first attempt (default 3); per call: `{ maxRetries }`. */
  maxRetries?: number;
  /** First backoff step in ms (default 500), doubled each retry, with full jitter; Retry-After wins. */
  retryBaseMs?: number;
  /** Per-attempt timeout in ms (default 30 000); per call: `{ timeoutMs }`. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface CreateOptions extends RequestOptions {
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
  options: RequestOptions;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

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

interface Envelope<T> {
  data: T;
  request_id?: string;
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
    create: (body: CreatePaymentOrderRequest, options: CreateOptions = {}): Promise<WithResponse<PaymentOrder>> =>
      this.data<PaymentOrder>({ method: 'POST', path: '/merchant/payment-orders', body, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(), retry: 'idempotent-create', options }),
    /** `ref`: the service UUID or the order_id. */
    get: (ref: string, options: RequestOptions = {}): Promise<WithResponse<PaymentOrder>> =>
      this.data<PaymentOrder>({ method: 'GET', path: `/merchant/payment-orders/${encodeURIComponent(ref)}`, retry: 'read', options }),
    cancel: (ref: string, options: RequestOptions = {}): Promise<WithResponse<PaymentOrder>> =>
      this.data<PaymentOrder>({ method: 'POST', path: `/merchant/payment-orders/${encodeURIComponent(ref)}/cancel`, retry: 'never-processed', options }),
    /**
     * This client's orders, newest first: `await` it for one page, or
     * `for await (const order of tijori.paymentOrders.list({ status: 'PAID' }))` for every order.
     */
    list: (query: PaymentOrderListQuery = {}, options: RequestOptions = {}): ListPromise<PaymentOrder> => this.list<PaymentOrder>('/merchant/payment-orders', query, options),
    /** Every page from `query.cursor` (or the newest) on: `for await (const page of tijori.paymentOrders.pages({ status: 'PAID' }))`. */
    pages: (query: PaymentOrderListQuery = {}, options: RequestOptions = {}): AsyncGenerator<PaymentOrder[]> => this.list<PaymentOrder>('/merchant/payment-orders', query, options).pages(),
  };

  /**
   * Refunds of PAID (or MANUALLY_CONFIRMED) payment orders (contract §6). A refund may wait in
   * PENDING_REVIEW for a reviewer of the merchant's organization; it is done at COMPLETED.
   */
  readonly refunds = {
    /** `orderRef`: the order's UUID or order_id. Without `amount_paise`, what is left to refund. */
    create: (orderRef: string, body: CreateRefundRequest = {}, options: CreateOptions = {}): Promise<WithResponse<Refund>> =>
      this.data<Refund>({
        method: 'POST',
        path: `/merchant/payment-orders/${encodeURIComponent(orderRef)}/refunds`,
        body,
        idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
        retry: 'idempotent-create',
        options,
      }),
    /** The refunds of one payment order, oldest first. */
    list: (orderRef: string, options: RequestOptions = {}): Promise<WithResponse<Refund[]>> =>
      this.data<Refund[]>({ method: 'GET', path: `/merchant/payment-orders/${encodeURIComponent(orderRef)}/refunds`, retry: 'read', options }),
    /** `ref`: the refund's UUID or refund_id. */
    get: (ref: string, options: RequestOptions = {}): Promise<WithResponse<Refund>> =>
      this.data<Refund>({ method: 'GET', path: `/merchant/refunds/${encodeURIComponent(ref)}`, retry: 'read', options }),
  };

  /** Payouts (API §4.3, §4.4) and their list (contract §7). A created payout is submitted, not final: wait for SUCCESS with a UTR. */
  readonly payouts = {
    create: async (body: CreatePayoutRequest, options: CreateOptions = {}): Promise<WithResponse<PayoutCreated>> => {
      const { value: r, meta } = await this.call<S['PayoutCreatedEnvelope']>({ method: 'POST', path: '/merchant/payouts', body, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(), retry: 'idempotent-create', options });
      return withResponse({ data: r.data, approval_required: r.approval_required, message: r.message }, meta);
    },
    /** `ref`: the payout UUID or the transaction_id. */
    get: (ref: string, options: RequestOptions = {}): Promise<WithResponse<Payout>> =>
      this.data<Payout>({ method: 'GET', path: `/merchant/payouts/${encodeURIComponent(ref)}`, retry: 'read', options }),
    /** This client's payouts, newest first: `await` it for one page, or `for await` over it for every payout. */
    list: (query: PayoutListQuery = {}, options: RequestOptions = {}): ListPromise<Payout> => this.list<Payout>('/merchant/payouts', query, options),
    /** Every page from `query.cursor` (or the newest) on. */
    pages: (query: PayoutListQuery = {}, options: RequestOptions = {}): AsyncGenerator<Payout[]> => this.list<Payout>('/merchant/payouts', query, options).pages(),
  };

  /**
   * What each provider settled into the bank, with its fees, taxes and lines (contract §9). Needs
   * the scope `settlements:read` (organization-wide: settlements cover every client's orders).
   */
  readonly settlements = {
    /** Newest first: `await` it for one page, or `for await (const s of tijori.settlements.list())` for every settlement. */
    list: (query: SettlementListQuery = {}, options: RequestOptions = {}): ListPromise<Settlement> => this.list<Settlement>('/merchant/settlements', query, options),
    /** `id`: the settlement_id. */
    get: (id: string, options: RequestOptions = {}): Promise<WithResponse<Settlement>> =>
      this.data<Settlement>({ method: 'GET', path: `/merchant/settlements/${encodeURIComponent(id)}`, retry: 'read', options }),
    /** A settlement's lines: `for await (const line of tijori.settlements.lines(id))` for all of them. */
    lines: (id: string, query: SettlementLineListQuery = {}, options: RequestOptions = {}): ListPromise<SettlementLine> =>
      this.list<SettlementLine>(`/merchant/settlements/${encodeURIComponent(id)}/lines`, query, options),
  };

  private list<T>(path: string, query: ListQuery<string>, options: RequestOptions): ListPromise<T> {
    return new ListPromise<T>(async (cursor) => {
      const { cursor: _first, ...rest } = query;
      const q: ListQuery<string> = cursor === undefined ? rest : { ...rest, cursor };
      const { value: r, meta } = await this.call<{ data: T[]; next_cursor: string | null }>({ method: 'GET', path: `${path}${queryString(q)}`, retry: 'read', options });
      return withResponse({ data: r.data, next_cursor: r.next_cursor }, meta);
    }, query.cursor);
  }

  private async data<T>(c: Call): Promise<WithResponse<T>> {
    const { value, meta } = await this.call<Envelope<T>>(c);
    return withResponse(value.data as T & object, meta) as WithResponse<T>;
  }

  private async call<T>(c: Call): Promise<{ value: T; meta: ResponseMeta }> {
    const headers: Record<string, string> = { ...this.auth, accept: 'application/json' };
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
    const init = { method: c.method, headers, ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }) };
    const maxRetries = c.options.maxRetries ?? this.maxRetries;
    const timeoutMs = c.options.timeoutMs ?? this.timeoutMs;
    const userSignal = c.options.signal;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        userSignal?.throwIfAborted();
        const timeout = AbortSignal.timeout(timeoutMs);
        const signal = userSignal ? AbortSignal.any([userSignal, timeout]) : timeout;
        res = await this.fetchFn(`${this.baseUrl}${c.path}`, { ...init, signal });
        text = await res.text();
      } catch (cause) {
        if (!userSignal?.aborted && attempt < maxRetries && mayRetry(c.retry, null, null)) {
          await sleep(this.backoffMs(attempt, undefined), userSignal);
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
      const attemptRequestId = res.headers.get('x-request-id') ?? '';
      if (res.ok && parsed !== undefined && parsed !== null && typeof parsed === 'object') {
        const bodyId = (parsed as { request_id?: unknown }).request_id;
        const meta: ResponseMeta = {
          requestId: typeof bodyId === 'string' ? bodyId : attemptRequestId,
          attemptRequestId,
          idempotentReplayed: res.headers.get('idempotent-replayed') === 'true',
          status: res.status,
          headers: res.headers,
        };
        return { value: parsed as T, meta };
      }
      const error = (parsed as { error?: { code?: ErrorCode; message?: string; request_id?: string; details?: [] } } | undefined)?.error;
      const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN);
      const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
      if (attempt < maxRetries && mayRetry(c.retry, res.status, error?.code ?? null)) {
        await sleep(this.backoffMs(attempt, retryAfterSeconds), userSignal);
        continue;
      }
      const key = c.idempotencyKey ? { idempotencyKey: c.idempotencyKey } : {};
      if (!error?.code) throw new TijoriConnectionError(`${c.method} ${c.path} answered ${res.status} without the API's JSON`, key);
      throw new TijoriApiError({
        status: res.status,
        code: error.code,
        message: error.message ?? '',
        requestId: error.request_id ?? attemptRequestId,
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
