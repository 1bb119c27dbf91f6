/**
 * One HTTP exchange of the sandbox with the service's callback intake (the adapter has its own
 * copy for its calls to the sandbox, src/providers/http.ts: the two sides share no code,
 * as with any provider): bounded by `timeoutMs` from start to the last byte of the body, which
 * is always read whole.
 * undici's `request` rather than `fetch`: the same keep-alive connection pool without the WHATWG
 * Request/Response/stream layers, which cost more CPU than the exchange itself on this path
 * (one per INTENT create, payout submission and provider callback; docs/performance.md).
 */
import { request } from 'undici';

export interface HttpAnswer {
  status: number;
  /** 2xx */
  ok: boolean;
  text: string;
}

export interface HttpExchange {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Aborts the exchange early (shutdown). */
  signal?: AbortSignal;
}

/** Rejects with a TimeoutError after `timeoutMs`, or with the transport's error. */
export async function exchange(url: string, o: HttpExchange): Promise<HttpAnswer> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const res = await request(url, {
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
  });
  const text = await res.body.text();
  return { status: res.statusCode, ok: res.statusCode >= 200 && res.statusCode < 300, text };
}
