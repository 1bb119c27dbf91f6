/**
 * The whole path with real resources: a merchant creates orders and payouts through the API, the
 * sandbox PSP and bank decide them, and the merchant's HTTPS receiver gets the events of API §6.3
 * with the payloads of §6.4, signed per destination (verified with the reference verifier).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { eventually, setDestination, startTrustedReceiver, type TrustedReceiver } from './helpers.js';

let r: TrustedReceiver;
let ts: TestService;
let client: TestClient;
const ORDER_SECRET = 'merchant-order-callback-secret-0123456789';

before(async () => {
  r = await startTrustedReceiver();
  ts = await startTestService({ ...r.env, ...FAST_PAYOUT_ENV });
  client = await ts.createClient({});
  r.secrets['/payin'] = (await setDestination(ts, client.orgId, 'payin', r.rx.url('/payin'))).body.data.signing_secret;
  r.secrets['/payout'] = (await setDestination(ts, client.orgId, 'payout', r.rx.url('/payout'))).body.data.signing_secret;
  r.secrets['/order'] = ORDER_SECRET;
  const bankConnection = await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] });
  assert.equal(bankConnection.status, 201);
});
after(async () => {
  await ts.stop();
  await r.close();
});

function received(path: string, kind: string, match: (data: any) => boolean) {
  return r.rx.received.filter((q) => {
    if (q.path !== path) return false;
    const body = JSON.parse(q.rawBody.toString('utf8'));
    return body.event === kind && match(body.data);
  });
}

test('a paid order: collection.received at the PayIn destination and the order’s callback_url, §6.4 payload', async () => {
  const created = await ts.api('POST', '/merchant/payment-orders', {
    client,
    idempotencyKey: randomUUID(),
    body: {
      amount_paise: 123_456,
      purpose: 'Invoice 77',
      merchant_order_reference: 'INV-77',
      response_mode: 'INTENT',
      customer_name: 'Asha Rao',
      customer_email: 'asha@example.com',
      customer_phone: '9876543210',
      customer_consent: true,
      callback_url: r.rx.url('/order'),
      callback_secret: ORDER_SECRET,
    },
  });
  assert.equal(created.status, 201, created.text);
  const order = created.body.data;
  const paid = await ts.admin('POST', `/sandbox/payment-orders/${order.order_id}/pay`, { utr: '123412341234' });
  assert.ok(paid.status < 300, paid.text);

  const got = await eventually(async () => {
    const a = received('/payin', 'collection.received', (d) => d.order_id === order.order_id);
    const b = received('/order', 'collection.received', (d) => d.order_id === order.order_id);
    return a.length >= 1 && b.length >= 1 ? [a[0]!, b[0]!] : null;
  }, 10_000, 'collection.received at both destinations');
  for (const q of got) {
    assert.equal(q.verification?.ok, true, `${q.path}: signature verifies with that destination's secret`);
    const body = JSON.parse(q.rawBody.toString('utf8'));
    assert.deepEqual(Object.keys(body).sort(), ['created_at', 'data', 'event', 'event_id']);
    assert.equal(q.headers['x-service-event-id'], body.event_id);
    assert.deepEqual(Object.keys(body.data).sort(), ['amount_paise', 'bank_transaction_id', 'confirmed_at', 'currency', 'livemode', 'merchant_order_reference', 'order_id', 'provider_status', 'status'].sort());
    assert.equal(body.data.livemode, false, 'a sandbox order is not live (contract §7)');
    assert.equal(body.data.status, 'PAID');
    assert.equal(body.data.provider_status, 'SUCCESS');
    assert.equal(body.data.amount_paise, 123_456);
    assert.equal(body.data.currency, 'INR');
    assert.equal(body.data.bank_transaction_id, '123412341234');
    assert.equal(body.data.merchant_order_reference, 'INV-77');
    assert.match(body.data.confirmed_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  }
  // The same event id at both destinations, and the body byte-identical.
  assert.equal(got[0]!.headers['x-service-event-id'], got[1]!.headers['x-service-event-id']);
  assert.equal(got[0]!.rawBody.toString('utf8'), got[1]!.rawBody.toString('utf8'));
});

test('payouts: payout.created then payout.success (§6.4, masked beneficiary); a rejected payout: payout.failed', async () => {
  const ok = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(250_000, { client_reference: 'E2E-OK' }) });
  assert.equal(ok.status, 201, ok.text);
  const failed = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(250_013, { client_reference: 'E2E-13' }) });
  assert.equal(failed.status, 201, failed.text);
  const okId = ok.body.data.transaction_id;
  const failId = failed.body.data.transaction_id;

  const success = await eventually(async () => received('/payout', 'payout.success', (d) => d.transaction_id === okId)[0] ?? null, 15_000, 'payout.success');
  const created = received('/payout', 'payout.created', (d) => d.transaction_id === okId)[0];
  assert.ok(created, 'payout.created delivered');
  assert.equal(JSON.parse(created.rawBody.toString('utf8')).data.status, 'PROCESSING');
  assert.equal(success.verification?.ok, true);
  const data = JSON.parse(success.rawBody.toString('utf8')).data;
  assert.deepEqual(
    Object.keys(data).sort(),
    ['amount_paise', 'bank_reference', 'beneficiary', 'client_reference', 'currency', 'livemode', 'mode', 'payout_id', 'processed_at', 'status', 'transaction_id', 'utr'].sort(),
  );
  assert.equal(data.status, 'SUCCESS');
  assert.match(data.utr, /^\d{12}$/);
  assert.deepEqual(Object.keys(data.beneficiary).sort(), ['account_number_last4', 'bank_name', 'id', 'ifsc', 'name']);
  assert.equal(data.beneficiary.account_number_last4, '9012');

  const failedEvent = await eventually(async () => received('/payout', 'payout.failed', (d) => d.transaction_id === failId)[0] ?? null, 15_000, 'payout.failed');
  const fd = JSON.parse(failedEvent.rawBody.toString('utf8')).data;
  assert.equal(fd.status, 'FAILED');
  assert.equal(typeof fd.failure_reason, 'string');

  // Contract §7: every payload's data says livemode, false on the sandbox.
  for (const q of r.rx.received) assert.equal(JSON.parse(q.rawBody.toString('utf8')).data.livemode, false, q.rawBody.toString('utf8'));
  // No full account number in any delivery, to any destination.
  for (const q of r.rx.received) assert.ok(!q.rawBody.toString('utf8').includes('123456789012'), 'full account number never leaves the service');
  // Collections never reach the PayOut destination, payouts never the PayIn one.
  assert.ok(r.rx.received.filter((q) => q.path === '/payin').every((q) => JSON.parse(q.rawBody.toString('utf8')).event.startsWith('collection.')));
  assert.ok(r.rx.received.filter((q) => q.path === '/payout').every((q) => JSON.parse(q.rawBody.toString('utf8')).event.startsWith('payout.')));
});
