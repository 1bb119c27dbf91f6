/**
 * Bad input from a provider never moves money state: it is logged, counted in /metrics, recorded
 * (provider_anomalies, migration 0028) and surfaced in the console (issue #22). End to end through
 * the real service with a cashfree account on the Cashfree simulator and a razorpayx account on
 * the RazorpayX simulator: each signed webhook below carries an unknown status, a success without
 * its UTR, an amount in another format or a body that does not parse; each is refused or ignored
 * without a state move, the metric grows, the row is there (masked excerpt, the order or payout
 * it concerns), and the console API lists it to admins and developers (a viewer: 403).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPayout, payoutBody, waitFor } from '../payout/helpers.js';
import { createOrder, intentBody, orderRow } from '../refunds/helpers.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { CashfreeSimulator, collectThroughSimulator } from './cashfree-simulator.js';
import { RazorpayXSimulator } from './razorpayx-simulator.js';

const CLIENT_ID = 'TEST1000anomaly';
const CLIENT_SECRET = 'cfsk_ma_test_anomaly_secret_0001';
let t: TestService;
let client: TestClient;
let cf: CashfreeSimulator;
let rzp: RazorpayXSimulator;
let cfAccount = '';
let rzpAccount = '';
let bankConnectionId = '';
let admin: ConsoleCaller;
let developer: ConsoleCaller;
let viewer: ConsoleCaller;

before(async () => {
  cf = new CashfreeSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  await cf.start();
  rzp = await new RazorpayXSimulator().start();
  // Payouts are submitted at once but not inquired during the test (first inquiry after 10 min):
  // every anomaly here comes from the webhook the test sends, none from a background inquiry.
  t = await startTestService({ PROVIDER_TIMEOUT_MS: '1500', PAYOUT_WORKER_INTERVAL_MS: '100', PAYOUT_INQUIRY_BASE_MS: '600000', PAYOUT_INQUIRY_MAX_MS: '600000' });
  client = await t.createClient({ rateLimit: 100_000 });
  cfAccount = (await collectThroughSimulator(t, client.orgId, cf, { name: 'Cashfree (simulator)', config: { api_version: '2025-01-01' } })).accountId;
  const rzpAdded = await t.admin('POST', '/provider-accounts', { org: client.orgId, provider: 'razorpayx', config: rzp.config(), name: 'RazorpayX (simulator)' });
  assert.equal(rzpAdded.status, 201, rzpAdded.text);
  rzpAccount = rzpAdded.body.data.provider_account_id;
  const route = await t.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT'], provider_account: rzpAccount });
  assert.equal(route.status, 201, route.text);
  bankConnectionId = route.body.data.bank_connection_id;
  admin = await signedInUser(t, client.orgId, 'anomaly-admin@example.com', 'admin');
  developer = await signedInUser(t, client.orgId, 'anomaly-dev@example.com', 'developer');
  viewer = await signedInUser(t, client.orgId, 'anomaly-viewer@example.com', 'viewer');
});
after(async () => {
  await t?.stop();
  await cf?.stop();
  await rzp?.stop();
});

async function metric(provider: string, kind: string): Promise<number> {
  const text = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
  const m = text.match(new RegExp(`^tijori_provider_anomalies_total\\{provider="${provider}",kind="${kind}"\\} (\\d+)`, 'm'));
  return m ? Number(m[1]) : 0;
}
const providerEvents = async () => Number((await t.database.db.query('SELECT count(*) AS n FROM provider_events')).rows[0]!.n);
async function rows(where: string, params: unknown[]): Promise<Array<Record<string, any>>> {
  return (await t.database.db.query(`SELECT provider_account_id, provider, kind, operation, resource_type, resource_ref, excerpt FROM provider_anomalies WHERE ${where} ORDER BY created_at, id`, params)).rows;
}

test('Cashfree: an unknown status, a success without a UTR and an amount as a string: 422, the order unmoved, counted, recorded, on the console', async () => {
  const o = await createOrder(t, client, intentBody({ amount_paise: 49_900 }));
  const order = cf.orders.get(o.order_id)!;
  const p = cf.attempt(o.order_id);
  const events = await providerEvents();

  const unknownBefore = await metric('cashfree', 'unknown_payment_status');
  p.payment_status = 'SUCCESS_MAYBE';
  p.bank_reference = '234928698581';
  assert.equal((await cf.sendWebhook(cf.paymentWebhookBody(order, p))).status, 422);
  assert.equal(await metric('cashfree', 'unknown_payment_status'), unknownBefore + 1);

  const utrBefore = await metric('cashfree', 'missing_utr');
  p.payment_status = 'SUCCESS';
  p.bank_reference = null;
  assert.equal((await cf.sendWebhook(cf.paymentWebhookBody(order, p))).status, 422);
  assert.equal(await metric('cashfree', 'missing_utr'), utrBefore + 1);

  const amountBefore = await metric('cashfree', 'bad_amount');
  p.bank_reference = '234928698581';
  const withNumber = cf.paymentWebhookBody(order, p);
  const withString = withNumber.replace('"payment_amount":499.00', '"payment_amount":"499.00"');
  assert.notEqual(withString, withNumber, 'the amount is sent as a string');
  assert.equal((await cf.sendWebhook(withString)).status, 422);
  assert.equal(await metric('cashfree', 'bad_amount'), amountBefore + 1);

  // No state moved: the order is open, nothing was stored for the worker.
  const row = await orderRow(t, o.id);
  assert.equal(row.status, 'PENDING_PAYMENT');
  assert.equal(row.bank_transaction_id, null);
  assert.equal(await providerEvents(), events);

  const recorded = await rows('resource_ref = $1', [o.order_id]);
  assert.deepEqual(
    recorded.map((r) => [r.provider_account_id, r.provider, r.kind, r.operation, r.resource_type]),
    [
      [cfAccount, 'cashfree', 'unknown_payment_status', 'webhook', 'payment_order'],
      [cfAccount, 'cashfree', 'missing_utr', 'webhook', 'payment_order'],
      [cfAccount, 'cashfree', 'bad_amount', 'webhook', 'payment_order'],
    ],
  );
  assert.match(recorded[0]!.excerpt, /payment_status="SUCCESS_MAYBE"/);
  assert.match(recorded[1]!.excerpt, /bank_reference=null/);
  assert.match(recorded[2]!.excerpt, /payment_amount="499\.00"/);
  for (const r of recorded) {
    assert.doesNotMatch(r.excerpt, /payer@okaxis|okaxis/, 'never the payer VPA');
    assert.doesNotMatch(r.excerpt, new RegExp(CLIENT_SECRET));
  }

  // The console: the order's page list (admin and developer), the account's list; a viewer is refused.
  for (const who of [admin, developer]) {
    const listed = await who.call('GET', `/provider-anomalies?payment_order=${encodeURIComponent(o.order_id)}`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.data.map((a: any) => a.kind), ['bad_amount', 'missing_utr', 'unknown_payment_status'], 'newest first');
    assert.deepEqual(listed.body.data[0].resource, { type: 'payment_order', ref: o.order_id });
  }
  const ofAccount = await admin.call('GET', `/provider-anomalies?provider_account_id=${cfAccount}`);
  assert.ok(ofAccount.body.data.some((a: any) => a.kind === 'unknown_payment_status' && a.resource?.ref === o.order_id));
  assert.ok(ofAccount.body.data.every((a: any) => a.provider_account_id === cfAccount));
  const refused = await viewer.call('GET', `/provider-anomalies?payment_order=${encodeURIComponent(o.order_id)}`);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'API_SCOPE_DENIED');
});

test('Cashfree: a signed body that does not parse is 422, counted and recorded without an order; the status check meeting an unknown status records it too', async () => {
  const before = await metric('cashfree', 'webhook_not_json');
  const events = await providerEvents();
  assert.equal((await cf.sendWebhook('{"data": {"order": ')).status, 422);
  assert.equal(await metric('cashfree', 'webhook_not_json'), before + 1);
  assert.equal(await providerEvents(), events);
  const [rec] = await rows("kind = 'webhook_not_json' AND provider_account_id = $1", [cfAccount]);
  assert.equal(rec!.resource_type, null);
  assert.equal(rec!.excerpt, 'body_bytes=19');

  // The GET live check (a polling path) reads an attempt in a status Cashfree never documented.
  const o = await createOrder(t, client, intentBody());
  await cf.decide(o.order_id, 'AUTHORIZED_MAYBE', { webhook: false });
  const got = await t.api('GET', `/merchant/payment-orders/${o.id}`, { client });
  assert.equal(got.status, 200);
  assert.equal(got.body.data.status, 'PENDING_PAYMENT');
  const [fromStatus] = await waitFor('the status-check anomaly', async () => {
    const r = await rows("resource_ref = $1 AND operation = 'status'", [o.order_id]);
    return r.length > 0 ? r : undefined;
  });
  assert.equal(fromStatus!.kind, 'unknown_payment_status');
  const listed = await developer.call('GET', `/provider-anomalies?payment_order=${encodeURIComponent(o.order_id)}`);
  assert.equal(listed.body.data[0].operation, 'status');
});

test('RazorpayX: an unknown status and a processed payout without a UTR are acknowledged and change nothing; a body that does not parse is 422; each is counted, recorded and on the console', async () => {
  const r = await createPayout({ t, client, bankConnectionId }, payoutBody(150_000, { bank_connection_id: bankConnectionId }));
  assert.equal(r.status, 201, r.text);
  const { id, transaction_id: txn } = r.body.data as { id: string; transaction_id: string };
  const p = await waitFor('the payout at the simulator', async () => rzp.payoutsFor(txn)[0]);
  const pout = p.id as string;
  const deliver = (hook: { rawBody: string; headers: Record<string, string> }) =>
    fetch(`${t.svc.internalUrl}/provider/${rzpAccount}/callbacks`, { method: 'POST', headers: hook.headers, body: hook.rawBody });
  const statusOf = async () => (await t.api('GET', `/merchant/payouts/${id}`, { client })).body.data.status as string;
  assert.equal(await statusOf(), 'PROCESSING');

  const unknownBefore = await metric('razorpayx', 'unknown_status');
  rzp.payouts.get(pout)!.status = 'on_hold';
  const unknown = await deliver(rzp.webhookFor(pout, 'payout.updated'));
  assert.equal(unknown.status, 200, 'acknowledged: Razorpay would retry and then disable the webhook');
  assert.equal(await metric('razorpayx', 'unknown_status'), unknownBefore + 1);

  const utrBefore = await metric('razorpayx', 'missing_utr');
  const processed = await deliver(rzp.move(pout, 'processed', { utr: null }));
  assert.equal(processed.status, 200);
  assert.equal(await metric('razorpayx', 'missing_utr'), utrBefore + 1);

  const events = await providerEvents();
  const unparsedBefore = await metric('razorpayx', 'unparseable');
  const garbled = await deliver(rzp.sign('{"event": "payout.processed", "payload": '));
  assert.equal(garbled.status, 422);
  assert.equal(await metric('razorpayx', 'unparseable'), unparsedBefore + 1);
  assert.equal(await providerEvents(), events, 'nothing stored for the body that does not parse');

  // Let the worker process what was stored (the missing-UTR event is PENDING news): still no success.
  await waitFor('the stored events to be processed', async () => {
    const r2 = await t.database.db.query("SELECT 1 FROM provider_events WHERE reference = $1 AND state <> 'processed'", [txn]);
    return r2.rowCount === 0 ? true : undefined;
  });
  assert.equal(await statusOf(), 'PROCESSING');
  const payout = (await t.database.db.query('SELECT status, utr FROM payouts WHERE id = $1', [id])).rows[0]!;
  assert.deepEqual(payout, { status: 'PROCESSING', utr: null });

  const recorded = await rows('resource_ref = $1', [txn]);
  assert.deepEqual(
    recorded.map((x) => [x.provider_account_id, x.provider, x.kind, x.operation, x.resource_type]),
    [
      [rzpAccount, 'razorpayx', 'unknown_status', 'webhook', 'payout'],
      [rzpAccount, 'razorpayx', 'missing_utr', 'webhook', 'payout'],
    ],
  );
  assert.match(recorded[0]!.excerpt, /provider_status="on_hold"/);
  assert.match(recorded[0]!.excerpt, new RegExp(`payout_id="${pout}"`));
  const garbledRow = (await rows("kind = 'unparseable' AND provider_account_id = $1 AND operation = 'webhook'", [rzpAccount])).at(-1)!;
  assert.equal(garbledRow.resource_type, null);
  assert.match(garbledRow.excerpt, /body_bytes=41/);
  for (const x of [...recorded, garbledRow]) assert.doesNotMatch(x.excerpt, new RegExp(String(rzp.config().webhook_secret)));

  const listed = await developer.call('GET', `/provider-anomalies?payout=${encodeURIComponent(txn)}`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data.map((a: any) => a.kind), ['missing_utr', 'unknown_status']);
  const ofAccount = await admin.call('GET', `/provider-anomalies?provider_account_id=${rzpAccount}&limit=1`);
  assert.equal(ofAccount.body.data.length, 1);
  assert.equal(typeof ofAccount.body.next_cursor, 'string', 'more than one: a next page');
  const next = await admin.call('GET', `/provider-anomalies?provider_account_id=${rzpAccount}&limit=1&cursor=${ofAccount.body.next_cursor}`);
  assert.equal(next.status, 200);
  assert.notEqual(next.body.data[0].id, ofAccount.body.data[0].id);
  assert.equal((await viewer.call('GET', `/provider-anomalies?payout=${encodeURIComponent(txn)}`)).status, 403);
});

test('RazorpayX: a processed payout whose UTR has not the mode\'s shape: no success, counted, recorded against the account and the payout, on the console', async () => {
  const r = await createPayout({ t, client, bankConnectionId }, payoutBody(160_000, { bank_connection_id: bankConnectionId, mode: 'IMPS' }));
  assert.equal(r.status, 201, r.text);
  const { id, transaction_id: txn } = r.body.data as { id: string; transaction_id: string };
  const p = await waitFor('the payout at the simulator', async () => rzp.payoutsFor(txn)[0]);
  const invalidUtr = async () => {
    const text = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
    return Number(/^tijori_payout_invalid_utr_total (\d+)/m.exec(text)?.[1] ?? 0);
  };
  const before = await invalidUtr();
  const hook = rzp.move(p.id as string, 'processed', { utr: 'NOT-A-UTR' });
  const res = await fetch(`${t.svc.internalUrl}/provider/${rzpAccount}/callbacks`, { method: 'POST', headers: hook.headers, body: hook.rawBody });
  assert.equal(res.status, 200, 'acknowledged: the news is stored, then refused by the payout rules');
  const recorded = await waitFor('the anomaly row', async () => {
    const found = await rows("resource_ref = $1 AND kind = 'invalid_utr'", [txn]);
    return found.length > 0 ? found : undefined;
  });
  assert.deepEqual(
    recorded.map((x) => [x.provider_account_id, x.provider, x.kind, x.operation, x.resource_type]),
    [[rzpAccount, 'razorpayx', 'invalid_utr', 'payout_outcome', 'payout']],
  );
  assert.match(recorded[0]!.excerpt, /utr="NOT-A-UTR"/);
  assert.equal(await invalidUtr(), before + 1);
  const payout = (await t.database.db.query('SELECT status, utr FROM payouts WHERE id = $1', [id])).rows[0]!;
  assert.deepEqual(payout, { status: 'PROCESSING', utr: null }, 'no money state moved');
  const listed = await developer.call('GET', `/provider-anomalies?payout=${encodeURIComponent(txn)}`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data.map((a: any) => a.kind), ['invalid_utr']);
});

test('the provider accounts page API: admins only; an account added in the console is audited and can serve collections', async () => {
  const list = await admin.call('GET', '/provider-accounts');
  assert.equal(list.status, 200, list.text);
  const byId = new Map<string, any>(list.body.data.accounts.map((a: any) => [a.provider_account_id, a]));
  assert.equal(list.body.data.collections_provider_account_id, cfAccount);
  assert.equal(byId.get(cfAccount).serves_collections, true);
  assert.equal(byId.get(cfAccount).callback_url, `${t.svc.internalUrl}/provider/${cfAccount}/callbacks`);
  assert.deepEqual(byId.get(rzpAccount).payout_routes.map((r: any) => r.bank_connection_id), [bankConnectionId]);
  assert.equal(byId.get(rzpAccount).serves_collections, false);
  const c = rzp.config();
  for (const credential of [CLIENT_SECRET, CLIENT_ID, c.key_secret, c.key_id, c.webhook_secret, c.account_number]) {
    assert.ok(!list.text.includes(String(credential)), `no credential, not even an id of one: ${String(credential)}`);
  }
  for (const who of [developer, viewer]) assert.equal((await who.call('GET', '/provider-accounts')).status, 403);
  assert.equal((await developer.call('POST', '/provider-accounts', { provider: 'sandbox', config: {} })).status, 403);

  // The same validation as `tijori provider add`: an unknown key is refused.
  const bad = await admin.call('POST', '/provider-accounts', { provider: 'cashfree', config: { base_url: cf.baseUrl, client_id: 'x', client_secret: 'y', secret_typo: 1 } });
  assert.equal(bad.status, 422, bad.text);
  const added = await admin.call('POST', '/provider-accounts', { provider: 'cashfree', name: 'Second Cashfree', config: { base_url: cf.baseUrl, client_id: CLIENT_ID, client_secret: CLIENT_SECRET } });
  assert.equal(added.status, 201, added.text);
  const newId = added.body.data.provider_account_id as string;
  assert.doesNotMatch(added.text, new RegExp(CLIENT_SECRET));
  // Who entered its credentials does not choose it for collections alone (issue #29 item 4).
  const alone = await admin.call('PUT', '/collections-account', { provider_account_id: newId });
  assert.equal(alone.status, 403, alone.text);
  assert.equal(alone.body.error.code, 'SELF_APPROVAL_DENIED');
  const admin2 = await signedInUser(t, client.orgId, 'anomaly-admin-2@example.com', 'admin');
  const used = await admin2.call('PUT', '/collections-account', { provider_account_id: newId });
  assert.equal(used.status, 200, used.text);
  assert.equal((await admin.call('PUT', '/collections-account', { provider_account_id: rzpAccount })).status, 422, 'a payouts-only account cannot serve collections');
  const audit = await admin.call('GET', '/audit-log?action=provider_account.collections_chosen');
  assert.deepEqual(audit.body.data[0].after, { collections_provider_account_id: newId });
  assert.deepEqual(audit.body.data[0].before, { collections_provider_account_id: cfAccount });
  const addedAudit = await admin.call('GET', '/audit-log?action=provider_account.added');
  assert.ok(addedAudit.body.data.some((e: any) => e.target_id === newId && e.actor === 'anomaly-admin@example.com'));
  assert.doesNotMatch(addedAudit.text, new RegExp(CLIENT_SECRET));
  // Back to the first account for any later test.
  assert.equal((await admin.call('PUT', '/collections-account', { provider_account_id: cfAccount })).status, 200);
});

