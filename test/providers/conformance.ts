/**
 * The provider conformance suite (issue 22 §4, after Hyperswitch's ConnectorActions): the same
 * scenarios, through the real service, against every provider behind the Provider interface. A
 * provider takes part by a harness: how its payer pays or fails an order, how it signs a callback,
 * how its refunds settle. The service is the one under test; the harness only plays the provider.
 *
 * Collections: collectionScenarios (sandbox and cashfree+simulator run it, conformance.test.ts).
 * Payouts: PayoutHarness is the slot for razorpayx+simulator and the sandbox bank: a
 * payoutScenarios(harness) beside collectionScenarios (success, rejection, timeout then inquiry,
 * reversal, duplicate and forged webhooks), run by conformance.test.ts for each payout harness.
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
  name: string;
  t: TestService;
  client: TestClient;
  /** A payout route of the client's organization on this provider. */
  routeId: string;
  /** Next submits: executed, rejected, or left without an answer (timeout) and executed. */
  nextSubmit(outcome: 'success' | 'rejected' | 'timeout_then_success'): Promise<void>;
  /** A processed payout is reversed later by the bank. */
  reverse(transactionId: string): Promise<void>;
  signedPayoutCallback(transactionId: string, status: string): Promise<{ body: string; headers: Record<string, string> }>;
  callbackUrl: string;
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
