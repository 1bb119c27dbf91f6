import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gcra, MemoryRateLimiter, RedisRateLimiter } from './rate-limiter.js';

test('gcra allows a burst of the per-minute limit, then paces requests', () => {
  let tat = 0;
  const now = 1_000_000;
  let allowed = 0;
  for (let i = 0; i < 70; i++) {
    const r = gcra(tat, now, 60);
    tat = r.newTat;
    if (r.decision.allowed) allowed++;
  }
  assert.equal(allowed, 60);
  const denied = gcra(tat, now, 60);
  assert.equal(denied.decision.allowed, false);
  assert.ok(denied.decision.retryAfterMs > 0 && denied.decision.retryAfterMs <= 1000);
  // one interval (1 s at 60/min) later, exactly one more is allowed
  assert.equal(gcra(tat, now + 1000, 60).decision.allowed, true);
});

test('gcra tells what is left: remaining requests and the time until the quota is whole again', () => {
  let tat = 0;
  const now = 1_000_000;
  const left: number[] = [];
  for (let i = 0; i < 4; i++) {
    const r = gcra(tat, now, 3);
    tat = r.newTat;
    left.push(r.decision.remaining!);
    if (i < 3) assert.equal(r.decision.resetMs, (i + 1) * 20_000);
  }
  assert.deepEqual(left, [2, 1, 0, 0]);
});

test('memory limiter keeps clients apart', async () => {
  let now = 0;
  const rl = new MemoryRateLimiter(() => now);
  for (let i = 0; i < 3; i++) assert.equal((await rl.take('a', 3)).allowed, true);
  assert.equal((await rl.take('a', 3)).allowed, false);
  assert.equal((await rl.take('b', 3)).allowed, true);
  now += 20_000; // 3/min = one every 20 s
  assert.equal((await rl.take('a', 3)).allowed, true);
});

test('redis limiter is shared by two instances', { skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL not set' }, async () => {
  const { Redis } = await import('ioredis');
  const a = new RedisRateLimiter(new Redis(process.env.TEST_REDIS_URL as string));
  const b = new RedisRateLimiter(new Redis(process.env.TEST_REDIS_URL as string));
  const key = `test-${Math.random()}`;
  try {
    let allowed = 0;
    const remaining: Array<number | undefined> = [];
    for (let i = 0; i < 10; i++) {
      const r = await (i % 2 ? a : b).take(key, 6);
      remaining.push(r.remaining);
      if (r.allowed) allowed++;
    }
    assert.equal(allowed, 6);
    // What the RateLimit header tells (contract §11), from Redis' own clock: 5, 4, … 0 left, then 0.
    assert.deepEqual(remaining.slice(0, 7), [5, 4, 3, 2, 1, 0, 0]);
    const d = await a.take(key, 6);
    assert.equal(d.allowed, false);
    assert.ok(d.retryAfterMs > 0);
    assert.ok(d.resetMs! > 50_000 && d.resetMs! <= 60_000, String(d.resetMs));
  } finally {
    await a.close();
    await b.close();
  }
});
