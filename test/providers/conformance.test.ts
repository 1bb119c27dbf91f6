/**
 * Runs the conformance scenarios (conformance.ts) against the built-in sandbox and against a
 * cashfree account on the Cashfree simulator, in one service: one organization per provider.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxSigningSecret, SANDBOX_SIGNATURE_HEADER, signSandboxBody } from '../../src/sandbox/signing.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { createOrder, intentBody, orderRow, sandboxPay } from '../refunds/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { CashfreeSimulator, collectThroughSimulator, signWebhook } from './cashfree-simulator.js';
import { type CollectionHarness, collectionScenarios } from './conformance.js';

const CLIENT_ID = 'TEST2000conf';
const CLIENT_SECRET = 'cfsk_ma_test_conformance_0002';
let t: TestService;
let sim: CashfreeSimulator;
let sandboxHarness: CollectionHarness;
let cashfreeHarness: CollectionHarness;

async function quickClient(): Promise<TestClient> {
  const c = await t.createClient({ rateLimit: 100_000 });
  assert.equal((await t.admin('POST', `/orgs/${c.orgId}/settings`, { refund_review: 'none' })).status, 200);
  return c;
}

before(async () => {
  sim = new CashfreeSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  await sim.start();
  sim.refundOutcome = 'SUCCESS';
  t = await startTestService({ ...FAST_PAYOUT_ENV, PROVIDER_TIMEOUT_MS: '1500' });
  const secret = sandboxSigningSecret(t.config.masterKey);
  const sandboxCallback = async (o: { order_id: string }, p: { amountPaise: number; utr: string }, signer: string) => {
    const row = (await t.database.db.query('SELECT provider_reference FROM payment_orders WHERE order_id = $1', [o.order_id])).rows[0]!;
    const body = JSON.stringify({ id: randomUUID(), type: 'collection.updated', reference: o.order_id, status: 'SUCCESS', utr: p.utr, paid_at: new Date().toISOString(), amount_paise: p.amountPaise, provider_reference: row.provider_reference });
    return { body, headers: { [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(signer, body) } };
  };
  sandboxHarness = {
    name: 'sandbox',
    t,
    client: await quickClient(),
    callbackUrl: `${t.svc.internalUrl}/provider/sandbox/callbacks`,
    pay: (o, p) => sandboxPay(t, o.order_id, { callback: p.callback, utr: p.utr, ...(p.amountPaise ? { amountPaise: p.amountPaise } : {}) }),
    fail: async (o) => {
      const r = await t.admin('POST', `/sandbox/payment-orders/${o.order_id}/fail`, { callback: true });
      assert.equal(r.status, 200, r.text);
    },
    signedSuccessCallback: (o, p) => sandboxCallback(o, p, secret),
    forgedSuccessCallback: (o, p) => sandboxCallback(o, p, 'not-the-sandbox-secret'),
    settleRefund: async () => {}, // the sandbox PSP settles refunds at once
    expireAtProvider: async () => {},
  };

  const cfClient = await quickClient();
  const { callbackUrl } = await collectThroughSimulator(t, cfClient.orgId, sim);
  const cashfreeCallback = async (o: { order_id: string }, p: { amountPaise: number; utr: string }, secret: string) => {
    const order = sim.orders.get(o.order_id)!;
    const attempt = { ...sim.attempt(o.order_id), payment_status: 'SUCCESS', bank_reference: p.utr, amountPaise: p.amountPaise, payment_completion_time: new Date().toISOString() };
    const body = sim.paymentWebhookBody(order, attempt);
    const ts = String(Date.now());
    return { body, headers: { 'x-webhook-timestamp': ts, 'x-webhook-signature': signWebhook(secret, ts, body), 'x-webhook-version': '2025-01-01' } };
  };
  cashfreeHarness = {
    name: 'cashfree',
    t,
    client: cfClient,
    callbackUrl,
    pay: async (o, p) => {
      await sim.decide(o.order_id, 'SUCCESS', { utr: p.utr, webhook: p.callback, ...(p.amountPaise ? { amountPaise: p.amountPaise } : {}) });
    },
    fail: async (o) => {
      await sim.decide(o.order_id, 'FAILED');
    },
    signedSuccessCallback: (o, p) => cashfreeCallback(o, p, CLIENT_SECRET),
    forgedSuccessCallback: (o, p) => cashfreeCallback(o, p, 'not-the-client-secret'),
    settleRefund: async () => {}, // refundOutcome SUCCESS: settled at create
    expireAtProvider: async (o) => sim.expire(o.order_id),
  };
});
after(async () => {
  await t?.stop();
  await sim?.stop();
});

describe('conformance: sandbox', () => collectionScenarios(() => sandboxHarness));
describe('conformance: cashfree + simulator', () => collectionScenarios(() => cashfreeHarness));

// The two organizations really use different providers (or the suite would test one provider twice).
test('conformance set-up: each harness organization issues its orders with its own provider', async () => {
  for (const [h, provider] of [[sandboxHarness, 'sandbox'], [cashfreeHarness, 'cashfree']] as const) {
    const o = await createOrder(t, h.client, intentBody());
    assert.equal((await orderRow(t, o.id)).provider, provider);
  }
});
