/**
 * Envelope, errors, authentication, scopes, IP allow list, TRUST_PROXY and rate limiting, through a
 * probe route wired exactly like a merchant route, on the real service and database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createBaseApp } from '../../src/http/base-app.js';
import { okEnvelope } from '../../src/http/plugins/envelope.js';
import { financialCreateChecks } from '../../src/http/plugins/idempotency.js';
import { merchantRoute, principalOf } from '../../src/http/plugins/merchant-auth.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let probe: FastifyInstance;
let client: TestClient;

const UUID_RE = /^[0-9a-f-]{36}$/;

async function buildProbe(s: TestService): Promise<FastifyInstance> {
  const app = createBaseApp(s.svc.ctx, 'public');
  app.get('/probe', merchantRoute(s.svc.ctx, 'payouts:read'), async (req) => okEnvelope(req, { client: principalOf(req).clientId }));
  app.post(
    '/probe',
    {
      ...merchantRoute(s.svc.ctx, 'payouts:write'),
      preValidation: financialCreateChecks,
      schema: { body: { type: 'object', additionalProperties: false, properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] } },
    },
    async (req) => okEnvelope(req, req.body),
  );
  app.get('/boom', async () => {
    throw new Error('secret internal detail at /srv/db password=hunter2');
  });
  await app.ready();
  return app;
}

function headers(c: TestClient, extra: Record<string, string> = {}) {
  return { 'x-service-client-id': c.clientId, authorization: `Bearer ${c.secret}`, ...extra };
}

before(async () => {
  ts = await startTestService();
  probe = await buildProbe(ts);
  client = await ts.createClient({ scopes: ['payouts:read', 'payouts:write'] });
});
after(async () => {
  await probe.close();
  await ts.stop();
});

describe('envelope on every answer', () => {
  test('unknown path: 404 NOT_FOUND with request_id in body and header', async () => {
    const r = await ts.api('GET', '/no/such/path');
    assert.equal(r.status, 404);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, 'NOT_FOUND');
    assert.match(r.body.request_id, UUID_RE);
    assert.equal(r.body.error.request_id, r.body.request_id);
    assert.equal(r.headers.get('x-request-id'), r.body.request_id);
  });

  test('415 for non-JSON bodies, 413 over 64 KiB, 400 INVALID_JSON for broken or non-object JSON', async () => {
    const r415 = await ts.api('POST', '/no/such', { rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(r415.status, 415);
    assert.equal(r415.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    const big = await ts.api('POST', '/no/such', { rawBody: JSON.stringify({ x: 'a'.repeat(70_000) }) });
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.match(big.body.request_id, UUID_RE);
    for (const raw of ['{"a":', '[1,2]', '"str"', '42', '{"__proto__":{"x":1}}']) {
      const r = await probe.inject({ method: 'POST', url: '/probe', headers: headers(client, { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }), payload: raw });
      assert.equal(r.statusCode, 400, raw);
      assert.equal(r.json().error.code, 'INVALID_JSON', raw);
    }
  });

  test('500 carries no internal detail and is logged', async () => {
    const r = await probe.inject({ method: 'GET', url: '/boom' });
    assert.equal(r.statusCode, 500);
    assert.equal(r.json().error.code, 'INTERNAL_ERROR');
    assert.ok(!r.body.includes('hunter2') && !r.body.includes('/srv') && !r.body.includes('at '), r.body);
    assert.match(r.json().request_id, UUID_RE);
  });

  test('health, readiness and the OpenAPI 3.1 document', async () => {
    assert.equal((await fetch(`${ts.svc.publicUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${ts.svc.publicUrl}/readyz`)).status, 200);
    const doc = await ts.api('GET', '/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    const metrics = await (await fetch(`${ts.svc.internalUrl}/metrics`)).text();
    assert.match(metrics, /tijori_http_requests_total/);
  });
});

describe('authentication, scopes, IP allow list', () => {
  test('401 API_AUTH_FAILED without credentials, with a wrong secret, or an unknown client', async () => {
    for (const h of [{}, headers({ ...client, secret: `${client.secret}x` }), headers({ ...client, clientId: 'tj_client_nope' }), { authorization: `Bearer ${client.secret}` }]) {
      const r = await probe.inject({ method: 'GET', url: '/probe', headers: h });
      assert.equal(r.statusCode, 401);
      assert.equal(r.json().error.code, 'API_AUTH_FAILED');
    }
    const ok = await probe.inject({ method: 'GET', url: '/probe', headers: headers(client) });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().data.client, client.clientId);
  });

  test('403 API_SCOPE_DENIED outside the client scopes', async () => {
    const c = await ts.createClient({ scopes: ['collections:read'] });
    const r = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c) });
    assert.equal(r.statusCode, 403);
    assert.equal(r.json().error.code, 'API_SCOPE_DENIED');
  });

  test('403 API_IP_NOT_ALLOWED once an allow list exists; IPv4-mapped addresses match', async () => {
    const c = await ts.createClient({ scopes: ['payouts:read'], allowIps: ['203.0.113.7'] });
    const denied = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c), remoteAddress: '127.0.0.1' });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().error.code, 'API_IP_NOT_ALLOWED');
    const mapped = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c), remoteAddress: '::ffff:203.0.113.7' });
    assert.equal(mapped.statusCode, 200);
    // X-Forwarded-For is not believed without TRUST_PROXY
    const spoofed = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c, { 'x-forwarded-for': '203.0.113.7' }), remoteAddress: '127.0.0.1' });
    assert.equal(spoofed.statusCode, 403);
    // the CLI path: allow-ip adds to the list (effective within the 2 s client cache)
    const added = await ts.admin('POST', `/clients/${c.clientId}/allowed-ips`, { ip: '::ffff:198.51.100.1' });
    assert.deepEqual(added.body.data.allowed_ips, ['203.0.113.7', '198.51.100.1']);
  });

  test('with TRUST_PROXY, X-Forwarded-For from the proxy is believed, from others not', async () => {
    const proxied = await startTestService({ TRUST_PROXY: '10.0.0.1' }, { database: ts.database });
    try {
      const app = await buildProbe(proxied);
      const c = await proxied.createClient({ scopes: ['payouts:read'], allowIps: ['198.51.100.20'] });
      const viaProxy = await app.inject({ method: 'GET', url: '/probe', headers: headers(c, { 'x-forwarded-for': '198.51.100.20' }), remoteAddress: '10.0.0.1' });
      assert.equal(viaProxy.statusCode, 200);
      const direct = await app.inject({ method: 'GET', url: '/probe', headers: headers(c, { 'x-forwarded-for': '198.51.100.20' }), remoteAddress: '10.0.0.2' });
      assert.equal(direct.statusCode, 403);
      await app.close();
    } finally {
      await proxied.svc.stop();
    }
  });

  test('secret rotation: the new secret works, the old one stops', async () => {
    const c = await ts.createClient({ scopes: ['payouts:read'] });
    assert.equal((await probe.inject({ method: 'GET', url: '/probe', headers: headers(c) })).statusCode, 200);
    const rotated = await ts.admin('POST', `/clients/${c.clientId}/rotate-secret`);
    const fresh = { ...c, secret: rotated.body.data.client_secret };
    assert.notEqual(fresh.secret, c.secret);
    // rotation went through this instance's service, which drops its cache entry at once
    assert.equal((await probe.inject({ method: 'GET', url: '/probe', headers: headers(c) })).statusCode, 401);
    assert.equal((await probe.inject({ method: 'GET', url: '/probe', headers: headers(fresh) })).statusCode, 200);
  });
});

describe('rate limit and financial create checks', () => {
  test('429 RATE_LIMITED with Retry-After past the per-minute limit', async () => {
    const c = await ts.createClient({ scopes: ['payouts:read'], rateLimit: 5 });
    const codes: number[] = [];
    let last: { headers: Record<string, unknown>; json: () => any } | undefined;
    for (let i = 0; i < 7; i++) {
      const r = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c) });
      codes.push(r.statusCode);
      if (r.statusCode === 429) last = r;
    }
    assert.deepEqual(codes, [200, 200, 200, 200, 200, 429, 429]);
    assert.ok(Number(last?.headers['retry-after']) >= 1);
    assert.equal(last?.json().error.code, 'RATE_LIMITED');
  });

  test('RateLimit-Policy and RateLimit (draft 08+ syntax) on every answer of an authenticated client, errors included; not before authentication', async () => {
    const c = await ts.createClient({ scopes: ['payouts:read'], rateLimit: 3 });
    const seen: Array<[number, unknown, unknown]> = [];
    for (let i = 0; i < 4; i++) {
      const r = await probe.inject({ method: 'GET', url: '/probe', headers: headers(c) });
      seen.push([r.statusCode, r.headers['ratelimit-policy'], r.headers['ratelimit']]);
    }
    assert.deepEqual(seen.map((x) => [x[0], x[1]]), [200, 200, 200, 429].map((s) => [s, '"per-minute";q=3;w=60']));
    assert.deepEqual(seen.map((x) => /^"per-minute";r=(\d+);t=(\d+)$/.exec(String(x[2]))?.[1]), ['2', '1', '0', '0']);
    for (const x of seen) assert.ok(Number(/;t=(\d+)$/.exec(String(x[2]))![1]) <= 60);
    // An error answer after authentication carries them too (here: a scope the client lacks).
    const other = await ts.createClient({ scopes: ['payouts:read'], rateLimit: 100 });
    const denied = await ts.api('POST', '/merchant/payment-orders', { client: other, idempotencyKey: crypto.randomUUID(), body: { amount_paise: 100, purpose: 'x' } });
    assert.equal(denied.status, 403);
    assert.equal(denied.headers.get('ratelimit-policy'), '"per-minute";q=100;w=60');
    assert.match(String(denied.headers.get('ratelimit')), /^"per-minute";r=99;t=1$/);
    const anonymous = await probe.inject({ method: 'GET', url: '/probe', headers: headers({ ...c, secret: 'wrong' }) });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['ratelimit-policy'], undefined, 'no client is known: no quota to tell');
  });

  test('Idempotency-Key required and UUID v4; sensitive fields 422 before schema; schema 422 with details', async () => {
    const h = headers(client, { 'content-type': 'application/json' });
    const missing = await probe.inject({ method: 'POST', url: '/probe', headers: h, payload: { n: 1 } });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const bad = await probe.inject({ method: 'POST', url: '/probe', headers: { ...h, 'idempotency-key': '11111111-1111-1111-1111-111111111111' }, payload: { n: 1 } });
    assert.equal(bad.json().error.code, 'IDEMPOTENCY_KEY_INVALID');
    const key = { ...h, 'idempotency-key': crypto.randomUUID() };
    const sensitive = await probe.inject({ method: 'POST', url: '/probe', headers: key, payload: { n: 1, card_number: '4111111111111111' } });
    assert.equal(sensitive.statusCode, 422);
    assert.equal(sensitive.json().error.code, 'SENSITIVE_DATA_REJECTED');
    const invalid = await probe.inject({ method: 'POST', url: '/probe', headers: key, payload: { n: '1', extra: true } });
    assert.equal(invalid.statusCode, 422);
    const body = invalid.json();
    assert.equal(body.error.code, 'VALIDATION_FAILED');
    assert.deepEqual(body.error.details.map((d: { field: string }) => d.field).sort(), ['extra', 'n']);
  });
});
