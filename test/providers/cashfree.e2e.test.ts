/**
 * Cashfree PG end to end (contract §8, issue 22): the real service with a cashfree provider account
 * whose base_url is the Cashfree simulator (test/providers/cashfree-simulator.ts). Orders are
 * issued at the simulator, paid / failed / expired there, confirmed by its signed webhooks or by
 * the status check, and refunded; late and mismatched payments go to review; forged, stale and
 * duplicate webhooks change nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RunningTestClock } from '../../src/clock.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { createOrder, eventsOf, forceExpiry, intentBody, itemsOnceThere, key, orderRow, reviewItems, settled, waitFor } from '../refunds/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { CashfreeSimulator, collectThroughSimulator, signWebhook } from './cashfree-simulator.js';

const CLIENT_ID = 'TEST1000sim';
const CLIENT_SECRET = 'cfsk_ma_test_simulated_secret_0001';
let t: TestService;
let client: TestClient;
let sim: CashfreeSimulator;
let accountId: string;
// Real time for the rest of the file; the rate-limit window is jumped over instead of slept through.
const clock = new RunningTestClock();

before(async () => {
  sim = new CashfreeSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  await sim.start();
  t = await startTestService({ ...FAST_PAYOUT_ENV, PROVIDER_TIMEOUT_MS: '1500' }, { clock });
  client = await t.createClient({ rateLimit: 100_000 });
  assert.equal((await t.admin('POST', `/orgs/${client.orgId}/settings`, { refund_review: 'none' })).status, 200);
  const added = await collectThroughSimulator(t, client.orgId, sim, { name: 'Cashfree (simulator)', config: { api_version: '2025-01-01' } });
  accountId = added.accountId;
  assert.equal(added.callbackUrl, `${t.svc.internalUrl}/provider/${accountId}/callbacks`);
});
after(async () => {
  await t?.stop();
  await sim?.stop();
});

const getOrder = (id: string) => t.api('GET', `/merchant/payment-orders/${id}`, { client });
const statusOnceIs = (id: string, status: string) => waitFor(async () => ((await orderRow(t, id)).status === status ? true : null), 10_000);
const eventCount = async () => Number((await t.database.db.query("SELECT count(*) AS n FROM provider_events")).rows[0]!.n);

test('an INTENT order is created at Cashfree with exact decimal rupees and its upi:// intent is returned byte for byte', async () => {
  const before = sim.requests.length;
  const o = await createOrder(t, client, intentBody({ amount_paise: 49_900 }));
  const calls = sim.requests.slice(before);
  const create = calls.find((r) => r.method === 'POST' && r.path === '/pg/orders')!;
  assert.match(create.body, /"order_amount":499\.00[,}]/);
  assert.equal(create.headers['x-client-id'], CLIENT_ID);
  assert.equal(create.headers['x-client-secret'], CLIENT_SECRET);
  assert.equal(create.headers['x-api-version'], '2025-01-01');
  assert.equal(create.headers['x-idempotency-key'], `${o.order_id}-order`);
  const sent = JSON.parse(create.body);
  assert.equal(sent.order_id, o.order_id);
  assert.deepEqual(sent.customer_details, { customer_id: o.order_id, customer_phone: '9876543210', customer_email: 'asha@example.in', customer_name: 'Asha Rao' });
  const pay = calls.find((r) => r.path === '/pg/orders/sessions')!;
  assert.deepEqual(JSON.parse(pay.body).payment_method, { upi: { channel: 'link' } });
  assert.equal(pay.headers['x-client-secret'], undefined, 'Order Pay authenticates by the session only');
  const attempt = sim.attempt(o.order_id);
  const issued = `upi://pay?pa=cashfree.sim@yesbank&pn=Sim%20Merchant&tr=${attempt.cf_payment_id}&am=499.00&cu=INR&mode=00&purpose=00&mc=5732&tn=Order%20%231002`;
  assert.equal(o.next_action.upi_uri, issued);
  assert.equal(o.upi_intent, issued);
  assert.equal(o.livemode, false);
  const row = await orderRow(t, o.id);
  assert.equal(row.provider, 'cashfree');
  assert.equal(row.provider_account_id, accountId);
  assert.equal(row.provider_reference, String(attempt.cf_payment_id));
});

test('paid at Cashfree, confirmed by its signed webhook: PAID with the UTR; the same webhook again is a duplicate', async () => {
  const o = await createOrder(t, client, intentBody({ amount_paise: 120_050 }));
  const sent = await sim.decide(o.order_id, 'SUCCESS', { utr: '234928698581' });
  assert.equal(sent!.status, 200);
  await statusOnceIs(o.id, 'PAID');
  assert.equal((await orderRow(t, o.id)).bank_transaction_id, '234928698581');
  const again = await sim.sendWebhook(sent!.rawBody);
  assert.equal(again.status, 200);
  await settled(t, o.order_id);
  assert.equal((await eventsOf(t, o.id, 'collection.received')).length, 1);
});

test('paid without a webhook: the GET live check reads GET /orders/{id}/payments and the SUCCESS attempt wins', async () => {
  const o = await createOrder(t, client, intentBody({ amount_paise: 1_000 }));
  await sim.decide(o.order_id, 'SUCCESS', { utr: '111122223333', webhook: false });
  const got = await waitFor(async () => {
    const r = await getOrder(o.id);
    return r.body.data.status === 'PAID' ? r.body.data : null;
  }, 10_000);
  assert.equal(got.bank_transaction_id ?? (await orderRow(t, o.id)).bank_transaction_id, '111122223333');
  assert.ok(sim.requests.some((r) => r.method === 'GET' && r.path === `/pg/orders/${o.order_id}/payments`));
});

test('a failed payment (webhook) fails the order; nothing is received', async () => {
  const o = await createOrder(t, client, intentBody());
  assert.equal((await sim.decide(o.order_id, 'FAILED'))!.status, 200);
  await statusOnceIs(o.id, 'FAILED');
  assert.deepEqual(await eventsOf(t, o.id, 'collection.received'), []);
});

test('an unpaid order expires after the final status check at Cashfree', async () => {
  const o = await createOrder(t, client, intentBody());
  const checks = sim.requests.length;
  assert.equal(await forceExpiry(t, o.id), 'expired');
  assert.ok(sim.requests.slice(checks).some((r) => r.path === `/pg/orders/${o.order_id}/payments`));
  assert.equal((await orderRow(t, o.id)).status, 'EXPIRED');
});

test('a payment that succeeds after the order expired goes to the review queue, never PAID', async () => {
  const o = await createOrder(t, client, intentBody());
  assert.equal(await forceExpiry(t, o.id), 'expired');
  sim.expire(o.order_id);
  await sim.decide(o.order_id, 'SUCCESS', { utr: '555566667777' });
  const items = await itemsOnceThere(t, o.id);
  assert.equal(items.length, 1);
  assert.equal(items[0]!.reported.utr, '555566667777');
  assert.equal((await orderRow(t, o.id)).status, 'EXPIRED');
});

test('a success for another amount is a mismatch: review, not PAID', async () => {
  const o = await createOrder(t, client, intentBody({ amount_paise: 50_000 }));
  await sim.decide(o.order_id, 'SUCCESS', { utr: '999988887777', amountPaise: 100 });
  const items = await itemsOnceThere(t, o.id);
  assert.equal(items[0]!.kind, 'confirmation_mismatch');
  assert.equal(items[0]!.reported.amount_paise, 100);
  assert.equal((await orderRow(t, o.id)).status, 'PENDING_PAYMENT');
});

test('forged, stale and unsigned webhooks: 401 and nothing recorded', async () => {
  const o = await createOrder(t, client, intentBody());
  const p = sim.attempt(o.order_id);
  p.payment_status = 'SUCCESS';
  p.bank_reference = '123123123123';
  const body = sim.paymentWebhookBody(sim.orders.get(o.order_id)!, p);
  const n = await eventCount();
  assert.equal((await sim.sendWebhook(body, { secret: 'not-the-secret' })).status, 401);
  const old = String(Date.now() - 301_000);
  assert.equal((await sim.sendWebhook(body, { timestamp: old })).status, 401, 'a correct signature over a timestamp 301 s old is stale');
  assert.equal((await sim.sendWebhook(body, { signature: '' })).status, 401);
  // The signed bytes re-serialised (499.00 -> 499) no longer verify.
  const ts = String(Date.now());
  const reserialised = JSON.stringify(JSON.parse(body));
  assert.notEqual(reserialised, body);
  assert.equal((await sim.sendWebhook(reserialised, { timestamp: ts, signature: signWebhook(CLIENT_SECRET, ts, body) })).status, 401);
  assert.equal(await eventCount(), n);
  assert.equal((await orderRow(t, o.id)).status, 'PENDING_PAYMENT');
});

test('a signed webhook with a status Cashfree never documented moves nothing: 422, counted in /metrics', async () => {
  const o = await createOrder(t, client, intentBody());
  const p = sim.attempt(o.order_id);
  p.payment_status = 'SUCCESS_MAYBE';
  const n = await eventCount();
  assert.equal((await sim.sendWebhook(sim.paymentWebhookBody(sim.orders.get(o.order_id)!, p))).status, 422);
  assert.equal(await eventCount(), n);
  const metrics = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
  assert.match(metrics, /tijori_provider_bad_answers_total\{provider="cashfree",what="unknown_payment_status"\} [1-9]/);
  assert.equal((await orderRow(t, o.id)).status, 'PENDING_PAYMENT');
});

test('a refund is sent with refund_id as its key and completes when Cashfree settles it', async () => {
  const o = await createOrder(t, client, intentBody({ amount_paise: 20_000 }));
  await sim.decide(o.order_id, 'SUCCESS', { utr: '444455556666' });
  await statusOnceIs(o.id, 'PAID');
  const r = await t.api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client, body: { amount_paise: 5_005 }, idempotencyKey: key() });
  assert.equal(r.status, 201, r.text);
  const refundId = r.body.data.refund_id as string;
  const sent = await waitFor(async () => sim.requests.find((q) => q.method === 'POST' && q.path === `/pg/orders/${o.order_id}/refunds`) ?? null, 10_000);
  assert.match(sent.body, /"refund_amount":50\.05[,}]/);
  assert.equal(JSON.parse(sent.body).refund_id, refundId);
  assert.equal(sent.headers['x-idempotency-key'], refundId);
  // Pending at Cashfree: the refund worker inquires GET /orders/{id}/refunds/{refund_id} until it settles.
  sim.settleRefund(o.order_id, refundId, 'SUCCESS');
  const done = await waitFor(async () => {
    const g = await t.api('GET', `/merchant/refunds/${r.body.data.id}`, { client });
    return g.body.data?.status === 'COMPLETED' ? g.body.data : null;
  }, 15_000);
  assert.equal(done.amount_paise, 5_005);
  assert.equal(sim.orders.get(o.order_id)!.refunds.length, 1, 'one refund at Cashfree, however often it was inquired');
  // The ledger (contract §9) keeps both under the Cashfree account the order was issued with.
  const entries = await t.database.db.query<{ kind: string; provider_account_id: string; receivable: number }>(
    `SELECT e.kind, e.provider_account_id::text, p.amount_paise AS receivable FROM ledger_entries e
       JOIN ledger_postings p ON p.entry_id = e.id AND p.account = 'collections_receivable'
      WHERE e.source_id IN ($1, $2) ORDER BY e.kind`,
    [o.id, r.body.data.id],
  );
  assert.deepEqual(entries.rows, [
    { kind: 'collection_confirmed', provider_account_id: accountId, receivable: 20_000 },
    { kind: 'refund_completed', provider_account_id: accountId, receivable: -5_005 },
  ]);
  const v = await t.admin('GET', `/orgs/${client.orgId}/ledger/verify`);
  assert.deepEqual({ balanced: v.body.data.balanced, mismatches: v.body.data.mismatches }, { balanced: true, mismatches: [] });
});

test('Cashfree 5xx and 429 on create: 503 to the merchant; after a 429 no call is made until x-ratelimit-retry has passed', async () => {
  sim.inject(/^POST \/pg\/orders$/, { kind: 'status', status: 502 });
  const first = await t.api('POST', '/merchant/payment-orders', { client, body: intentBody(), idempotencyKey: key() });
  assert.equal(first.status, 503);
  sim.inject(/^POST \/pg\/orders$/, { kind: 'status', status: 429, headers: { 'x-ratelimit-retry': '2' } });
  const limited = await t.api('POST', '/merchant/payment-orders', { client, body: intentBody(), idempotencyKey: key() });
  assert.equal(limited.status, 503);
  const calls = sim.requests.length;
  const blocked = await t.api('POST', '/merchant/payment-orders', { client, body: intentBody(), idempotencyKey: key() });
  assert.equal(blocked.status, 503);
  assert.equal(sim.requests.length, calls, 'no call inside the retry window');
  const metrics = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
  assert.match(metrics, /tijori_provider_rate_limited_total\{provider="cashfree"\} [1-9]/);
  // The service's clock moved past the 2 s window (the rest of the file runs on real time).
  clock.advance(2_000);
  const later = await createOrder(t, client, intentBody());
  assert.equal(later.status, 'PENDING_PAYMENT');
});

test('provider list shows the account without a credential; an unknown account id at the intake is 404', async () => {
  const list = await t.admin('GET', `/orgs/${client.orgId}/provider-accounts`);
  assert.deepEqual(list.body.data, [{ provider_account_id: accountId, provider: 'cashfree', name: 'Cashfree (simulator)', livemode: false }]);
  assert.doesNotMatch(list.text, new RegExp(CLIENT_SECRET));
  const stored = (await t.database.db.query('SELECT config_enc FROM provider_accounts WHERE id = $1', [accountId])).rows[0]!.config_enc as Buffer;
  assert.equal(stored.includes(Buffer.from(CLIENT_SECRET)), false, 'the secret is stored encrypted');
  const res = await fetch(`${t.svc.internalUrl}/provider/00000000-0000-4000-8000-000000000000/callbacks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 404);
  assert.deepEqual(await reviewItems(t, '00000000-0000-4000-8000-000000000000'), []);
});
