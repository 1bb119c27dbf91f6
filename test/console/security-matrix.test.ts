/**
 * The console twin of test/faults/security-matrix.test.ts (issue #19 item 5). The routes are
 * enumerated from Fastify itself: registerConsoleApi (what the service mounts at /console/api) is
 * registered on a bare app with an onRoute hook, so a route added tomorrow is in the matrix without
 * editing this file. For EVERY console API route, against the real running service:
 * - no session (and a forged cookie) → 401 API_AUTH_FAILED, whatever the body;
 * - a session of another organization never sees nor changes this organization's resources: a
 *   route naming one of them answers 404/403, lists and pages never contain its identifiers;
 * - a `viewer` gets 403 on every change (only signing itself out is allowed, listed below);
 * - a change without the X-CSRF-Token header, or with a wrong one → 403;
 * - hostile bodies (huge strings, wrong types, non-objects, duplicate keys, prototype-pollution
 *   keys, unknown fields, over the size limit, not JSON) and hostile queries → a 4xx envelope with
 *   request_id, never 5xx, never a change.
 * At the end, every resource of the organization is as it was.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { registerConsoleApi } from '../../src/http/public/console/api.js';
import { PERMISSIONS, type Permission } from '../../src/services/console/roles.js';
import { createOrder, eventsOf, intentBody, itemsOnceThere, key, paidOrder, sandboxPay } from '../refunds/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { settle, sync } from '../settlements/helpers.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

interface ConsoleRoute {
  method: string;
  /** Without the /console/api prefix, with its :params. */
  path: string;
  need: 'public' | Permission | undefined;
  body: Record<string, any> | undefined;
  query: Record<string, any> | undefined;
}

/** Changes a viewer may make: they end the viewer's own sessions, or change its own password, and nothing else. */
const VIEWER_MAY_CHANGE = new Set(['DELETE /session', 'POST /session/sign-out-everywhere', 'POST /me/password']);
/** Changes that act on the caller's own session or account only (no resource of the organization). */
const SELF = (r: ConsoleRoute) => r.need === 'read' || r.need === 'self.manage';

let ts: TestService;
let a: TestClient;
let routes: ConsoleRoute[] = [];
let adminA: ConsoleCaller & { userId: string };
let viewerA: ConsoleCaller;
let adminB: ConsoleCaller;
/** Org A's resources, by the route parameter that names them. */
const ids: Record<string, string> = {};
/** Strings of org A that must never appear in another organization's answers. */
const secretsOfA: string[] = [];
const violations: string[] = [];
/** The order of org A's open review item. */
let itemOrderPk = '';

async function enumerateRoutes(t: TestService): Promise<ConsoleRoute[]> {
  const app = Fastify({ logger: false });
  const found: ConsoleRoute[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) {
      if (m === 'HEAD' || !r.url.startsWith('/console/api/')) continue;
      const schema = (r.schema ?? {}) as { body?: Record<string, any>; querystring?: Record<string, any> };
      found.push({ method: m, path: r.url.slice('/console/api'.length), need: r.config?.console, body: schema.body, query: schema.querystring });
    }
  });
  // The same registration the service does (src/http/public/console/index.ts); never listened on.
  await app.register(async (api) => registerConsoleApi(api, t.svc.ctx), { prefix: '/console/api' });
  await app.close();
  return found;
}

/** A minimal valid value of a JSON schema (TypeBox): what a well-formed request would send. */
function sampleOf(s: Record<string, any>): unknown {
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.anyOf)) return sampleOf(s.anyOf[0]);
  switch (s.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const k of s.required ?? []) o[k] = sampleOf(s.properties[k]);
      return o;
    }
    case 'array':
      return Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => sampleOf(s.items));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'a'.repeat(Math.max(s.minLength ?? 1, 1));
  }
}

/** Bodies that make sense for the route (so another organization's call reaches its org check). */
const MEANINGFUL: Record<string, Record<string, unknown>> = {
  'POST /api-clients': { name: 'matrix', scopes: ['collections:read'] },
  'PATCH /api-clients/:client_id': { rate_limit_per_minute: 100 },
  'POST /api-clients/:client_id/allowed-ips': { ip: '198.51.100.77' },
  'PUT /destinations/:kind': { url: 'https://other-org.example.com/hooks' },
  'POST /users': { email: `matrix-${randomUUID()}@example.com`, role: 'viewer' },
  'POST /users/:user_id/role': { role: 'viewer' },
  'POST /me/totp/confirm': { code: '123456' },
  'POST /me/totp/disable': { password: 'not-the-password-at-all' },
  'POST /me/password': { current_password: 'not-the-password-at-all', new_password: 'violet-harbour-tractor-92' },
  'POST /password-reset': { email: 'nobody@example.com' },
  'POST /session': { email: 'nobody@example.com', password: 'not-the-password-at-all' },
  'POST /provider-accounts': { provider: 'sandbox', name: 'matrix sandbox', config: {} },
  // 'PUT /collections-account' is set in before(): it names org A's provider account.
};

