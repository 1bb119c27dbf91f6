/**
 * Limits per source address, for traffic no client limit covers (docs/operations.md, "Abuse
 * limits"): failed authentications on the merchant API, and the hosted checkout, whose requests
 * carry no credentials at all. Both use the GCRA limiter of rate-limiter.ts (shared through Redis
 * when REDIS_URL is set). The source address is Fastify's `request.ip`, which follows TRUST_PROXY.
 *
 * An address over its failed-authentication limit is also remembered here, per instance, until its
 * Retry-After has passed: its next requests are refused before any credential is looked up, so a
 * spray of guesses costs neither a database look-up nor a call to Redis.
 */
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { AppError } from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import type { RateDecision, RateLimiter } from './rate-limiter.js';

/**
 * The key of an address: IPv4 as is, IPv6 by its /64 (one subscriber's network is a /64, and
 * every address in it is theirs to use).
 */
export function sourceKey(ip: string): string {
  const trimmed = ip.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed;
  const addr = ipaddr.process(trimmed);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

export function rateLimitedError(decision: RateDecision, message: string): AppError {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return new AppError('RATE_LIMITED', `${message} Retry after ${seconds} s.`, { headers: { 'retry-after': String(seconds) } });
}

export interface SourceLimitSettings {
  authFailuresPerMinute: number;
  checkoutPerMinute: number;
}

export class SourceLimits {
  /** Addresses refused until the time held (ms), per instance. */
  private readonly blockedUntil = new LRUCache<string, number>({ max: 50_000 });

  constructor(
    private readonly limiter: RateLimiter,
    readonly settings: SourceLimitSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A refusal for an address over its failed-authentication limit, or null. Costs no I/O. */
  refusedBeforeAuthentication(ip: string): AppError | null {
    // Nearly always nobody is blocked: then the address is not even parsed (every merchant request
    // passes here; ipaddr.js's parse was ~1 % of a payout's service CPU).
    if (this.blockedUntil.size === 0) return null;
    const key = sourceKey(ip);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return null;
    const left = until - this.now();
    if (left <= 0) {
      this.blockedUntil.delete(key);
      return null;
    }
    return this.authError({ allowed: false, retryAfterMs: left });
  }

  /**
   * Counts one failed authentication of the address; returns the 429 to answer instead of the
   * failure when the address is over its limit (and remembers it), else null.
   */
  async authenticationFailed(ip: string): Promise<AppError | null> {
    const key = sourceKey(ip);
    const decision = await this.take(`auth-fail:${key}`, this.settings.authFailuresPerMinute);
    if (decision.allowed) return null;
    this.blockedUntil.set(key, this.now() + decision.retryAfterMs);
    return this.authError(decision);
  }

  /** Counts one checkout request of the address; the 429 to answer when over the limit, else null. */
  async checkoutRequest(ip: string): Promise<AppError | null> {
    const decision = await this.take(`checkout:${sourceKey(ip)}`, this.settings.checkoutPerMinute);
    if (decision.allowed) return null;
    return rateLimitedError(decision, `Too many checkout requests from this address (limit ${this.settings.checkoutPerMinute} per minute).`);
  }

  private authError(decision: RateDecision): AppError {
    return rateLimitedError(decision, `Too many failed authentications from this address (limit ${this.settings.authFailuresPerMinute} per minute).`);
  }

  private async take(key: string, limitPerMinute: number): Promise<RateDecision> {
    try {
      return await this.limiter.take(key, limitPerMinute);
    } catch (err) {
      // As for the client limit: a limiter outage must not take payments down with it.
      this.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
      return { allowed: true, retryAfterMs: 0 };
    }
  }
}
