/**
 * Abuse before authentication (issue 16 item 7): failed authentications and checkout traffic are
 * limited per source address (TRUST_PROXY honoured), an address over its failed-authentication
 * limit is refused before any client look-up, a scope failure counts against the client's own
 * limit, and the client cache keeps a client in use while thousands of unknown ids are tried.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { sourceKey } from '../../src/security/source-limits.js';
import { type ClientLookupSource, ClientsService } from '../../src/services/shared/clients.js';
import { realClock } from '../../src/clock.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

/** A fresh address per call, so runs sharing one Redis never meet each other's counters. */
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function databaseLookups(ts: TestService): Promise<number> {
  const text = await (await fetch(`${ts.svc.internalUrl}/metrics`)).text();
  const m = /tijori_client_lookups_total\{source="database"\} (\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

const variants: Array<[string, Record<string, string> | null]> = [
  ['per instance', {}],
  ['shared through Redis', process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : null],
];

for (const [name, env] of variants) {
  describe(`failed authentication per source address (${name})`, { skip: env === null ? 'TEST_REDIS_URL not set' : false }, () => {
    let ts: TestService;
    let client: TestClient;
    before(async () => {
      ts = await startTestService({ TRUST_PROXY: '127.0.0.1', ...env });
      client = await ts.createClient({ rateLimit: 1_000_000 });
    });
    after(() => ts?.stop());

    const get = (from: string, c?: TestClient, headers: Record<string, string> = {}) =>
      ts.api('GET', `/merchant/payment-orders/${randomUUID()}`, { client: c, headers: { 'x-forwarded-for': from, ...headers } });

    test('the 31st failed authentication in a minute → 429 with Retry-After; others and valid clients elsewhere unaffected', async () => {
      const attacker = address();
      const wrong = { 'x-service-client-id': `cl_${randomUUID()}`, authorization: 'Bearer nope' };
      const started = Date.now();
      const first = await Promise.all(Array.from({ length: 30 }, () => get(attacker, undefined, wrong)));
      assert.deepEqual(first.map((r) => r.status), Array(30).fill(401));
      // GCRA refills one failure every 2 s (30 a minute): on a slow machine a refill may let one
      // more through before the refusal; on a quick one the 31st is refused.
      let over = await get(attacker, undefined, wrong);
      let extra = 0;
      while (over.status === 401 && extra < 5) {
        extra++;
        over = await get(attacker, undefined, wrong);
      }
      assert.ok(extra <= Math.floor((Date.now() - started) / 2_000), `${extra} failures past 30 in ${Date.now() - started} ms`);
      assert.equal(over.status, 429, over.text);
      assert.equal(over.body.error.code, 'RATE_LIMITED');
      assert.equal(typeof over.body.request_id, 'string');
      assert.equal(over.body.error.request_id, over.body.request_id);
      const retryAfter = Number(over.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);

      // Once over, the address is refused before any look-up, even with valid credentials.
      const lookupsBefore = await databaseLookups(ts);
      for (let i = 0; i < 5; i++) {
        const r = await get(attacker, undefined, { 'x-service-client-id': `cl_${randomUUID()}`, authorization: 'Bearer nope' });
        assert.equal(r.status, 429);
      }
      assert.equal((await get(attacker, client)).status, 429);
      assert.equal(await databaseLookups(ts), lookupsBefore, 'no client look-up for a refused address');

      // Another address failing is still told 401; a valid client elsewhere is served.
      assert.equal((await get(address(), undefined, wrong)).status, 401);
      const ok = await get(address(), client);
      assert.equal(ok.status, 404, ok.text); // authenticated: the random order does not exist
      assert.equal(ok.body.error.code, 'NOT_FOUND');
    });

    test('without TRUST_PROXY a forged X-Forwarded-For does not pick a fresh address', async () => {
      const strict = await startTestService({ ...env, AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const r = await strict.api('GET', `/merchant/payment-orders/${randomUUID()}`, { headers: { 'x-forwarded-for': address() } });
          statuses.push(r.status);
        }
        assert.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
        assert.deepEqual(statuses.slice(3), [429, 429]);
      } finally {
        await strict.stop();
      }
    });
  });
}

test('a failed scope check counts against the client limit (429 past it, not an endless 403)', async () => {
  const ts = await startTestService();
  try {
    const c = await ts.createClient({ scopes: ['payouts:read'], rateLimit: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ts.api('GET', `/merchant/payment-orders/${randomUUID()}`, { client: c })).status);
    assert.deepEqual(statuses, [403, 403, 403, 429, 429]);
  } finally {
    await ts.stop();
  }
});

describe('checkout traffic per source address', () => {
  let ts: TestService;
  let token: string;
  before(async () => {
    ts = await startTestService({ TRUST_PROXY: '127.0.0.1', CHECKOUT_RATE_LIMIT_PER_MINUTE: '20' });
    const client = await ts.createClient({});
    const o = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000, purpose: 'limit' } });
    token = String(o.body.data.checkout_url).split('/checkout/')[1]!;
  });
  after(() => ts?.stop());

  test('the default is generous: 600 a minute, a poll every 0.1 s', () => {
    assert.equal(loadConfig({ DATA_DIR: '/tmp/tijori-config-probe' }).checkoutRateLimitPerMinute, 600);
    assert.equal(loadConfig({ DATA_DIR: '/tmp/tijori-config-probe' }).authFailureLimitPerMinute, 30);
  });

  test('past the limit, any /checkout/* request → 429 RATE_LIMITED with Retry-After; another address is served', async () => {
    const payer = address();
    const paths = [`/checkout/${token}`, `/checkout/${token}/status`, '/checkout/assets/checkout.css', `/checkout/${'x'.repeat(20)}/status`];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${ts.svc.publicUrl}${paths[i % paths.length]}`, { headers: { 'x-forwarded-for': payer } });
      assert.ok(res.status !== 429, `request ${i + 1} → 429`);
      await res.arrayBuffer();
    }
    const over = await fetch(`${ts.svc.publicUrl}/checkout/${token}/status`, { headers: { 'x-forwarded-for': payer } });
    const body = (await over.json()) as any;
    assert.equal(over.status, 429);
    assert.equal(body.error.code, 'RATE_LIMITED');
    assert.equal(body.request_id, over.headers.get('x-request-id'));
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    const other = await fetch(`${ts.svc.publicUrl}/checkout/${token}/status`, { headers: { 'x-forwarded-for': address() } });
    assert.equal(other.status, 200);
  });
});

test('IPv6 sources are limited by their /64', () => {
  assert.equal(sourceKey('2001:db8:1:2:aaaa::1'), sourceKey('2001:db8:1:2:ffff:1:2:3'));
  assert.notEqual(sourceKey('2001:db8:1:2::1'), sourceKey('2001:db8:1:3::1'));
  assert.equal(sourceKey('::ffff:10.1.2.3'), '10.1.2.3');
});

test('the client cache keeps a client in use while 20,000 unknown ids are tried; one unknown id costs one look-up', { timeout: 300_000 }, async () => {
  const ts = await startTestService();
  try {
    const hot = await ts.createClient({});
    const counts: Record<ClientLookupSource, number> = { cache: 0, unknown_cache: 0, database: 0 };
    const now = 1_000_000; // a frozen clock: only eviction can make the hot client leave the cache
    const clients = new ClientsService(ts.database.db, { clock: { ...realClock, now: () => now }, onLookup: (s) => counts[s]++ });
    const authHot = () => clients.authenticate(hot.clientId, `Bearer ${hot.secret}`, '127.0.0.1');
    await authHot();
    assert.deepEqual(counts, { cache: 0, unknown_cache: 0, database: 1 });
    let hotAuths = 1;
    for (let batch = 0; batch < 1_000; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, () => clients.authenticate(`cl_${randomUUID()}`, 'Bearer x', '127.0.0.1').then(
          () => assert.fail('an unknown id authenticated'),
          (err: { code?: string }) => assert.equal(err.code, 'API_AUTH_FAILED'),
        )),
      );
      await authHot();
      hotAuths++;
    }
    assert.equal(counts.database, 1 + 20_000, 'each unknown id once, the hot client only the first time');
    assert.equal(counts.cache, hotAuths - 1);
    // A spray of one unknown id: one look-up.
    const unknownId = `cl_${randomUUID()}`;
    for (let i = 0; i < 100; i++) await clients.authenticate(unknownId, 'Bearer x', '127.0.0.1').catch(() => undefined);
    assert.equal(counts.database, 1 + 20_000 + 1);
    assert.equal(counts.unknown_cache, 99);
  } finally {
    await ts.stop();
  }
});
