/**
 * The provider conformance suite (issue 22 §4, after Hyperswitch's ConnectorActions): the same
 * scenarios, through the real service, against every provider behind the Provider interface. A
 * provider takes part by a harness: how its payer pays or fails an order, how it signs a callback,
 * how its refunds settle. The service is the one under test; the harness only plays the provider.
 *
 * Collections: collectionScenarios (sandbox and cashfree+simulator run it, conformance.test.ts).
 * Payouts: payoutScenarios (the sandbox bank and razorpayx+simulator run it,
 * payout-conformance.test.ts): success, refusal, a repeated create, and, where the provider can be
 * made to do it on demand, a lost create answer settled by inquiry and a reversal after success.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOrder, eventsOf, forceExpiry, intentBody, itemsOnceThere, key, orderRow, settled, waitFor } from '../refunds/helpers.js';
import type { TestClient, TestService } from '../support/service.js';

export interface CollectionHarness {
  /** Shown in test names: `sandbox`, `cashfree`. */
  name: string;
  t: TestService;
  /** A client of an organization whose collections use this provider (refund review off). */
  client: TestClient;
  /** The payer pays the order's intent; `callback` false: the provider sends no callback (status check only). */
  pay(order: { order_id: string }, o: { callback: boolean; amountPaise?: number; utr: string }): Promise<void>;
  /** The payer's bank declines; the provider says so by callback. */
  fail(order: { order_id: string }): Promise<void>;
  /** The provider's own signed success callback for the order (exact bytes and headers), to be posted any number of times. */
  signedSuccessCallback(order: { order_id: string }, o: { amountPaise: number; utr: string }): Promise<{ body: string; headers: Record<string, string> }>;
  /** The same callback signed with a wrong secret. */
  forgedSuccessCallback(order: { order_id: string }, o: { amountPaise: number; utr: string }): Promise<{ body: string; headers: Record<string, string> }>;
  /** Where this provider's callbacks arrive (the intake path of its account). */
  callbackUrl: string;
  /** The provider completes the refund (at once, or when asked). */
  settleRefund(order: { order_id: string }, refundId: string): Promise<void>;
  /** The order's window closed at the provider too (no new payment can start). */
  expireAtProvider(order: { order_id: string }): Promise<void>;
}

export interface PayoutHarness {
  /** Shown in test names: `sandbox`, `razorpayx`. */
  name: string;
  t: TestService;
  client: TestClient;
  /** A bank connection of the client's organization on this provider. */
  bankConnectionId: string;
  /** The provider reports the submitted payout processed (the sandbox bank does so on its own). */
  settle(transactionId: string): Promise<void>;
  /** How many payouts the provider made for this reference (executions at the bank). */
  executions(transactionId: string): Promise<number>;
  /** The provider executes the next create but its answer never arrives (undefined: cannot be made to). */
  loseNextAnswer?: () => void;
  /** The bank reverses a processed payout (undefined: this provider never reports reversals). */
  reverse?: (transactionId: string) => Promise<void>;
}

async function post(url: string, cb: { body: string; headers: Record<string, string> }): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...cb.headers }, body: cb.body });
  await res.text();
  return res.status;
}

const statusOnceIs = (t: TestService, id: string, status: string) => waitFor(async () => ((await orderRow(t, id)).status === status ? true : null), 10_000);
const eventCount = async (t: TestService) => Number((await t.database.db.query('SELECT count(*) AS n FROM provider_events')).rows[0]!.n);

export function collectionScenarios(harness: () => CollectionHarness): void {
  const label = (s: string) => `${s}`;
  test(label('pay (callback): PAID with the UTR, collection.received once'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 25_000 }));
    await h.pay(o, { callback: true, utr: '321032103210' });
    await statusOnceIs(h.t, o.id, 'PAID');
    assert.equal((await orderRow(h.t, o.id)).bank_transaction_id, '321032103210');
    assert.equal((await eventsOf(h.t, o.id, 'collection.received')).length, 1);
  });

  test(label('pay (no callback): the live status check confirms'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 25_100 }));
    await h.pay(o, { callback: false, utr: '321032103211' });
    await waitFor(async () => ((await h.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: h.client })).body.data.status === 'PAID' ? true : null), 10_000);
  });

  test(label('fail: FAILED, nothing received'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody());
    await h.fail(o);
    await statusOnceIs(h.t, o.id, 'FAILED');
    assert.deepEqual(await eventsOf(h.t, o.id, 'collection.received'), []);
  });

  test(label('expire: EXPIRED after the final check'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody());
    assert.equal(await forceExpiry(h.t, o.id), 'expired');
  });

  test(label('late success after expiry: review, never PAID'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody());
    assert.equal(await forceExpiry(h.t, o.id), 'expired');
    await h.expireAtProvider(o);
    await h.pay(o, { callback: true, utr: '321032103212' });
    const items = await itemsOnceThere(h.t, o.id);
    assert.equal(items[0]!.reported.utr, '321032103212');
    assert.equal((await orderRow(h.t, o.id)).status, 'EXPIRED');
  });

  test(label('amount mismatch: review, never PAID'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 70_000 }));
    await h.pay(o, { callback: true, utr: '321032103213', amountPaise: 7_000 });
    const items = await itemsOnceThere(h.t, o.id);
    assert.equal(items[0]!.kind, 'confirmation_mismatch');
    assert.equal(items[0]!.reported.amount_paise, 7_000);
    assert.equal((await orderRow(h.t, o.id)).status, 'PENDING_PAYMENT');
  });

  test(label('duplicate callback: acknowledged, applied once'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 30_000 }));
    const cb = await h.signedSuccessCallback(o, { amountPaise: 30_000, utr: '321032103214' });
    assert.equal(await post(h.callbackUrl, cb), 200);
    assert.equal(await post(h.callbackUrl, cb), 200);
    await statusOnceIs(h.t, o.id, 'PAID');
    await settled(h.t, o.order_id);
    assert.equal((await eventsOf(h.t, o.id, 'collection.received')).length, 1);
  });

  test(label('forged callback: 401, nothing recorded'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 30_000 }));
    const n = await eventCount(h.t);
    assert.equal(await post(h.callbackUrl, await h.forgedSuccessCallback(o, { amountPaise: 30_000, utr: '321032103215' })), 401);
    assert.equal(await eventCount(h.t), n);
    assert.equal((await orderRow(h.t, o.id)).status, 'PENDING_PAYMENT');
  });

  test(label('refund: COMPLETED, the order REFUNDED'), async () => {
    const h = harness();
    const o = await createOrder(h.t, h.client, intentBody({ amount_paise: 12_300 }));
    await h.pay(o, { callback: true, utr: '321032103216' });
    await statusOnceIs(h.t, o.id, 'PAID');
    const r = await h.t.api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client: h.client, body: {}, idempotencyKey: key() });
    assert.equal(r.status, 201, r.text);
    await h.settleRefund(o, r.body.data.refund_id);
    await waitFor(async () => ((await h.t.api('GET', `/merchant/refunds/${r.body.data.id}`, { client: h.client })).body.data?.status === 'COMPLETED' ? true : null), 15_000);
    await statusOnceIs(h.t, o.id, 'REFUNDED');
  });
}

