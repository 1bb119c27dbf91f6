/**
 * Issue #29 item 3, as the attack: organization B, signing with its own Cashfree secret, sends its
 * own intake a webhook carrying A's cf_payment_id (so the provider event id of A's genuine webhook).
 * Provider news is keyed by the account that verified it: A's genuine webhook is stored and applied,
 * never answered "duplicate".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { createOrder, intentBody, orderRow, waitFor } from '../refunds/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { CashfreeSimulator, collectThroughSimulator } from './cashfree-simulator.js';

let t: TestService;
let a: { client: TestClient; sim: CashfreeSimulator; accountId: string };
let b: { client: TestClient; sim: CashfreeSimulator; accountId: string };

before(async () => {
  t = await startTestService({ ...FAST_PAYOUT_ENV, PROVIDER_TIMEOUT_MS: '1500' });
  const org = async (n: string) => {
    const sim = new CashfreeSimulator({ clientId: `TEST${n}sim`, clientSecret: `cfsk_ma_test_secret_of_org_${n}` });
    await sim.start();
    const client = await t.createClient({ rateLimit: 100_000 });
    const { accountId } = await collectThroughSimulator(t, client.orgId, sim, { name: `Cashfree ${n}`, config: { api_version: '2025-01-01' } });
    return { client, sim, accountId };
  };
  a = await org('A');
  b = await org('B');
});
after(async () => {
  await t?.stop();
  await a?.sim.stop();
  await b?.sim.stop();
});

test("B's webhook carrying A's cf_payment_id does not silence A's genuine webhook: A's order is paid by it", async () => {
  const orderA = await createOrder(t, a.client, intentBody({ amount_paise: 10_100 }));
  const orderB = await createOrder(t, b.client, intentBody({ amount_paise: 100 }));
  const cfPaymentIdOfA = a.sim.attempt(orderA.order_id).cf_payment_id;

  // B pays its own order and signs, with its own secret, a webhook naming A's payment id.
  await b.sim.decide(orderB.order_id, 'SUCCESS', { webhook: false });
  const attemptB = b.sim.attempt(orderB.order_id);
  attemptB.cf_payment_id = cfPaymentIdOfA;
  const forged = await b.sim.sendWebhook(b.sim.paymentWebhookBody(b.sim.orders.get(orderB.order_id)!, attemptB));
  assert.equal(forged.status, 200);
  const stored = await t.database.db.query<{ event_id: string; provider_account_id: string }>('SELECT event_id, provider_account_id FROM provider_events WHERE reference = $1', [orderB.order_id]);
  assert.deepEqual(stored.rows, [{ event_id: `${b.accountId}:PAYMENT_SUCCESS_WEBHOOK:${cfPaymentIdOfA}:SUCCESS`, provider_account_id: b.accountId }]);

  // A's genuine webhook: stored (not a duplicate) and applied, without any live check.
  const res = await fetch(a.sim.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status);
  assert.equal(res, 401, 'an unsigned body is refused');
  const before = a.sim.requests.length;
  await a.sim.decide(orderA.order_id, 'SUCCESS', { utr: '777700002222' });
  const rows = await t.database.db.query<{ event_id: string }>('SELECT event_id FROM provider_events WHERE reference = $1', [orderA.order_id]);
  assert.deepEqual(rows.rows, [{ event_id: `${a.accountId}:PAYMENT_SUCCESS_WEBHOOK:${cfPaymentIdOfA}:SUCCESS` }]);
  await waitFor(async () => ((await orderRow(t, orderA.id)).status === 'PAID' ? true : null), 10_000);
  assert.equal((await orderRow(t, orderA.id)).bank_transaction_id, '777700002222');
  assert.equal(a.sim.requests.slice(before).filter((r) => r.method === 'GET').length, 0, 'paid by the webhook, not by a live check');
});

test('news verified by one account is never applied to an order of another account, even one the intake did not know yet', async () => {
  const orderA = await createOrder(t, a.client, intentBody({ amount_paise: 20_200 }));
  // Stored as if the intake had not known the order (e.g. an order made after the event arrived):
  // the worker checks the account again before applying it.
  const id = '0190b2b2-0000-7000-8000-00000000c0de';
  await t.database.db.query(
    `INSERT INTO provider_events (id, provider, event_id, provider_account_id, kind, reference, payload, raw_body)
     VALUES ($1, 'cashfree', $2, $3, 'collection', $4, $5, '{}')`,
    [id, `${b.accountId}:forged`, b.accountId, orderA.order_id, JSON.stringify({ eventId: 'forged', kind: 'collection', reference: orderA.order_id, status: { status: 'SUCCESS', providerStatus: 'SUCCESS', amountPaise: 20_200, utr: '999900001111', paidAt: new Date().toISOString(), providerReference: 'forged' } })],
  );
  const outcome = await waitFor(async () => {
    const r = await t.database.db.query<{ state: string; outcome: string }>('SELECT state, outcome FROM provider_events WHERE id = $1', [id]);
    return r.rows[0]?.state === 'processed' ? r.rows[0].outcome : null;
  }, 10_000);
  assert.equal(outcome, 'other_account');
  assert.notEqual((await orderRow(t, orderA.id)).status, 'PAID');
});
