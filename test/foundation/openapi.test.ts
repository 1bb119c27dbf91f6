/** The OpenAPI 3.1 document: every merchant route, its request schema and its documented answers. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
before(async () => {
  ts = await startTestService();
});
after(() => ts.stop());

test('lists every merchant route with request schemas, success status and the error envelope', async () => {
  const doc = (await ts.api('GET', '/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  const expect: Record<string, [string, string]> = {
    '/merchant/payment-orders': ['post', '201'],
    '/merchant/payment-orders/{order}': ['get', '200'],
    '/merchant/payment-orders/{order}/cancel': ['post', '200'],
    '/merchant/payouts': ['post', '201'],
    '/merchant/payouts/{payout}': ['get', '200'],
    '/merchant/payment-orders/{order}/refunds': ['post', '201'],
    '/merchant/refunds/{refund}': ['get', '200'],
  };
  assert.deepEqual(Object.keys(doc.paths).sort(), Object.keys(expect).sort(), 'no internal or checkout route is published');
  for (const [path, [method, status]] of Object.entries(expect)) {
    const op = doc.paths[path][method];
    assert.ok(op, `${method} ${path}`);
    assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
    assert.ok(op.responses['4XX'], `${method} ${path} documents its errors`);
    // Contract §7: every order and payout says whether it is live.
    const data = op.responses[status].content['application/json'].schema.properties.data;
    assert.equal(data.properties.livemode.type, 'boolean', `${method} ${path} documents data.livemode`);
    assert.ok(data.required.includes('livemode'));
  }
  assert.ok(doc.paths['/merchant/payment-orders/{order}/refunds'].get.responses['200'], 'the refunds of an order are listed');
  const refundBody = doc.paths['/merchant/payment-orders/{order}/refunds'].post.requestBody.content['application/json'].schema;
  assert.equal(refundBody.properties.reason.maxLength, 255);
  const create = doc.paths['/merchant/payment-orders'].post;
  const body = create.requestBody.content['application/json'].schema;
  assert.equal(body.additionalProperties, false);
  assert.deepEqual(body.required.sort(), ['amount_paise', 'purpose']);
  assert.equal(body.properties.amount_paise.minimum, 100);
  assert.equal(body.properties.amount_paise.maximum, 10_000_000_000);
  const payout = doc.paths['/merchant/payouts'].post.responses['201'].content['application/json'].schema;
  assert.ok(payout.properties.approval_required);
});