async function payoutEvents(t: TestService, payoutId: string): Promise<string[]> {
  const r = await t.database.db.query<{ kind: string }>('SELECT kind FROM events WHERE aggregate_id = $1 ORDER BY kind', [payoutId]);
  return r.rows.map((row) => row.kind);
}

async function payoutOnceIs(h: PayoutHarness, id: string, status: string): Promise<any> {
  return waitFor(async () => {
    const r = await h.t.api('GET', `/merchant/payouts/${id}`, { client: h.client });
    return r.body?.data?.status === status ? r.body.data : null;
  }, 20_000);
}

async function createPayoutOn(h: PayoutHarness, amountPaise: number, idempotencyKey = key()): Promise<{ status: number; id: string; txn: string; text: string }> {
  const body = {
    beneficiary: { name: 'Asha Traders', account_number: '000123456789', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true },
    amount_paise: amountPaise,
    mode: 'IMPS',
    bank_connection_id: h.bankConnectionId,
  };
  const r = await h.t.api('POST', '/merchant/payouts', { client: h.client, body, idempotencyKey });
  return { status: r.status, id: r.body?.data?.id, txn: r.body?.data?.transaction_id, text: r.text };
}

export function payoutScenarios(harness: () => PayoutHarness): void {
  test('payout success: SUCCESS with a UTR, one execution, payout.success once', async () => {
    const h = harness();
    const p = await createPayoutOn(h, 150_000);
    assert.equal(p.status, 201, p.text);
    await h.settle(p.txn);
    const ok = await payoutOnceIs(h, p.id, 'SUCCESS');
    assert.ok(typeof ok.utr === 'string' && ok.utr.length > 0);
    assert.equal(await h.executions(p.txn), 1);
    assert.deepEqual(await payoutEvents(h.t, p.id), ['payout.created', 'payout.success']);
  });

  test('payout refused by the bank (amount ending in 13 paise): FAILED with a reason, no success', async () => {
    const h = harness();
    const p = await createPayoutOn(h, 170_013);
    assert.equal(p.status, 201, p.text);
    const failed = await payoutOnceIs(h, p.id, 'FAILED');
    assert.ok(typeof failed.failure_reason === 'string' && failed.failure_reason.length > 0);
    assert.deepEqual(await payoutEvents(h.t, p.id), ['payout.created', 'payout.failed']);
  });

  test('a create repeated with its Idempotency-Key: one payout, one execution', async () => {
    const h = harness();
    const k = key();
    const [a, b] = [await createPayoutOn(h, 150_100, k), await createPayoutOn(h, 150_100, k)];
    assert.equal(a.status, 201, a.text);
    assert.equal(b.id, a.id);
    await h.settle(a.txn);
    await payoutOnceIs(h, a.id, 'SUCCESS');
    assert.equal(await h.executions(a.txn), 1);
  });

  test('a lost create answer: inquired by our reference, never sent again; settles once', async (t) => {
    const h = harness();
    if (!h.loseNextAnswer) return t.skip(`${h.name} cannot be made to lose an answer on demand`);
    h.loseNextAnswer();
    const p = await createPayoutOn(h, 160_000);
    assert.equal(p.status, 201, p.text);
    await h.settle(p.txn);
    await payoutOnceIs(h, p.id, 'SUCCESS');
    assert.equal(await h.executions(p.txn), 1);
  });

  test('a reversal after success: REVERSED, payout.reversed recorded, the UTR kept', async (t) => {
    const h = harness();
    if (!h.reverse) return t.skip(`${h.name} never reports reversals`);
    const p = await createPayoutOn(h, 180_100);
    assert.equal(p.status, 201, p.text);
    await h.settle(p.txn);
    const ok = await payoutOnceIs(h, p.id, 'SUCCESS');
    await h.reverse(p.txn);
    const rev = await payoutOnceIs(h, p.id, 'REVERSED');
    assert.equal(rev.utr, ok.utr);
    assert.deepEqual(await payoutEvents(h.t, p.id), ['payout.created', 'payout.reversed', 'payout.success']);
  });
}
