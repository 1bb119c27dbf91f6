/**
 * HTTP to one Cashfree PG account: the auth and version headers on every call
 * (`x-client-id`, `x-client-secret`, `x-api-version`), `x-idempotency-key` on writes, a bound on
 * every exchange, and Cashfree's rate limit respected: after a 429 no call is made to that account
 * until `x-ratelimit-retry` seconds have passed (the answer is "retry later", never a guess).
 */
import { request } from 'undici';
import type { CashfreeConfig } from '../accounts/config.js';
import { decoded } from '../decode.js';
import { ProviderError } from '../provider.js';
import { CashfreeError } from './schemas.js';

export interface CashfreeAnswer {
  status: number;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  text: string;
}

export class CashfreeRateLimited extends ProviderError {
  constructor(readonly retryAfterMs: number) {
    super(`cashfree rate limit reached; retry in ${Math.ceil(retryAfterMs / 1000)} s`, false);
    this.name = 'CashfreeRateLimited';
  }
}

/** Seconds from `x-ratelimit-retry` (or Retry-After); 60 s when neither says (the limits are per minute). */
function retryAfterMs(headers: Record<string, string | string[] | undefined>): number {
  for (const name of ['x-ratelimit-retry', 'retry-after']) {
    const v = headers[name];
    const s = Array.isArray(v) ? v[0] : v;
    if (s && /^[0-9]{1,5}$/.test(s.trim())) return Math.max(1, Number(s.trim())) * 1000;
  }
  return 60_000;
}

export class CashfreeClient {
  private blockedUntil = 0;

  constructor(
    private readonly cfg: CashfreeConfig,
    private readonly timeoutMs: number,
    private readonly onRateLimited: () => void,
    /** The service's clock: a test moves it past the window instead of sleeping through it. */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * One call. Throws ProviderError: a timeout or transport error is `uncertain` (Cashfree may have
   * acted), a 429 is CashfreeRateLimited (it did not). Any other status is returned to the caller.
   */
  async call(method: 'GET' | 'POST', path: string, o: { body?: string; idempotencyKey?: string; timeoutMs?: number; auth?: boolean } = {}): Promise<CashfreeAnswer> {
    const now = this.now();
    if (now < this.blockedUntil) throw new CashfreeRateLimited(this.blockedUntil - now);
    const headers: Record<string, string> = { 'x-api-version': this.cfg.api_version, accept: 'application/json' };
    if (o.auth !== false) {
      headers['x-client-id'] = this.cfg.client_id;
      headers['x-client-secret'] = this.cfg.client_secret;
    }
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    if (o.idempotencyKey) headers['x-idempotency-key'] = o.idempotencyKey;
    let status: number;
    let text: string;
    let resHeaders: Record<string, string | string[] | undefined>;
    try {
      const res = await request(`${this.cfg.base_url}${path}`, { method, headers, body: o.body, signal: AbortSignal.timeout(o.timeoutMs ?? this.timeoutMs) });
      text = await res.body.text();
      status = res.statusCode;
      resHeaders = res.headers;
    } catch (err) {
      throw new ProviderError(`cashfree ${method} ${path}: ${(err as Error).message}`, true);
    }
    if (status === 429) {
      const wait = retryAfterMs(resHeaders);
      this.blockedUntil = this.now() + wait;
      this.onRateLimited();
      throw new CashfreeRateLimited(wait);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, json, text };
  }
}

/** Cashfree's error shape `{message, code, type}`, as one line for logs and reasons. */
export function cashfreeErrorText(a: CashfreeAnswer): string {
  const e = decoded(CashfreeError, a.json);
  if (e) return `HTTP ${a.status} ${String(e.type ?? '')}/${String(e.code ?? '')}: ${String(e.message ?? '')}`.slice(0, 300);
  return `HTTP ${a.status}: ${a.text.slice(0, 200)}`;
}
