import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { MemoryReplayStore, verifyCallback, verifyNodeRequest } from './verifier.js';
import type { ReplayStore, VerifyResult } from './verifier.js';
import { callbackHeaders, signCallback } from '../src/callbacks/signature.js';
import { VERIFIER_CASES } from './verifier-cases.js';

// Vector computed independently with openssl (see signature.test.ts).
const SECRET = 'whsec_test_123';
const TS = 1700000000;
const EVENT_ID = '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b';
const BODY = `{"event":"payout.success","event_id":"${EVENT_ID}"}`;
const SIG = 'v1=c5668b4ccda48eff82433f4f8ff0dbc16e3acd31c1f8ea606b08402af9d321cd';

function headers(over: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    'x-service-event-id': EVENT_ID,
    'x-service-timestamp': String(TS),
    'x-service-signature': SIG,
    'content-type': 'application/json',
    ...over,
  };
}

function reasonOf(r: VerifyResult): string {
  return r.ok ? 'ok' : r.reason;
}

const verify = (over: Partial<Parameters<typeof verifyCallback>[0]> = {}) =>
  verifyCallback({ rawBody: BODY, headers: headers(), secret: SECRET, nowSeconds: TS, ...over });

test('valid vector verifies and returns the parsed event', async () => {
  const r = await verify();
  assert.ok(r.ok);
  assert.equal(r.eventId, EVENT_ID);
  assert.equal(r.timestamp, TS);
  assert.deepEqual(r.event, { event: 'payout.success', event_id: EVENT_ID });
});

test('header names are case-insensitive; Fetch Headers work too', async () => {
  const mixed = { 'X-SERVICE-EVENT-ID': EVENT_ID, 'X-Service-Timestamp': String(TS), 'x-service-SIGNATURE': SIG };
  assert.equal(reasonOf(await verify({ headers: mixed })), 'ok');
  assert.equal(reasonOf(await verify({ headers: new Headers(mixed) })), 'ok');
});

test('missing or duplicated headers', async () => {
  for (const name of ['x-service-event-id', 'x-service-timestamp', 'x-service-signature']) {
    assert.equal(reasonOf(await verify({ headers: headers({ [name]: undefined }) })), 'missing_header', name);
    assert.equal(reasonOf(await verify({ headers: headers({ [name]: '' }) })), 'missing_header', name);
  }
  const dup = { ...headers(), 'x-service-signature': [SIG, SIG] };
  assert.equal(reasonOf(await verify({ headers: dup })), 'missing_header');
});

test('tampering and wrong secrets are rejected', async () => {
  const cases: Array<[string, Partial<Parameters<typeof verifyCallback>[0]>]> = [
    ['tampered body', { rawBody: BODY.replace('success', 'failed') }],
    ['body re-serialized with other whitespace', { rawBody: JSON.stringify(JSON.parse(BODY), null, 1) }],
    ['tampered signature', { headers: headers({ 'x-service-signature': SIG.slice(0, -1) + 'e' }) }],
    ['uppercase hex (only the exact lowercase form is accepted)', { headers: headers({ 'x-service-signature': 'v1=' + SIG.slice(3).toUpperCase() }) }],
    ['missing v1= prefix', { headers: headers({ 'x-service-signature': SIG.slice(3) }) }],
    ['truncated signature (different length)', { headers: headers({ 'x-service-signature': SIG.slice(0, 20) }) }],
    ['longer signature', { headers: headers({ 'x-service-signature': SIG + '00' }) }],
    ['non-ASCII signature', { headers: headers({ 'x-service-signature': 'v1=₹' }) }],
    ['wrong secret', { secret: 'whsec_test_124' }],
    ['empty secret list', { secret: [] }],
    ['empty secret', { secret: '' }],
    ['timestamp changed (signature covers it)', { headers: headers({ 'x-service-timestamp': String(TS + 1) }), nowSeconds: TS }],
  ];
  for (const [name, over] of cases) assert.equal(reasonOf(await verify(over)), 'bad_signature', name);
});

