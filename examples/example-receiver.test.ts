/** The example receiver of docs/callbacks.md does what the documentation says. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { poll } from '../../test/support/poll.js';
import { createCallbackReceiver } from './example-receiver.js';
import { callbackHeaders } from './signature.js';

const PAYIN = 'whsec_payin_example';
const PAYOUT = 'whsec_payout_example';
const orders: Record<string, Record<string, unknown>> = {
  ord_paid: { order_id: 'ord_paid', status: 'PAID', provider_status: 'SUCCESS', amount_paise: 49900 },
  ord_pending: { order_id: 'ord_pending', status: 'PENDING_PAYMENT', provider_status: 'PENDING', amount_paise: 49900 },
};
const fulfilled: string[] = [];
const payouts: string[] = [];
const apiCalls: string[] = [];
let base = '';
const api = createServer((req, res) => {
  apiCalls.push(`${req.headers['x-service-client-id']} ${req.url}`);
  const order = orders[decodeURIComponent(req.url!.split('/').pop()!)];
  res.writeHead(order ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(order ? { success: true, data: order } : { success: false }));
});
let receiver: Server;

before(async () => {
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  receiver = createCallbackReceiver({
    payinSecret: PAYIN,
    payoutSecret: PAYOUT,
    apiBase: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1`,
    clientId: 'tj_client_x',
    clientSecret: 'tj_secret_x',
    fulfilOrder: async (o) => void fulfilled.push(String(o.order_id)),
    recordPayout: async (p) => void payouts.push(String(p.utr)),
    log: () => {},
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
after(() => {
  api.close();
  receiver.close();
});

function post(path: string, secret: string, event: Record<string, unknown>, eventId = String(event.event_id)) {
  const body = JSON.stringify(event);
  return fetch(base + path, { method: 'POST', headers: callbackHeaders({ eventId, secret, rawBody: body }), body });
}
/** The receiver answers 200 first and works after: wait (up to 5 s) until its work shows. */
const until = (what: string, done: () => boolean) => poll(async () => done(), { what, timeoutMs: 5_000, stepMs: 10 });
/** For what must NOT happen: a moment in which it would have. */
const settle = () => new Promise((r) => setTimeout(r, 50));

test('collection.received: 200 at once, then the order is retrieved and fulfilled once', async () => {
  const ev = { event: 'collection.received', event_id: '6f1d4b1e-0000-4000-8000-000000000001', created_at: new Date().toISOString(), data: { order_id: 'ord_paid', status: 'PAID', amount_paise: 49900 } };
  assert.equal((await post('/tijori/payin', PAYIN, ev)).status, 200);
  await until('the fulfilment', () => fulfilled.length > 0);
  assert.deepEqual(fulfilled, ['ord_paid']);
  assert.deepEqual(apiCalls, ['tj_client_x /api/v1/payment-orders/ord_paid']);
  assert.equal((await post('/tijori/payin', PAYIN, ev)).status, 200, 'a replay is acknowledged ...');
  await settle();
  assert.deepEqual(fulfilled, ['ord_paid'], '... and not processed again');
});

test('an order the API does not confirm is not fulfilled', async () => {
  const ev = { event: 'collection.received', event_id: '6f1d4b1e-0000-4000-8000-000000000002', data: { order_id: 'ord_pending', status: 'PAID', amount_paise: 49900 } };
  assert.equal((await post('/tijori/payin', PAYIN, ev)).status, 200);
  await until('the look-up of the order', () => apiCalls.some((c) => c.endsWith('/ord_pending')));
  await settle();
  assert.ok(!fulfilled.includes('ord_pending'));
});

test('wrong secret, wrong path secret and tampered event id are 401; unknown paths 404', async () => {
  const ev = { event: 'payout.success', event_id: '6f1d4b1e-0000-4000-8000-000000000003', data: { utr: '123456789012' } };
  assert.equal((await post('/tijori/payout', 'whsec_wrong', ev)).status, 401);
  assert.equal((await post('/tijori/payin', PAYOUT, ev)).status, 401);
  assert.equal((await post('/tijori/payout', PAYOUT, ev, '6f1d4b1e-0000-4000-8000-00000000000f')).status, 401);
  assert.equal((await post('/elsewhere', PAYOUT, ev)).status, 404);
  assert.equal((await post('/tijori/payout', PAYOUT, ev)).status, 200);
  await until('the payout record', () => payouts.length > 0);
  assert.deepEqual(payouts, ['123456789012']);
});
