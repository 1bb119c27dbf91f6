/**
 * Security matrix (issue 8 §5): every merchant route of the OpenAPI document × (no credentials,
 * wrong secret, other organization, other client of the same organization, missing scope,
 * disallowed IP, spoofed X-Forwarded-For) answers the right 401/403/404 and changes nothing.
 * Planted secrets (client secrets, destination signing secrets, an order's callback_secret, the
 * admin token) and a full account number appear in no response, callback or log line. Callback
 * destinations on non-public addresses are refused when CALLBACK_ALLOW_PRIVATE_NETWORKS=false.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { destinationSecretContext } from '../../src/services/callbacks/destinations.js';
import { ALL_SCOPES, startTestService, type ApiResponse, type TestClient, type TestService } from '../support/service.js';
import { attemptRows, emit, eventually, setDestination, startTrustedReceiver, type TrustedReceiver } from '../callbacks/helpers.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { report } from './helpers.js';

const ACCOUNT = '918273645501'; // a full account number that must never come back
const ORDER_CALLBACK_SECRET = `ocs_${randomUUID()}${randomUUID()}`;

let r: TrustedReceiver;
let ts: TestService;
let owner: TestClient;
let sameOrg: TestClient;
let otherOrg: TestClient;
let readOnly: TestClient;
let writeOnly: TestClient;
let ipLocked: TestClient;
const secrets: Record<string, string> = {};
/** Every merchant response text seen (checked for leaks at the end). */
const seen: string[] = [];

async function call(method: string, path: string, o: { client?: TestClient; body?: unknown; headers?: Record<string, string>; key?: string } = {}): Promise<ApiResponse> {
  const res = await ts.api(method, path, { client: o.client, body: o.body, headers: o.headers, idempotencyKey: o.key });
  seen.push(res.text, JSON.stringify([...res.headers.entries()]));
  return res;
}