test('timestamps that are not all digits are bad_timestamp', async () => {
  for (const ts of ['12a', '-1', '+1700000000', ' 1700000000', '1700000000 ', '1.7e9', '1700000000.0', '0x65', '1234567890123456']) {
    assert.equal(reasonOf(await verify({ headers: headers({ 'x-service-timestamp': ts }) })), 'bad_timestamp', ts);
  }
});

test('tolerance: 300 s either way is accepted, 301 s is not', async () => {
  const at = (nowSeconds: number) => verify({ nowSeconds });
  assert.equal(reasonOf(await at(TS + 300)), 'ok');
  assert.equal(reasonOf(await at(TS - 300)), 'ok');
  assert.equal(reasonOf(await at(TS + 301)), 'timestamp_out_of_tolerance'); // delivery 301 s old
  assert.equal(reasonOf(await at(TS - 301)), 'timestamp_out_of_tolerance'); // delivery 301 s in the future
  assert.equal(reasonOf(await verify({ nowSeconds: TS + 30, toleranceSeconds: 10 })), 'timestamp_out_of_tolerance');
});

test('rotation: any of several secrets may match', async () => {
  assert.equal(reasonOf(await verify({ secret: ['new-secret', SECRET] })), 'ok');
  assert.equal(reasonOf(await verify({ secret: [SECRET, 'old-secret'] })), 'ok');
  assert.equal(reasonOf(await verify({ secret: ['a', 'b'] })), 'bad_signature');
});

test('a signed body that is not a JSON object is bad_json', async () => {
  for (const body of ['not json', '[1,2]', 'null', '"x"', '']) {
    const h = callbackHeaders({ eventId: 'e1', secret: SECRET, rawBody: body, nowSeconds: TS });
    assert.equal(reasonOf(await verify({ rawBody: body, headers: h })), 'bad_json', body);
  }
});

test('X-Service-Event-Id must match the signed event_id', async () => {
  assert.equal(reasonOf(await verify({ headers: headers({ 'x-service-event-id': 'other-id' }) })), 'event_id_mismatch');
  // A body without event_id has nothing to compare against.
  const body = '{"event":"x"}';
  const h = callbackHeaders({ eventId: 'any', secret: SECRET, rawBody: body, nowSeconds: TS });
  assert.equal(reasonOf(await verify({ rawBody: body, headers: h })), 'ok');
});

test('replay: the second delivery of an event id is rejected; failures are not remembered', async () => {
  const replayStore = new MemoryReplayStore({ nowSeconds: () => TS });
  assert.equal(reasonOf(await verify({ replayStore, secret: 'wrong' })), 'bad_signature');
  assert.equal(replayStore.size, 0, 'an unverified delivery must not burn the event id');
  assert.equal(reasonOf(await verify({ replayStore })), 'ok');
  assert.equal(reasonOf(await verify({ replayStore })), 'replayed');
  // Even re-signed with a fresh timestamp (a retry), the id is still known within the window.
  const h = callbackHeaders({ eventId: EVENT_ID, secret: SECRET, rawBody: BODY, nowSeconds: TS + 60 });
  assert.equal(reasonOf(await verify({ replayStore, headers: h, nowSeconds: TS + 60 })), 'replayed');
});

test('two concurrent copies of one delivery: exactly one passes', async () => {
  const replayStore = new MemoryReplayStore({ nowSeconds: () => TS });
  const results = await Promise.all([verify({ replayStore }), verify({ replayStore }), verify({ replayStore })]);
  assert.deepEqual(results.map(reasonOf).sort(), ['ok', 'replayed', 'replayed']);
});

test('MemoryReplayStore forgets ids once they expire', () => {
  let now = 1000;
  const store = new MemoryReplayStore({ nowSeconds: () => now });
  store.remember('a', 1010);
  store.remember('b', 2000);
  assert.equal(store.seen('a'), true);
  now = 1010;
  assert.equal(store.seen('a'), false);
  now = 1011;
  store.remember('c', 3000); // sweeps expired entries
  assert.equal(store.size, 2);
  assert.equal(store.seen('b'), true);
});

test('the remembered expiry outlives the tolerance window', async () => {
  const calls: Array<[string, number]> = [];
  const store: ReplayStore = {
    seen: async () => false,
    remember: async (id, exp) => {
      calls.push([id, exp]);
    },
  };
  assert.equal(reasonOf(await verify({ replayStore: store, nowSeconds: TS - 100 })), 'ok');
  assert.deepEqual(calls, [[EVENT_ID, TS + 301]]);
});