function bodyFor(r: ConsoleRoute): Record<string, unknown> | undefined {
  if (!r.body) return undefined;
  return MEANINGFUL[`${r.method} ${r.path}`] ?? (sampleOf(r.body) as Record<string, unknown>);
}

/** The route's path with org A's resources in its parameters. */
function concrete(path: string): string {
  return path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    if (name === 'ref') return path.startsWith('/payouts') ? ids.payout! : ids.order!;
    if (name === 'id' && path.startsWith('/bulk-payouts')) return ids.bulk!;
    if (name === 'id' && path.startsWith('/settlements')) return ids.settlement!;
    const v = ids[name];
    if (!v) throw new Error(`no resource of org A for the route parameter :${name} (${path}): add one in before()`);
    return v;
  });
}

const label = (r: ConsoleRoute) => `${r.method} ${r.path}`;
const isChange = (r: ConsoleRoute) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method);

/** A raw request: any body text and headers, the caller's cookie and (unless told) its CSRF token. */
async function raw(c: ConsoleCaller | null, method: string, path: string, o: { text?: string; contentType?: string; csrf?: string | null; cookie?: string } = {}) {
  const headers: Record<string, string> = {};
  if (o.text !== undefined) headers['content-type'] = o.contentType ?? 'application/json';
  const cookie = o.cookie ?? c?.cookie;
  if (cookie) headers.cookie = cookie;
  const csrf = o.csrf === undefined ? c?.csrf : o.csrf;
  if (csrf) headers['x-csrf-token'] = csrf;
  const res = await fetch(`${ts.svc.publicUrl}/console/api${path}`, { method, headers, ...(o.text === undefined ? {} : { body: o.text }) });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: checked by the caller
  }
  return { status: res.status, text, body };
}