before(async () => {
  r = await startTrustedReceiver();
  // The matrix makes ~60 failed authentications from one address; the per-address limit has its own case below.
  ts = await startTestService({ ...r.env, ...FAST_PAYOUT_ENV, AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' });
  secrets.admin_token = ts.config.adminToken;
  owner = await ts.createClient({ rateLimit: 1_000_000 });
  // Every scope, settlements:read included (an organization-wide read): their refusals are about
  // the resource, not the scope.
  sameOrg = await ts.createClient({ orgId: owner.orgId, scopes: [...ALL_SCOPES, 'settlements:read'], rateLimit: 1_000_000 });
  otherOrg = await ts.createClient({ scopes: [...ALL_SCOPES, 'settlements:read'], rateLimit: 1_000_000 });
  readOnly = await ts.createClient({ orgId: owner.orgId, scopes: ['collections:read', 'payouts:read'], rateLimit: 1_000_000 });
  writeOnly = await ts.createClient({ orgId: owner.orgId, scopes: ['collections:write', 'payouts:write'], rateLimit: 1_000_000 });
  ipLocked = await ts.createClient({ orgId: owner.orgId, allowIps: ['203.0.113.7'], rateLimit: 1_000_000 });
  for (const [name, c] of Object.entries({ owner, sameOrg, otherOrg, readOnly, writeOnly, ipLocked })) secrets[`client_secret_${name}`] = c.secret;
  for (const org of [owner.orgId, otherOrg.orgId]) {
    assert.equal((await ts.admin('POST', '/routes', { org, modes: ['IMPS'] })).status, 201);
    for (const kind of ['payin', 'payout']) {
      const d = await setDestination(ts, org, kind, r.rx.url(`/${kind}-${org}`));
      assert.equal(d.status, 201, JSON.stringify(d.body));
      r.secrets[`/${kind}-${org}`] = d.body.data.signing_secret;
      secrets[`signing_secret_${kind}_${org}`] = d.body.data.signing_secret;
    }
  }
  secrets.order_callback_secret = ORDER_CALLBACK_SECRET;
  r.secrets['/order-cb'] = ORDER_CALLBACK_SECRET;
  secrets.account_number = ACCOUNT;
});
after(async () => {
  await ts?.stop();
  await r?.close();
});

interface Op {
  method: string;
  path: string;
  scope: string;
}

function scopeOf(method: string, path: string): string {
  if (path.startsWith('/merchant/settlements')) return 'settlements:read';
  const area = path.includes('payout') ? 'payouts' : 'collections';
  return `${area}:${method === 'GET' ? 'read' : 'write'}`;
}

test('every merchant route × every credential fault answers 401/403/404 and changes nothing', { timeout: 120_000 }, async () => {
  const started = Date.now();
  const doc = (await call('GET', '/openapi.json')).body;
  const ops: Op[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    if (!path.startsWith('/merchant')) continue;
    for (const method of Object.keys(item)) ops.push({ method: method.toUpperCase(), path, scope: scopeOf(method.toUpperCase(), path) });
  }
  assert.ok(ops.length >= 5, `merchant operations: ${ops.map((o) => `${o.method} ${o.path}`).join(', ')}`);

  // The owner's resources, which the other principals must not see or touch.
  const order = (await call('POST', '/merchant/payment-orders', { client: owner, key: randomUUID(), body: { amount_paise: 10_000, purpose: 'matrix' } })).body.data;
  const payout = (await call('POST', '/merchant/payouts', { client: owner, key: randomUUID(), body: { beneficiary: inlineBeneficiary({ account_number: ACCOUNT }), amount_paise: 12_300, mode: 'IMPS', client_reference: 'matrix' } })).body.data;
  assert.ok(order?.id && payout?.id);
  const bodyFor = (path: string): unknown =>
    path.includes('payouts') ? { beneficiary: inlineBeneficiary({ account_number: ACCOUNT }), amount_paise: 45_600, mode: 'IMPS' } : path.endsWith('payment-orders') ? { amount_paise: 10_000, purpose: 'matrix' } : path.endsWith('/refunds') ? {} : undefined;
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, path.includes('payouts') ? payout.id : order.id);

  const cases: Array<{ name: string; client?: TestClient; headers?: Record<string, string>; expect: (op: Op) => [number, string] | null }> = [
    { name: 'no credentials', expect: () => [401, 'API_AUTH_FAILED'] },
    { name: 'client id only', headers: { 'x-service-client-id': owner.clientId }, expect: () => [401, 'API_AUTH_FAILED'] },
    { name: 'wrong secret', headers: { 'x-service-client-id': owner.clientId, authorization: `Bearer ${otherOrg.secret}` }, expect: () => [401, 'API_AUTH_FAILED'] },
    { name: 'unknown client', headers: { 'x-service-client-id': `cl_${randomUUID()}`, authorization: `Bearer ${owner.secret}` }, expect: () => [401, 'API_AUTH_FAILED'] },
    { name: 'admin token as secret', headers: { 'x-service-client-id': owner.clientId, authorization: `Bearer ${ts.config.adminToken}` }, expect: () => [401, 'API_AUTH_FAILED'] },
    // Creates by another tenant create in its own tenant: only resource routes are checked.
    { name: 'other organization', client: otherOrg, expect: (op) => (op.path.includes('{') ? [404, 'NOT_FOUND'] : null) },
    { name: 'other client, same organization', client: sameOrg, expect: (op) => (op.path.includes('{') ? [404, 'NOT_FOUND'] : null) },
    { name: 'missing scope', client: undefined, expect: () => [403, 'API_SCOPE_DENIED'] },
    { name: 'disallowed IP', client: ipLocked, expect: () => [403, 'API_IP_NOT_ALLOWED'] },
    { name: 'spoofed X-Forwarded-For', client: ipLocked, headers: { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7', forwarded: 'for=203.0.113.7' }, expect: () => [403, 'API_IP_NOT_ALLOWED'] },
  ];
  const violations: string[] = [];
  let requests = 0;
  for (const op of ops) {
    for (const c of cases) {
      const expected = c.expect(op);
      if (!expected) continue;
      const client = c.name === 'missing scope' ? (op.scope.endsWith(':read') ? writeOnly : readOnly) : c.client;
      const res = await call(op.method, concrete(op.path), { client, headers: c.headers, key: op.method === 'POST' ? randomUUID() : undefined, body: op.method === 'POST' ? bodyFor(op.path) : undefined });
      requests++;
      if (res.status !== expected[0] || res.body?.error?.code !== expected[1] || typeof res.body?.request_id !== 'string') {
        violations.push(`${c.name}: ${op.method} ${op.path} → ${res.status} ${res.text.slice(0, 160)} (expected ${expected.join(' ')})`);
      }
    }
  }
  // Nothing changed: no order or payout beyond the owner's two, the order still open.
  const counts = await ts.database.db.query<{ o: number; p: number; r: number }>(
    'SELECT (SELECT count(*)::int FROM payment_orders) AS o, (SELECT count(*)::int FROM payouts) AS p, (SELECT count(*)::int FROM refunds) AS r',
  );
  if (counts.rows[0]!.o !== 1 || counts.rows[0]!.p !== 1 || counts.rows[0]!.r !== 0) violations.push(`resources created by refused calls: ${JSON.stringify(counts.rows[0])}`);
  const still = await call('GET', `/merchant/payment-orders/${order.id}`, { client: owner });
  if (still.body?.data?.status !== 'AWAITING_CUSTOMER') violations.push(`owner's order moved to ${still.body?.data?.status}`);
  report('security-matrix', { routes: ops.length, cases: cases.length, operations: requests, violations: violations.length, ms: Date.now() - started });
  assert.deepEqual(violations, []);
});

test('every merchant route: an address past its failed-authentication limit is refused (429, Retry-After), valid credentials too, and nothing changes', { timeout: 120_000 }, async () => {
  const started = Date.now();
  const limited = await startTestService({ ...r.env, AUTH_FAILURE_LIMIT_PER_MINUTE: '5' });
  try {
    const client = await limited.createClient({ rateLimit: 1_000_000 });
    const doc = (await limited.api('GET', '/openapi.json')).body;
    const ops: Array<{ method: string; path: string }> = [];
    for (const [path, item] of Object.entries<any>(doc.paths ?? {})) if (path.startsWith('/merchant')) for (const m of Object.keys(item)) ops.push({ method: m.toUpperCase(), path });
    for (let i = 0; i < 5; i++) assert.equal((await limited.api('GET', `/merchant/payment-orders/${randomUUID()}`)).status, 401);
    const violations: string[] = [];
    for (const op of ops) {
      for (const [name, c] of [['no credentials', undefined], ['valid credentials', client]] as const) {
        const path = op.path.replace(/\{[^}]+\}/g, randomUUID());
        const res = await limited.api(op.method, path, { client: c, idempotencyKey: op.method === 'POST' ? randomUUID() : undefined, body: op.method === 'POST' ? { amount_paise: 10_000, purpose: 'matrix' } : undefined });
        if (res.status !== 429 || res.body?.error?.code !== 'RATE_LIMITED' || !res.headers.get('retry-after') || typeof res.body?.request_id !== 'string') {
          violations.push(`${name}: ${op.method} ${op.path} → ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    const counts = await limited.database.db.query<{ o: number; p: number }>('SELECT (SELECT count(*)::int FROM payment_orders) AS o, (SELECT count(*)::int FROM payouts) AS p');
    if (counts.rows[0]!.o !== 0 || counts.rows[0]!.p !== 0) violations.push(`resources created by refused calls: ${JSON.stringify(counts.rows[0])}`);
    report('security-auth-failure-limit', { routes: ops.length, operations: ops.length * 2, violations: violations.length, ms: Date.now() - started });
    assert.deepEqual(violations, []);
  } finally {
    await limited.stop();
  }
});

test('planted secrets and full account numbers appear in no response, callback or log line', { timeout: 120_000 }, async () => {
  const started = Date.now();
  const before = r.rx.received.length;
  // Traffic that produces every kind of callback: an order with its own callback, paid; payouts.
  const order = (await call('POST', '/merchant/payment-orders', {
    client: owner, key: randomUUID(),
    body: { amount_paise: 10_100, purpose: 'leak check', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true, callback_url: r.rx.url('/order-cb'), callback_secret: ORDER_CALLBACK_SECRET },
  })).body.data;
  assert.ok(order?.id);
  assert.equal((await ts.admin('POST', `/sandbox/payment-orders/${order.id}/pay`, {})).status, 200);
  const payout = (await call('POST', '/merchant/payouts', { client: owner, key: randomUUID(), body: { beneficiary: inlineBeneficiary({ account_number: ACCOUNT }), amount_paise: 23_400, mode: 'IMPS' } })).body.data;
  const failing = (await call('POST', '/merchant/payouts', { client: owner, key: randomUUID(), body: { beneficiary: inlineBeneficiary({ account_number: ACCOUNT }), amount_paise: 23_413, mode: 'IMPS' } })).body.data;
  // Payer details with hostile strings and credentials in odd places (they must not be echoed into logs either).
  await call('GET', `/merchant/payment-orders/${order.id}?secret=${encodeURIComponent(owner.secret)}`, { headers: { 'x-service-client-id': owner.clientId, authorization: `Bearer ${owner.secret}`, 'x-debug': ts.config.adminToken } });
  await eventually(async () => {
    const kinds = r.rx.received.slice(before).map((q) => `${q.path}:${JSON.parse(q.rawBody.toString()).event}`);
    return kinds.includes('/order-cb:collection.received') && kinds.filter((k) => k.endsWith('payout.success') || k.endsWith('payout.failed')).length >= 2;
  }, 20_000, 'the callbacks of the leak traffic');
  for (const p of [payout, failing]) await call('GET', `/merchant/payouts/${p.id}`, { client: owner });
  await call('GET', `/merchant/payment-orders/${order.id}`, { client: owner });

  const callbacks = r.rx.received.map((q) => `${JSON.stringify(q.headers)}\n${q.rawBody.toString()}`);
  const haystacks: Array<[string, string[]]> = [['response', seen], ['callback', callbacks], ['log line', ts.logs]];
  const leaks: string[] = [];
  let scanned = 0;
  for (const [where, texts] of haystacks) {
    for (const text of texts) {
      scanned++;
      for (const [name, secret] of Object.entries(secrets)) if (text.includes(secret)) leaks.push(`${name} in a ${where}: ${text.slice(0, 200)}`);
    }
  }
  assert.ok(callbacks.some((c) => c.includes('"account_number_last4":"5501"')), 'payout callbacks carry the last four digits only');
  report('security-leaks', { planted_secrets: Object.keys(secrets).length, responses: seen.length / 2, callbacks: callbacks.length, log_lines: ts.logs.length, texts_scanned: scanned, violations: leaks.length, ms: Date.now() - started });
  assert.deepEqual(leaks, []);
});

const PRIVATE_URLS = ['127.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.0.1', '169.254.169.254', '[::1]', '[fd00:ec2::254]', 'localhost', 'metadata.localhost', '0.0.0.0', '[::ffff:127.0.0.1]', '100.64.0.1'].map((h) => `https://${h}/hook`);

test('callback destinations on loopback, private, link-local and metadata addresses are refused', { timeout: 60_000 }, async () => {
  const started = Date.now();
  const strict = await startTestService({ ...r.env, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' });
  try {
    const violations: string[] = [];
    const org = await strict.createOrg();
    const client = await strict.createClient({ orgId: org });
    for (const url of PRIVATE_URLS) {
      for (const kind of ['payin', 'payout']) {
        const d = await setDestination(strict, org, kind, url);
        if (d.status !== 422 || d.body?.error?.code !== 'VALIDATION_FAILED') violations.push(`destination ${kind} ${url} → ${d.status}`);
      }
      const o = await strict.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000, purpose: 'ssrf', callback_url: url, callback_secret: 'x'.repeat(32) } });
      if (o.status !== 422 || o.body?.error?.details?.[0]?.field !== 'callback_url') violations.push(`order callback_url ${url} → ${o.status}`);
    }
    // A DNS name that resolves to loopback (as a rebinding answer would), planted past the set-time
    // check: refused at connection time, and nothing reaches the receiver.
    const received = r.rx.received.length;
    const secretEnc = strict.svc.ctx.vault.encrypt('whsec_planted', destinationSecretContext(org, 'payin'));
    await strict.database.db.query(`INSERT INTO callback_destinations (org_id, kind, url, secret_enc) VALUES ($1, 'payin', $2, $3)`, [org, `https://localhost:${r.rx.port}/dns`, secretEnc]);
    const ev = await emit(strict, { orgId: org, kind: 'collection.received' });
    await eventually(async () => (await attemptRows(strict, ev.id)).length >= 1, 5000, 'an attempt');
    const attempts = await attemptRows(strict, ev.id);
    if (attempts[0]?.error !== 'address_not_allowed') violations.push(`DNS name to loopback: ${JSON.stringify(attempts[0])}`);
    if (r.rx.received.length !== received) violations.push('a request reached the loopback receiver');
    report('security-ssrf', { urls: PRIVATE_URLS.length, operations: PRIVATE_URLS.length * 3 + 1, violations: violations.length, ms: Date.now() - started });
    assert.deepEqual(violations, []);
  } finally {
    await strict.stop();
  }
});