test('an asynchronous replay store is honoured', async () => {
  const ids = new Set<string>();
  const store: ReplayStore = {
    seen: async (id) => ids.has(id),
    remember: async (id) => {
      ids.add(id);
    },
  };
  assert.equal(reasonOf(await verify({ replayStore: store })), 'ok');
  assert.equal(reasonOf(await verify({ replayStore: store })), 'replayed');
});

test('property: sign then verify is ok; any single-byte change to the body fails', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.uint8Array({ minLength: 1, maxLength: 300 }),
      fc.integer({ min: 0, max: 4_000_000_000 }),
      fc.nat(),
      fc.integer({ min: 1, max: 255 }),
      async (secret, bytes, ts, posSeed, delta) => {
        const body = Buffer.from(bytes);
        const h = {
          'X-Service-Event-Id': 'evt',
          'X-Service-Timestamp': String(ts),
          'X-Service-Signature': signCallback({ secret, timestamp: ts, rawBody: body }),
        };
        // The JSON step comes after the signature: judge the signature alone by what is returned.
        const good = await verifyCallback({ rawBody: body, headers: h, secret, nowSeconds: ts });
        assert.notEqual(reasonOf(good), 'bad_signature');
        const changed = Buffer.from(body);
        const pos = posSeed % changed.length;
        changed[pos] = (changed[pos]! + delta) & 0xff;
        const bad = await verifyCallback({ rawBody: changed, headers: h, secret, nowSeconds: ts });
        assert.equal(reasonOf(bad), 'bad_signature');
      },
    ),
    { numRuns: 300 },
  );
});

test('property: a JSON event signed by callbackHeaders always verifies', async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue(), fc.uuid(), fc.string({ minLength: 1 }), async (data, eventId, secret) => {
      const rawBody = JSON.stringify({ event: 'collection.received', event_id: eventId, data });
      const h = callbackHeaders({ eventId, secret, rawBody, nowSeconds: TS });
      assert.equal(reasonOf(await verifyCallback({ rawBody, headers: h, secret, nowSeconds: TS })), 'ok');
    }),
    { numRuns: 200 },
  );
});

test('verifyNodeRequest reads the raw body and suggests the status to answer', async (t) => {
  const replayStore = new MemoryReplayStore();
  const seen: string[] = [];
  const server = createServer((req, res) => {
    void verifyNodeRequest(req, ['rotated-out', SECRET], { replayStore, maxBodyBytes: 1024 }).then((r) => {
      seen.push(reasonOf(r));
      res.statusCode = r.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  const body = `{"event":"collection.received","event_id":"e-1","data":{"name":"राम"}}`;
  const post = (h: Record<string, string>, b: string = body) => fetch(url, { method: 'POST', headers: h, body: b });

  const fresh = callbackHeaders({ eventId: 'e-1', secret: SECRET, rawBody: body });
  assert.equal((await post(fresh)).status, 200);
  assert.equal((await post(fresh)).status, 200, 'a replay is acknowledged so the sender stops retrying');
  assert.equal((await post({ ...fresh, 'X-Service-Signature': 'v1=00' })).status, 401);
  assert.equal((await post(fresh, body.replace('राम', 'रामा'))).status, 401);
  const big = JSON.stringify({ event_id: 'e-2', pad: 'x'.repeat(2000) });
  assert.equal((await post(callbackHeaders({ eventId: 'e-2', secret: SECRET, rawBody: big }), big)).status, 413);
  assert.deepEqual(seen, ['ok', 'replayed', 'bad_signature', 'bad_signature', 'body_too_large']);
});

test('the shared table of cases (examples/verifier-cases.ts; the SDK runs it too)', async () => {
  for (const c of VERIFIER_CASES) {
    const r = await verifyCallback({ rawBody: c.rawBody, headers: c.headers, secret: c.secret, nowSeconds: c.nowSeconds });
    assert.equal(r.ok ? 'ok' : r.reason, c.expect, c.name);
  }
});
