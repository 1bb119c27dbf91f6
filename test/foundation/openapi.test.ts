/**
 * The OpenAPI 3.1 document: every merchant route with operationId, request schema, headers and
 * every documented answer; named components; webhooks; the console API under its own tag; and the
 * checker that holds every answer the integration tests receive against it
 * (test/support/openapi-responses.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { EVENT_KINDS } from '../../src/services/callbacks/events.js';
import { intentBody, key } from '../payin/helpers.js';
import { inlineBeneficiary, payoutBody } from '../payout/helpers.js';
import { merchantDocument } from '../../src/http/public/openapi.js';
import { ResponseChecker } from '../support/openapi-responses.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let client: TestClient;
let doc: any;
before(async () => {
  ts = await startTestService();
  client = await ts.createClient({});
  doc = (await ts.api('GET', '/openapi.json')).body;
});
after(() => ts.stop());

const resolve = (node: any): any => (node?.$ref ? doc.components.schemas[node.$ref.replace('#/components/schemas/', '')] : node);

test('lists every merchant route with operationId, request schema, headers and each documented status', () => {
  assert.equal(doc.openapi, '3.1.0');
  const expect: [string, string, string, string[]][] = [
    ['/merchant/payment-orders', 'post', 'createPaymentOrder', ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']],
    ['/merchant/payment-orders', 'get', 'listPaymentOrders', ['200', '401', '403', '422', '429', '500', '503']],
    ['/merchant/payment-orders/{order}', 'get', 'getPaymentOrder', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ['/merchant/payment-orders/{order}/cancel', 'post', 'cancelPaymentOrder', ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']],
    ['/merchant/payouts', 'post', 'createPayout', ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']],
    ['/merchant/payouts', 'get', 'listPayouts', ['200', '401', '403', '422', '429', '500', '503']],
    ['/merchant/payouts/{payout}', 'get', 'getPayout', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ['/merchant/payment-orders/{order}/refunds', 'post', 'createRefund', ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']],
    ['/merchant/payment-orders/{order}/refunds', 'get', 'listOrderRefunds', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ['/merchant/refunds/{refund}', 'get', 'getRefund', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ['/merchant/settlements', 'get', 'listSettlements', ['200', '401', '403', '422', '429', '500', '503']],
    ['/merchant/settlements/{settlement}', 'get', 'getSettlement', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ['/merchant/settlements/{settlement}/lines', 'get', 'listSettlementLines', ['200', '401', '403', '404', '422', '429', '500', '503']],
  ];
  const merchantPaths = Object.keys(doc.paths).filter((path) => !path.startsWith('/console/api/'));
  assert.deepEqual(merchantPaths.sort(), [...new Set(expect.map(([path]) => path))].sort(), 'no internal or checkout route is published');
  const published = merchantPaths.flatMap((path) => Object.keys(doc.paths[path]).map((m) => `${m} ${path}`));
  assert.deepEqual(published.sort(), expect.map(([path, method]) => `${method} ${path}`).sort(), 'every operation, no other');
  for (const [path, method, operationId, statuses] of expect) {
    const op = doc.paths[path][method];
    assert.equal(op.operationId, operationId);
    for (const s of statuses) assert.ok(op.responses[s]?.content['application/json'].schema.$ref, `${operationId} documents ${s}`);
    for (const s of ['429', '503']) assert.equal(op.responses[s].headers['Retry-After'].required, true, `${operationId} ${s} has Retry-After`);
    const idem = (op.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
    assert.equal(Boolean(idem?.required), operationId.startsWith('create'), `${operationId}: Idempotency-Key declared on creates only`);
    if (operationId.startsWith('create')) assert.ok(op.responses['201'].headers['Idempotent-Replayed']);
  }
  assert.equal(doc.paths['/merchant/payment-orders/{order}/refunds'].get.operationId, 'listOrderRefunds', 'the refunds of an order are listed');
  for (const path of ['/merchant/payment-orders', '/merchant/payouts']) {
    const query = doc.paths[path].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
    assert.deepEqual(query.sort(), ['created_from', 'created_to', 'cursor', 'limit', 'status'], `${path}: the list filters of contract §7`);
  }
  // Contract §9: the settlements list has §7's filters but no status; its lines only pages.
  assert.deepEqual(doc.paths['/merchant/settlements'].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort(), ['created_from', 'created_to', 'cursor', 'limit']);
  assert.deepEqual(doc.paths['/merchant/settlements/{settlement}/lines'].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort(), ['cursor', 'limit']);
  assert.deepEqual(Object.keys(doc.components.schemas.SettlementLine.properties).sort(), ['amount_paise', 'fee_paise', 'match', 'net_paise', 'order_id', 'provider_payment_id', 'refund_id', 'tax_paise', 'type']);
  assert.equal(doc.components.schemas.Settlement.properties.net_paise.format, 'int64');
  assert.ok(doc.components.schemas.PaymentOrder.required.includes('settlement'), 'every order answer carries settlement (null until settled)');
  assert.deepEqual(resolve(doc.paths['/merchant/payouts'].get.responses['200'].content['application/json'].schema).required, ['success', 'data', 'next_cursor', 'request_id']);
  assert.equal(resolve(doc.paths['/merchant/payment-orders/{order}/refunds'].post.requestBody.content['application/json'].schema).properties.reason.maxLength, 255);
  // Contract §7: every order, payout and refund says whether it is live.
  for (const name of ['PaymentOrder', 'Payout', 'Refund']) {
    const schema = doc.components.schemas[name];
    assert.equal(schema.properties.livemode.type, 'boolean', `${name} documents livemode`);
    assert.ok(schema.required.includes('livemode'), `${name} requires livemode`);
  }
  // The request rules a generator would lose are whole request types (issue 31): INTENT needs the customer.
  const union = resolve(doc.paths['/merchant/payment-orders'].post.requestBody.content['application/json'].schema);
  assert.deepEqual(union.oneOf.map((r: any) => r.$ref), ['#/components/schemas/CheckoutPaymentOrderRequest', '#/components/schemas/IntentPaymentOrderRequest']);
  const body = doc.components.schemas.CheckoutPaymentOrderRequest;
  const intent = doc.components.schemas.IntentPaymentOrderRequest;
  assert.equal(body.additionalProperties, false);
  assert.deepEqual(body.required.sort(), ['amount_paise', 'purpose']);
  assert.equal(body.properties.amount_paise.minimum, 100);
  assert.equal(body.properties.amount_paise.maximum, 10_000_000_000);
  assert.deepEqual(intent.properties.response_mode.enum, ['INTENT']);
  for (const f of ['customer_phone', 'customer_name', 'customer_email', 'customer_consent', 'response_mode']) assert.ok(intent.required.includes(f), `INTENT needs ${f}`);
  assert.ok(body.allOf.some((r: any) => r.if?.required?.includes('callback_url')), 'callback_url together with callback_secret');
  assert.match(body.properties.callback_url.pattern, /^\^\[Hh\]/);
  const payout = resolve(doc.paths['/merchant/payouts'].post.requestBody.content['application/json'].schema);
  assert.equal(payout.oneOf.length, 2, 'beneficiary_id XOR beneficiary');
  const [saved, inline] = payout.oneOf.map(resolve);
  assert.ok(saved.required.includes('beneficiary_id') && saved.properties.beneficiary === false && saved.additionalProperties === false);
  assert.ok(inline.required.includes('beneficiary') && inline.properties.beneficiary_id === false && inline.additionalProperties === false);
  assert.ok(resolve(doc.paths['/merchant/payouts'].post.responses['201'].content['application/json'].schema).properties.approval_required);
});

test('named components: both next_action variants, payout with attempts, beneficiary, the error envelope with the catalogue', () => {
  const s = doc.components.schemas;
  for (const name of ['PaymentOrder', 'HostedCheckoutAction', 'UpiIntentAction', 'Payout', 'PayoutAttempt', 'Beneficiary', 'InlineBeneficiary', 'ErrorEnvelope', 'ErrorCode']) {
    assert.ok(s[name], name);
  }
  assert.deepEqual(s.PaymentOrder.properties.next_action.oneOf.map((r: any) => r.$ref), ['#/components/schemas/HostedCheckoutAction', '#/components/schemas/UpiIntentAction']);
  assert.equal(s.Payout.properties.attempts.items.$ref, '#/components/schemas/PayoutAttempt');
  assert.deepEqual(s.ErrorCode.enum, [...ERROR_CODES]);
});

test('webhooks: every event kind with its payload and the three signature headers', () => {
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_KINDS, 'test'].sort());
  for (const kind of [...EVENT_KINDS, 'test']) {
    const op = doc.webhooks[kind].post;
    assert.deepEqual(op.parameters.map((p: any) => p.name).sort(), ['X-Service-Event-Id', 'X-Service-Signature', 'X-Service-Timestamp']);
    const payload = resolve(op.requestBody.content['application/json'].schema);
    assert.deepEqual(payload.properties.event.enum, [kind]);
  }
});

test('GET answers are serialised without losing a field: the HTTP body equals the service view', async () => {
  const o = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: key(), body: intentBody({ merchant_order_reference: 'R-1' }) });
  assert.equal(o.status, 201, o.text);
  const got = await ts.api('GET', `/merchant/payment-orders/${o.body.data.order_id}`, { client });
  assert.deepEqual(got.body.data, o.body.data, 'GET shows what the create showed');
  const principal = await ts.svc.ctx.clients.authenticate(client.clientId, `Bearer ${client.secret}`, '127.0.0.1');
  const view = await ts.svc.ctx.paymentOrders.retrieve(principal, o.body.data.id);
  assert.deepEqual(got.body.data, JSON.parse(JSON.stringify(view)));
});

test('the response checker fails an answer that breaks the document', () => {
  const checker = new ResponseChecker(doc);
  const h = new Headers({ 'x-request-id': 'r' });
  const order = { success: true, request_id: 'r', data: { id: '00000000-0000-4000-8000-000000000000' } };
  assert.match(checker.check('GET', '/merchant/payment-orders/x', 200, h, order, '{}').join(), /must have required property/);
  assert.match(checker.check('GET', '/merchant/payment-orders/x', 409, h, {}, '{}').join(), /status not documented/);
  const err = { success: false, request_id: 'r', error: { code: 'NOT_A_CODE', message: 'm', request_id: 'r' } };
  assert.match(checker.check('GET', '/merchant/payouts/x', 404, h, err, '{}').join(), /must be equal to one of the allowed values/);
  assert.match(checker.check('GET', '/merchant/payouts/x', 429, h, { ...err, error: { ...err.error, code: 'RATE_LIMITED' } }, '{}').join(), /Retry-After missing/);
  assert.match(checker.check('GET', '/no/such/path', 404, h, { success: false }, '{}').join(), /ErrorEnvelope/);
  // A documented header that is there must match its schema.
  const limited = { ...err, error: { ...err.error, code: 'RATE_LIMITED' } };
  assert.match(checker.check('GET', '/merchant/payouts/x', 429, new Headers({ 'x-request-id': 'r', 'retry-after': 'soon' }), limited, '{}').join(), /header Retry-After/);
  assert.match(checker.check('GET', '/merchant/payouts/x', 404, new Headers({ 'x-request-id': 'r', ratelimit: 'remaining=5' }), { ...err, error: { ...err.error, code: 'NOT_FOUND' } }, '{}').join(), /header RateLimit:/);
});

test('request rules in the schema answer in the service\'s words', async () => {
  const payout = (body: unknown) => ts.api('POST', '/merchant/payouts', { client, idempotencyKey: key(), body });
  const both = await payout({ ...payoutBody(10_000), beneficiary_id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(both.status, 422);
  assert.deepEqual(both.body.error.details, [{ field: 'beneficiary', issue: 'exactly one of beneficiary_id and beneficiary is required' }]);
  const neither = await payout({ amount_paise: 10_000, mode: 'IMPS' });
  assert.deepEqual(neither.body.error.details, [{ field: 'beneficiary', issue: 'exactly one of beneficiary_id and beneficiary is required' }]);
  const imps = await payout(payoutBody(50_000_001, { beneficiary: inlineBeneficiary({ mobile: '2212345678' }) }));
  assert.deepEqual(imps.body.error.details, [
    { field: 'amount_paise', issue: 'IMPS allows at most ₹5,00,000.00 (50000000 paise)' },
    { field: 'beneficiary.mobile', issue: 'must be an Indian 10-digit mobile number' },
  ]);
  const order = (body: unknown) => ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: key(), body });
  const intent = await order({ amount_paise: 10_000, purpose: 'x'.repeat(5), response_mode: 'INTENT', customer_consent: false });
  assert.deepEqual(intent.body.error.details.map((d: any) => d.field).sort(), ['customer_consent', 'customer_email', 'customer_name', 'customer_phone']);
  const cb = await order({ amount_paise: 10_000, purpose: 'tea', callback_url: 'http://example.in/hook' });
  assert.deepEqual(cb.body.error.details, [
    { field: 'callback_secret', issue: 'is required together with callback_url' },
    { field: 'callback_url', issue: 'must be an HTTPS URL' },
  ]);
});

test('the console API is in the document: tag console, operationIds, cookie and CSRF security, its own server; the SDK leaves it out', async () => {
  const consolePaths = Object.keys(doc.paths).filter((path) => path.startsWith('/console/api/'));
  assert.ok(consolePaths.length >= 30, `console paths: ${consolePaths.length}`);
  assert.equal(doc.components.securitySchemes.consoleSession.in, 'cookie');
  assert.deepEqual([doc.components.securitySchemes.consoleCsrf.in, doc.components.securitySchemes.consoleCsrf.name], ['header', 'X-CSRF-Token']);
  const ids = new Set<string>();
  for (const path of consolePaths) {
    assert.deepEqual(doc.paths[path].servers.map((s: any) => s.url), ['/'], `${path}: the console is not under /api/v1`);
    for (const [method, op] of Object.entries<any>(doc.paths[path])) {
      if (method === 'servers') continue;
      assert.deepEqual(op.tags, ['console'], `${method} ${path}`);
      assert.match(op.operationId, /^console[A-Z]/, `${method} ${path}`);
      ids.add(op.operationId);
      assert.equal(op.responses['4XX'].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope', `${method} ${path}`);
      const schemes = op.security.flatMap((s: any) => Object.keys(s)).sort();
      const isPublic = ['/console/api/setup', '/console/api/setup/inspect', '/console/api/session/totp', '/console/api/password-reset'].includes(path) || (path === '/console/api/session' && method === 'post');
      const expected = isPublic ? [] : method === 'get' ? ['consoleSession'] : ['consoleCsrf', 'consoleSession'];
      assert.deepEqual(schemes, expected, `${method} ${path}: security`);
    }
  }
  assert.equal(ids.size, consolePaths.reduce((n, path) => n + Object.keys(doc.paths[path]).filter((m) => m !== 'servers').length, 0), 'operationIds are unique');
  const csv = doc.paths['/console/api/payment-orders/export'].get.responses['200'].content;
  assert.ok(csv['text/csv'], 'the export is documented as CSV');
  const signIn = resolve(doc.paths['/console/api/session'].post.requestBody.content['application/json'].schema);
  assert.deepEqual(signIn.required.sort(), ['email', 'password']);

  const merchant: any = merchantDocument(doc);
  assert.deepEqual(Object.keys(merchant.paths).filter((path) => path.startsWith('/console/')), [], 'the SDK types are made without the console');
  assert.deepEqual(Object.keys(merchant.components.securitySchemes).sort(), ['clientId', 'clientSecret']);
  assert.ok(!merchant.tags.some((t: any) => t.name === 'console'));
  assert.ok(doc.paths['/console/api/session'], 'merchantDocument leaves the document it was given as it was');
});

test('exact enough for generators (issue 31): int64 paise, one enum per status, only the errors an operation answers, refunds tag, integer limit', async () => {
  // Every *_paise integer is format int64 (contract §11), in components and in operations.
  const paise: string[] = [];
  const walk = (n: any, path: string): void => {
    if (Array.isArray(n)) return n.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (!n || typeof n !== 'object') return;
    for (const [name, prop] of Object.entries<any>(n.properties ?? {})) {
      if (!name.endsWith('_paise')) continue;
      const ints = [prop, ...(prop.anyOf ?? [])].filter((x: any) => x.type === 'integer');
      for (const i of ints) paise.push(`${path}.${name}:${i.format}`);
    }
    for (const [k, v] of Object.entries(n)) walk(v, `${path}.${k}`);
  };
  walk(doc, '');
  assert.ok(paise.length >= 10, paise.join('\n'));
  assert.deepEqual(paise.filter((p) => !p.endsWith(':int64')), []);
  // One enum, not an anyOf of single values; a wrong status is told every allowed one.
  for (const name of ['PaymentOrderStatus', 'PayoutStatus', 'RefundStatus', 'PayoutMode', 'ResponseMode']) {
    assert.equal(doc.components.schemas[name].type, 'string', name);
    assert.ok(Array.isArray(doc.components.schemas[name].enum) && !doc.components.schemas[name].anyOf, name);
  }
  const status = doc.paths['/merchant/payment-orders'].get.parameters.find((p: any) => p.name === 'status');
  assert.ok(status.schema.enum.includes('PAID'));
  const bad = await ts.api('GET', '/merchant/payment-orders?status=PAYED&created_from=yesterday', { client });
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.error.details.map((d: any) => d.field).sort(), ['created_from', 'status'], 'the parameter names, as the document names them');
  assert.match(bad.body.error.details.find((d: any) => d.field === 'status').issue, /one of AWAITING_CUSTOMER, .*PAID/);
  const order = await ts.api('GET', '/merchant/payment-orders?created_from=2026-12-02T00:00:00Z&created_to=2026-12-01T00:00:00Z', { client });
  assert.equal(order.body.error.details[0].field, 'created_from', 'the same form from the service as from the schema');
  // A 65-character id is a documented 422 on the by-id GETs.
  for (const path of ['/merchant/payment-orders/', '/merchant/payouts/', '/merchant/refunds/']) {
    const r = await ts.api('GET', path + 'x'.repeat(65), { client });
    assert.equal(r.status, 422, path);
    const op = doc.paths[`${path}{${path.includes('orders') ? 'order' : path.includes('payouts') ? 'payout' : 'refund'}}`].get;
    assert.ok(op.responses['422'], `${path} documents 422`);
  }
  // Only codes an operation can answer: no console-only code on a merchant operation.
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    if (path.startsWith('/console/api/')) continue;
    for (const op of Object.values<any>(item)) {
      const text = JSON.stringify(op.responses);
      for (const code of ['SELF_APPROVAL_DENIED', 'DUPLICATE_FILE']) assert.ok(!text.includes(code), `${op.operationId} lists ${code}`);
    }
  }
  assert.ok(!JSON.stringify(doc.paths['/merchant/payment-orders'].post.responses['422']).includes('REFUND_EXCEEDS_AMOUNT'));
  assert.ok(JSON.stringify(doc.paths['/merchant/payment-orders/{order}/refunds'].post.responses['422']).includes('REFUND_EXCEEDS_AMOUNT'));
  assert.ok(doc.tags.some((t: any) => t.name === 'refunds'), 'the refunds tag is declared');
  for (const path of ['/merchant/payment-orders', '/merchant/payouts']) {
    const limit = doc.paths[path].get.parameters.find((p: any) => p.name === 'limit');
    assert.deepEqual([limit.schema.type, limit.schema.minimum, limit.schema.maximum], ['integer', 1, 100]);
  }
});

test('no CORS on the merchant API (server-to-server; the Spectral exception 3 of .spectral.yaml): a browser origin gets no Access-Control-Allow-Origin', async () => {
  const get = await ts.api('GET', '/merchant/payment-orders', { client, headers: { Origin: 'https://shop.example.in' } });
  assert.equal(get.status, 200);
  const preflight = await fetch(`${ts.svc.publicUrl}/api/v1/merchant/payment-orders`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://shop.example.in', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
  });
  await preflight.arrayBuffer();
  assert.notEqual(preflight.status, 204, 'no preflight is granted');
  for (const r of [get.headers, preflight.headers]) {
    assert.equal(r.get('access-control-allow-origin'), null);
    assert.equal(r.get('access-control-allow-headers'), null);
  }
});