function expectEnvelope(what: string, res: { status: number; text: string; body: any }, allowed: number[], code?: string): void {
  const ok = allowed.includes(res.status) && res.body?.success === false && typeof res.body?.error?.code === 'string' && typeof res.body?.request_id === 'string' && (code === undefined || res.body.error.code === code);
  if (!ok) violations.push(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
}

/** Org A's state that no refused request may change. */
async function stateOfA(): Promise<unknown> {
  const q = async (sql: string, params: unknown[]) => (await ts.database.db.query(sql, params)).rows;
  return {
    orders: await q('SELECT id, status, review_required FROM payment_orders WHERE org_id = $1 ORDER BY id', [a.orgId]),
    refunds: await q('SELECT id, status, reviewed_by FROM refunds WHERE org_id = $1 ORDER BY id', [a.orgId]),
    items: await q('SELECT id, status, acted_by FROM review_items WHERE org_id = $1 ORDER BY id', [a.orgId]),
    clients: await q('SELECT client_id, name, active, allowed_ips, encode(secret_hash, $2) AS secret, rate_limit_per_minute FROM api_clients WHERE org_id = $1 ORDER BY client_id', [a.orgId, 'hex']),
    organization: await q('SELECT name, refund_review FROM organizations WHERE id = $1', [a.orgId]),
    destinations: await q('SELECT kind, url, encode(secret_enc, $2) AS secret FROM callback_destinations WHERE org_id = $1 ORDER BY kind', [a.orgId, 'hex']),
    users: await q('SELECT id, email, role, status, password_hash, totp_secret_enc FROM console_users WHERE org_id = $1 ORDER BY id', [a.orgId]),
    // Only a decision moves these (a payout's status also moves by itself as the bank answers).
    decisions: await q('SELECT id, checker_user_id, decision_note FROM payouts WHERE org_id = $1 ORDER BY id', [a.orgId]),
    subscriptions: await q('SELECT kind, events, status FROM callback_destinations WHERE org_id = $1 ORDER BY kind', [a.orgId]),
    providerAccounts: await q('SELECT id, provider, name, livemode FROM provider_accounts WHERE org_id = $1 ORDER BY id', [a.orgId]),
    collectionsAccount: await q('SELECT collections_provider_account_id FROM organizations WHERE id = $1', [a.orgId]),
    clientRequests: await q('SELECT id, status, decided_by FROM api_client_requests WHERE org_id = $1 ORDER BY id', [a.orgId]),
  };
}

before(async () => {
  ts = await startTestService({ ...FAST_PAYOUT_ENV, AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' });
  routes = await enumerateRoutes(ts);
  a = await ts.createClient({ rateLimit: 1_000_000 });
  const b = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS'] })).status, 201);

  adminA = await signedInUser(ts, a.orgId, 'matrix-admin-a@example.com', 'admin');
  viewerA = await signedInUser(ts, a.orgId, 'matrix-viewer-a@example.com', 'viewer');
  const target = await signedInUser(ts, a.orgId, 'matrix-target-a@example.com', 'developer');
  adminB = await signedInUser(ts, b.orgId, 'matrix-admin-b@example.com', 'admin');

  const order = await createOrder(ts, a, intentBody({ merchant_order_reference: 'MATRIX-A-ORDER' }));
  // A live check, so the order has a provider check for the routes that list them.
  assert.equal((await ts.api('GET', `/merchant/payment-orders/${order.id}`, { client: a })).status, 200);
  const paid = await paidOrder(ts, a, 20_000);
  const refund = await ts.api('POST', `/merchant/payment-orders/${paid.id}/refunds`, { client: a, idempotencyKey: key(), body: { reason: 'matrix' } });
  assert.equal(refund.status, 201, refund.text);
  const mismatched = await createOrder(ts, a, intentBody({ amount_paise: 5_000_000 }));
  await sandboxPay(ts, mismatched.order_id, { callback: true, amountPaise: 100 });
  const [item] = await itemsOnceThere(ts, mismatched.id);
  const payout = await ts.api('POST', '/merchant/payouts', { client: a, idempotencyKey: key(), body: payoutBody(12_300, { client_reference: 'MATRIX-A-PAYOUT' }) });
  assert.equal(payout.status, 201, payout.text);
  const client = await adminA.call('POST', '/api-clients', { name: 'matrix-a', scopes: ['collections:read'] });
  assert.equal(client.status, 201, client.text);
  // A request for a payouts:write client (issue #29 item 4), waiting for a second admin.
  const clientRequest = await target.call('POST', '/api-clients', { name: 'matrix-a-payouts', scopes: ['payouts:write'] });
  assert.equal(clientRequest.body?.data?.approval_required, true, clientRequest.text);
  const dest = await adminA.call('PUT', '/destinations/payin', { url: 'https://matrix-a.example.com/payin' });
  assert.equal(dest.status, 200, dest.text);
  // A provider account of org A (its intake address names it) and an anomaly recorded for it.
  const account = await adminA.call('POST', '/provider-accounts', { provider: 'sandbox', name: 'MATRIX-A-ACCOUNT', config: {} });
  assert.equal(account.status, 201, account.text);
  const accountId = account.body.data.provider_account_id as string;
  MEANINGFUL['PUT /collections-account'] = { provider_account_id: accountId };
  ts.svc.ctx.providerAnomalies.record(accountId, 'sandbox', { kind: 'unknown_status', operation: 'webhook', resource: { type: 'payment_order', ref: order.order_id }, detail: { provider_status: 'MATRIX-A-ANOMALY' } });
  await ts.svc.ctx.providerAnomalies.settled();

  // A settlement of org A (the sandbox settles its paid order; `settlements sync` imports it).
  await settle(ts, a.orgId);
  await sync(ts, a.orgId);
  const settlementId = (await ts.database.db.query<{ id: string }>('SELECT id FROM settlements WHERE org_id = $1 LIMIT 1', [a.orgId])).rows[0]!.id;

  itemOrderPk = mismatched.id;
  Object.assign(ids, {
    settlement: settlementId,
    order: order.id,
    payout: payout.body.data.id,
    client_id: client.body.data.client.client_id,
    request_id: clientRequest.body.data.request.request_id,
    kind: 'payin',
    user_id: target.userId,
    id: item!.id as string,
    refund: refund.body.data.id,
    event_id: (await ts.database.db.query<{ id: string }>('SELECT id FROM events WHERE org_id = $1 ORDER BY id LIMIT 1', [a.orgId])).rows[0]!.id,
    code: 'HDFC0000001',
    bulk: await uploadBulkFileOfA(),
    // Not route parameters: org A's provider account and an order_id its anomaly names.
    provider_account_id: accountId,
    order_id: order.order_id,
  });
  secretsOfA.push(
    order.id, order.order_id, 'MATRIX-A-ORDER', paid.order_id, mismatched.order_id, payout.body.data.id, payout.body.data.transaction_id, 'MATRIX-A-PAYOUT',
    accountId, 'MATRIX-A-ACCOUNT', 'MATRIX-A-ANOMALY', settlementId,
    client.body.data.client.client_id, client.body.data.client_secret, dest.body.data.signing_secret, 'https://matrix-a.example.com/payin',
    refund.body.data.id, refund.body.data.refund_id, item!.id as string, ids.bulk!, ids.event_id!, 'matrix-admin-a@example.com', 'matrix-viewer-a@example.com', 'matrix-target-a@example.com',
  );
});
after(() => ts?.stop());

/** A bulk payout file of org A, waiting for a checker (the contract §6 header, one row). */
async function uploadBulkFileOfA(): Promise<string> {
  const csv = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference\nAsha Traders,000123456789,HDFC0000001,9876543210,10000,IMPS,matrix,MATRIX-BULK-1\n';
  const res = await fetch(`${ts.svc.publicUrl}/console/api/bulk-payouts?file_name=matrix.csv`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', cookie: adminA.cookie!, 'x-csrf-token': adminA.csrf! },
    body: csv,
  });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text).data.id as string;
}

test('the matrix covers every console API route, enumerated from Fastify', () => {
  const names = routes.map(label);
  assert.ok(routes.length >= 30, names.join(', '));
  // A few that must be there: if enumeration broke, the matrix would pass on nothing.
  for (const must of ['GET /payment-orders/:ref', 'GET /payment-orders/:ref/provider-checks', 'GET /payouts/:ref/inquiries', 'PATCH /organization', 'POST /api-clients', 'PUT /destinations/:kind', 'POST /review-items/:id/confirm', 'POST /refunds/:refund/approve', 'DELETE /session', 'GET /audit-log', 'GET /provider-accounts', 'POST /provider-accounts', 'PUT /collections-account', 'GET /provider-anomalies']) {
    assert.ok(names.includes(must), `${must} in ${names.join(', ')}`);
  }
  // Every change names its permission (the guard refuses one that does not, but say so here).
  for (const r of routes.filter(isChange)) assert.ok(r.need !== undefined, `${label(r)} declares no console permission`);
});

test('no session, or a forged one: 401 on every route that is not public, whatever the body', async () => {
  const before = await stateOfA();
  for (const r of routes.filter((x) => x.need !== 'public')) {
    const path = concrete(r.path);
    const body = bodyFor(r);
    const text = body === undefined ? undefined : JSON.stringify(body);
    expectEnvelope(`no session ${label(r)}`, await raw(null, r.method, path, { text }), [401], 'API_AUTH_FAILED');
    expectEnvelope(`forged cookie ${label(r)}`, await raw(null, r.method, path, { text, cookie: `tijori_console=${randomUUID()}`, csrf: 'x' }), [401], 'API_AUTH_FAILED');
    // An invalid body is still refused as unauthenticated first: nothing about the route's input leaks.
    if (r.body) expectEnvelope(`no session, empty object ${label(r)}`, await raw(null, r.method, path, { text: '{}' }), [401], 'API_AUTH_FAILED');
  }
  assert.deepEqual(violations.splice(0), []);
  assert.deepEqual(await stateOfA(), before);
});

test("another organization's admin never sees nor changes this organization's resources", async () => {
  const before = await stateOfA();
  const leaks = (what: string, text: string) => {
    for (const s of secretsOfA) if (text.includes(s)) violations.push(`${what} shows org A's ${s}`);
  };
  for (const r of routes.filter((x) => x.need !== 'public')) {
    if (isChange(r) && SELF(r)) continue; // signs B itself out or changes B's own account: no resource of A
    const names = r.path.match(/:([a-z_]+)/g) ?? [];
    // `:kind` (payin/payout) and `:code` (an IFSC: the public bank directory) name nothing of A.
    const namesResourceOfA = names.some((n) => n !== ':kind' && n !== ':code');
    const res = await raw(adminB, r.method, concrete(r.path), bodyFor(r) === undefined ? {} : { text: JSON.stringify(bodyFor(r)) });
    if (res.status >= 500) violations.push(`other org ${label(r)}: ${res.status} ${res.text.slice(0, 200)}`);
    if (namesResourceOfA) expectEnvelope(`other org ${label(r)}`, res, [403, 404]);
    leaks(`other org ${label(r)}`, res.text);
  }
  // Lists filtered and searched by A's references find nothing.
  const anomaliesOfA = [`/provider-anomalies?payment_order=${encodeURIComponent(ids.order_id!)}`, `/provider-anomalies?provider_account_id=${ids.provider_account_id}`];
  // Choosing org A's account for B's collections: 404, nothing changes (the state check below).
  expectEnvelope('other org PUT /collections-account', await raw(adminB, 'PUT', '/collections-account', { text: JSON.stringify({ provider_account_id: ids.provider_account_id }) }), [404]);
  for (const path of ['/payment-orders?search=MATRIX-A-ORDER', `/payment-orders?search=${ids.order}`, '/payouts?search=MATRIX-A-PAYOUT', '/payment-orders/export', '/payouts/export', '/audit-log', '/review-items', '/refunds', '/users', '/api-clients', '/destinations', '/bulk-payouts', '/events', '/payout-approvals', '/beneficiaries', '/overview', '/organization', '/provider-accounts', '/provider-anomalies', '/balances', '/settlements', '/settlements/export', '/recon/breaks', ...anomaliesOfA]) {
    const res = await raw(adminB, 'GET', path);
    if (res.status !== 200) violations.push(`other org GET ${path}: ${res.status}`);
    leaks(`other org GET ${path}`, res.text);
  }
  assert.deepEqual(violations.splice(0), []);
  assert.deepEqual(await stateOfA(), before);
});

test('a viewer gets 403 on every change; only signing itself out is allowed', async () => {
  const before = await stateOfA();
  for (const r of routes.filter((x) => isChange(x) && x.need !== 'public')) {
    const may = r.need !== undefined && r.need !== 'public' && PERMISSIONS.viewer.includes(r.need);
    if (may) {
      if (!VIEWER_MAY_CHANGE.has(label(r))) violations.push(`${label(r)} is a change a viewer may make (permission ${r.need}): list it in VIEWER_MAY_CHANGE only if it touches nothing but the viewer's own session`);
      continue; // not called: it would end the viewer's session
    }
    const body = bodyFor(r);
    expectEnvelope(`viewer ${label(r)}`, await raw(viewerA, r.method, concrete(r.path), body === undefined ? {} : { text: JSON.stringify(body) }), [403], 'API_SCOPE_DENIED');
  }
  // Reading stays open to the viewer (and never 5xx), except what needs a permission the viewer
  // lacks (provider accounts, provider anomalies): 403.
  for (const r of routes.filter((x) => x.method === 'GET' && x.need !== 'public')) {
    const res = await raw(viewerA, 'GET', concrete(r.path));
    const may = r.need === undefined || (r.need !== 'public' && PERMISSIONS.viewer.includes(r.need));
    if (may && res.status !== 200) violations.push(`viewer ${label(r)}: ${res.status} ${res.text.slice(0, 200)}`);
    if (!may) expectEnvelope(`viewer ${label(r)}`, res, [403], 'API_SCOPE_DENIED');
  }
  assert.deepEqual(violations.splice(0), []);
  assert.deepEqual(await stateOfA(), before);
  assert.equal((await viewerA.call('GET', '/session')).status, 200, 'the viewer is still signed in');
});

test('a change without the X-CSRF-Token header, or with a wrong one, is 403 even for an admin', async () => {
  const before = await stateOfA();
  for (const r of routes.filter((x) => isChange(x) && x.need !== 'public')) {
    const body = bodyFor(r);
    const text = body === undefined ? undefined : JSON.stringify(body);
    expectEnvelope(`no CSRF ${label(r)}`, await raw(adminA, r.method, concrete(r.path), { text, csrf: null }), [403], 'API_SCOPE_DENIED');
    expectEnvelope(`wrong CSRF ${label(r)}`, await raw(adminA, r.method, concrete(r.path), { text, csrf: `${adminA.csrf}x` }), [403], 'API_SCOPE_DENIED');
  }
  assert.deepEqual(violations.splice(0), []);
  assert.deepEqual(await stateOfA(), before);
  assert.equal((await adminA.call('GET', '/session')).status, 200, 'DELETE /session without the header signed nobody out');
});

test('hostile bodies and queries: a 4xx envelope with request_id on every route, never 5xx, nothing changed', async () => {
  const before = await stateOfA();
  const received = (await eventsOf(ts, itemOrderPk, 'collection.received')).length;
  let requests = 0;
  const send = async (r: ConsoleRoute, what: string, text: string, o: { contentType?: string; allowed?: number[] } = {}) => {
    requests++;
    const res = await raw(adminA, r.method, concrete(r.path), { text, ...(o.contentType ? { contentType: o.contentType } : {}) });
    expectEnvelope(`${what} ${label(r)}`, res, o.allowed ?? [400, 401, 403, 404, 409, 413, 415, 422, 429]);
  };
  const HUGE = 'x'.repeat(60_000);
  for (const r of routes.filter(isChange)) {
    // Refused by the body parser on every change route, whether it reads a body or not.
    await send(r, 'array body', '[]');
    await send(r, 'string body', '"text"');
    await send(r, 'number body', '42');
    await send(r, 'null body', 'null');
    await send(r, 'not JSON', '{"note": ');
    await send(r, 'duplicate keys', '{"note": "a", "note": "b"}');
    await send(r, '__proto__ key', '{"__proto__": {"isAdmin": true}}');
    await send(r, 'constructor key', '{"constructor": {"prototype": {"isAdmin": true}}}');
    await send(r, 'escaped __proto__ key', '{"\\u005f_proto__": {"isAdmin": true}}');
    // The bulk upload takes a CSV body of up to 8 MiB (its own limit); a 70 KiB JSON body is refused there as not a file.
    await send(r, 'over the size limit', JSON.stringify({ note: 'x'.repeat(70 * 1024) }), { allowed: r.path === '/bulk-payouts' ? [415, 422] : [413] });
    await send(r, 'not JSON content type', 'note=a', { contentType: 'application/x-www-form-urlencoded', allowed: [415] });
    if (!r.body) continue;
    const good = bodyFor(r)!;
    const fields = Object.keys(r.body.properties ?? {});
    // A key the valid body already has, sent twice (a field it lacks would make another valid body).
    const twice = fields.find((f) => f in good) ?? fields[0]!;
    await send(r, 'duplicate keys in a valid body', JSON.stringify(good).replace(/^\{/, `{"${twice}": ${JSON.stringify(good[twice] ?? 'a')},`));
    await send(r, 'prototype pollution in a valid body', JSON.stringify({ ...good, ['__proto__']: { isAdmin: true } }));
    await send(r, 'unknown field', JSON.stringify({ ...good, is_admin: true }));
    if ((r.body.required ?? []).length > 0) await send(r, 'empty object', '{}');
    for (const f of fields) {
      for (const [what, v] of [['huge string', HUGE], ['number', 12345], ['boolean', true], ['null', null], ['object', { $gt: '' }], ['array', ['a', 'b']], ['negative', -1], ['float', 1.5], ['huge number', 1e308]] as const) {
        const prop = r.body.properties[f] as { type?: string; minimum?: number; maximum?: number };
        // A value of the field's own type within its bounds is well-formed, not hostile.
        if (typeof v === 'number' && (prop.type === 'integer' || prop.type === 'number') && Number.isInteger(v) && v >= (prop.minimum ?? -Infinity) && v <= (prop.maximum ?? Infinity)) continue;
        if (typeof v === 'boolean' && prop.type === 'boolean') continue;
        await send(r, `${f}: ${what}`, JSON.stringify({ ...good, [f]: v }));
      }
    }
  }
  for (const r of routes.filter((x) => x.method === 'GET' && x.query)) {
    const path = concrete(r.path);
    for (const [what, q] of [
      ['unknown parameter', 'is_admin=1'],
      ['prototype key', '__proto__=1'],
      ['repeated parameter', `${Object.keys(r.query!.properties)[0]}=a&${Object.keys(r.query!.properties)[0]}=b`],
      ['huge value', `${Object.keys(r.query!.properties)[0]}=${'x'.repeat(6_000)}`],
      ['limit not a number', 'limit=ten'],
    ] as const) {
      requests++;
      const res = await raw(adminA, 'GET', `${path}?${q}`);
      expectEnvelope(`${what} GET ${r.path}`, res, [400, 404, 414, 422]);
    }
  }
  assert.deepEqual(violations.splice(0), []);
  assert.ok(requests > 500, `${requests} hostile requests`);
  assert.deepEqual(await stateOfA(), before);
  assert.equal((await eventsOf(ts, itemOrderPk, 'collection.received')).length, received, 'no review item was confirmed');
  assert.equal((await adminA.call('GET', '/session')).status, 200);
});
