/**
 * Per-client rate limiting with GCRA (a token bucket that stores one timestamp per key): a client
 * may burst up to its per-minute limit and then gets a steady rate. With REDIS_URL the state is
 * shared by all instances (one Lua call, Redis' own clock); without it each instance limits alone.
 */
import type { Redis } from 'ioredis';

export interface RateDecision {
  allowed: boolean;
  /** Milliseconds until the next request would be allowed (0 when allowed). */
  retryAfterMs: number;
  /** Requests still allowed at once after this one (the RateLimit header's `r`). */
  remaining?: number;
  /** Milliseconds until the whole per-minute quota is available again (its `t`). */
  resetMs?: number;
}

/** What is left of a client's quota, from the theoretical arrival time after this request. */
export function quotaLeft(tatAfter: number, now: number, limitPerMinute: number): { remaining: number; resetMs: number } {
  const interval = PERIOD_MS / limitPerMinute;
  const used = Math.max(tatAfter - now, 0);
  return { remaining: Math.max(Math.floor((PERIOD_MS - used) / interval), 0), resetMs: Math.ceil(used) };
}

export interface RateLimiter {
  take(key: string, limitPerMinute: number): Promise<RateDecision>;
  close(): Promise<void>;
}

const PERIOD_MS = 60_000;

/** Pure GCRA step: returns the decision and the new theoretical arrival time. */
export function gcra(tat: number, now: number, limitPerMinute: number): { decision: RateDecision; newTat: number } {
  const interval = PERIOD_MS / limitPerMinute;
  const base = Math.max(tat, now);
  const newTat = base + interval;
  if (newTat - now > PERIOD_MS) return { decision: { allowed: false, retryAfterMs: Math.ceil(newTat - now - PERIOD_MS), ...quotaLeft(base, now, limitPerMinute) }, newTat: tat };
  return { decision: { allowed: true, retryAfterMs: 0, ...quotaLeft(newTat, now, limitPerMinute) }, newTat };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, limitPerMinute: number): Promise<RateDecision> {
    const now = this.now();
    const { decision, newTat } = gcra(this.tats.get(key) ?? 0, now, limitPerMinute);
    this.tats.set(key, newTat);
    if (this.tats.size > 50_000) this.sweep(now);
    return decision;
  }

  private sweep(now: number): void {
    for (const [k, tat] of this.tats) if (tat < now) this.tats.delete(k);
  }

  async close(): Promise<void> {}
}

const GCRA_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local newTat = tat + interval
if newTat - now > period then
  return {0, math.ceil(newTat - now - period), math.ceil(tat - now)}
end
redis.call('SET', KEYS[1], tostring(newTat), 'PX', math.ceil(newTat - now) + 1000)
return {1, 0, math.ceil(newTat - now)}
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('tijoriGcra', { numberOfKeys: 1, lua: GCRA_LUA });
  }

  async take(key: string, limitPerMinute: number): Promise<RateDecision> {
    const cmd = (this.redis as unknown as { tijoriGcra: (k: string, i: number, p: number) => Promise<[number, number, number?]> }).tijoriGcra;
    const [allowed, retry, used] = await cmd.call(this.redis, `tijori:rl:${key}`, PERIOD_MS / limitPerMinute, PERIOD_MS);
    // `used`: the quota in use after this request, in ms of the period (absent from a script loaded by an older release).
    return { allowed: allowed === 1, retryAfterMs: Number(retry), ...(used === undefined ? {} : quotaLeft(Number(used), 0, limitPerMinute)) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export async function createRateLimiter(redisUrl: string | undefined): Promise<RateLimiter> {
  if (!redisUrl) return new MemoryRateLimiter();
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, connectTimeout: 2_000 });
  await redis.connect();
  return new RedisRateLimiter(redis);
}
