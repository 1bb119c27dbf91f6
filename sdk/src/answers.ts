/**
 * What a call of the client answers: every returned object carries its answer's metadata
 * (`lastResponse`), and a list call answers a `ListPromise` (one page when awaited, every item
 * when iterated). Apart from client.ts, which makes the calls, so that each stays a small room.
 */

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

/** One page of a list, newest first; `next_cursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * What one successful answer said about itself, on every object a call returns as the
 * non-enumerable `lastResponse` (so it never ends up in JSON.stringify or deepEqual).
 */
export interface ResponseMeta {
  /**
   * The answer's `request_id` (API §7). After an idempotent replay it is the request_id of the
   * first create, the one that made the resource: quote it to support.
   */
  requestId: string;
  /** `X-Request-Id` of this very exchange (differs from `requestId` only on a replay). */
  attemptRequestId: string;
  /** True when the service answered a repeated Idempotency-Key with the first create's answer (`Idempotent-Replayed: true`). */
  idempotentReplayed: boolean;
  status: number;
  headers: Headers;
}

/** A returned object with its answer's metadata. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

/** Per call: what the constructor sets for every call, for this call only. */
export interface RequestOptions {
  /** Per-attempt timeout in ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Aborts the call (no further retry). */
  signal?: AbortSignal;
}

export function withResponse<T extends object>(value: T, meta: ResponseMeta): WithResponse<T> {
  Object.defineProperty(value, 'lastResponse', { value: meta, enumerable: false, configurable: true });
  return value as WithResponse<T>;
}

/**
 * The answer of a list call: await it for one page, or iterate it for every item of every page
 * from there on (`for await (const order of tijori.paymentOrders.list({ status: 'PAID' }))`).
 * Nothing is fetched until it is awaited or iterated.
 */
export class ListPromise<T> implements Promise<WithResponse<Page<T>>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = 'ListPromise';
  private first: Promise<WithResponse<Page<T>>> | undefined;

  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<WithResponse<Page<T>>>,
    private readonly cursor: string | undefined,
  ) {}

  private page(): Promise<WithResponse<Page<T>>> {
    this.first ??= this.fetchPage(this.cursor);
    return this.first;
  }

  then<A = WithResponse<Page<T>>, B = never>(
    onFulfilled?: ((value: WithResponse<Page<T>>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<WithResponse<Page<T>> | B> {
    return this.page().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<WithResponse<Page<T>>> {
    return this.page().finally(onFinally);
  }

  /** Every page, as arrays. */
  async *pages(): AsyncGenerator<T[]> {
    let page = await this.page();
    for (;;) {
      yield page.data;
      if (page.next_cursor === null) return;
      page = await this.fetchPage(page.next_cursor);
    }
  }

  /** Every item of every page; keyset pages skip and repeat nothing while rows are added (contract §7). */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const items of this.pages()) yield* items;
  }

  /** Up to `max` items from every page (fetches only the pages it needs). */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    const out: T[] = [];
    if (max <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}

export function queryString(q: ListQuery<string>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) {
    if (value === undefined) continue;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
