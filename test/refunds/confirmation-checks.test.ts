/**
 * Contract §6 (issue 20 §2): a provider confirmation is applied only when its amount and provider
 * reference are the order's. Anything else (a mismatch, a confirmation after EXPIRED or
 * CANCELLED, a payer's UTR nobody confirmed) is recorded and goes to the operations review queue,
 * never to PAID, through both paths: the signed callback and the live status check.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { serviceWithClient } from '../support/service.js';
import { createOrder, eventsOf, forceExpiry, intentBody, itemsOnceThere, orderRow, postSandboxCallback, reviewItems, sandboxPay, settled, waitFor } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

const callback = (o: { order_id: string }, extra: Record<string, unknown>) => ({
  id: randomUUID(),
  type: 'collection.updated',
  reference: o.order_id,
  status: 'SUCCESS',
  utr: '123412341234',
  paid_at: new Date().toISOString(),
  ...extra,
});

test('a signed callback reporting 100 paise for a 5,000,000-paise order never makes it PAID: one review item, no collection.received', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 5_000_000 }));
  const providerRef = (await orderRow(w.t, o.id)).provider_reference as string;
  const cb = callback(o, { amount_paise: 100, provider_reference: providerRef });
  assert.equal(await postSandboxCallback(w.t, cb), 200);
  // The same news again under another event id: still one item.
  assert.equal(await postSandboxCallback(w.t, { ...cb, id: randomUUID() }), 200);
  await settled(w.t, o.order_id);
  const row = await orderRow(w.t, o.id);
  assert.equal(row.status, 'PENDING_PAYMENT');
  assert.equal(row.bank_transaction_id, null);
  assert.equal(row.review_required, true);
  const items = await reviewItems(w.t, o.id);
  assert.equal(items.length, 1);
  assert.equal(items[0]!.kind, 'confirmation_mismatch');
  assert.equal(items[0]!.status, 'open');
  assert.deepEqual({ amount: items[0]!.reported.amount_paise, ref: items[0]!.reported.provider_reference, utr: items[0]!.reported.utr }, { amount: 100, ref: providerRef, utr: '123412341234' });
  assert.deepEqual(await eventsOf(w.t, o.id, 'collection.received'), []);
  const outcomes = await w.t.database.db.query(`SELECT outcome FROM provider_events WHERE reference = $1 ORDER BY received_at`, [o.order_id]);
  assert.deepEqual(outcomes.rows.map((r) => r.outcome).sort(), ['confirmation_mismatch', 'unchanged']);
  assert.equal((await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client })).body.data.status, 'PENDING_PAYMENT');
});

test('a callback with the right amount but another provider reference is a mismatch too', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 5_000_000 }));
  assert.equal(await postSandboxCallback(w.t, callback(o, { amount_paise: 5_000_000, provider_reference: 'SBXSOMEONEELSE' })), 200);
  await settled(w.t, o.order_id);
  assert.equal((await orderRow(w.t, o.id)).status, 'PENDING_PAYMENT');
  const items = await reviewItems(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.reported.provider_reference]), [['confirmation_mismatch', 'SBXSOMEONEELSE']]);
});

test('the live status check applies the same check: the sandbox took 100 paise, the GET never shows PAID', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 5_000_000 }));
  await sandboxPay(w.t, o.order_id, { callback: false, amountPaise: 100 });
  const got = await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client });
  assert.equal(got.status, 200);
  assert.equal(got.body.data.status, 'PENDING_PAYMENT');
  const items = await reviewItems(w.t, o.id);
  assert.equal(items.length, 1);
  assert.equal(items[0]!.kind, 'confirmation_mismatch');
  assert.equal(items[0]!.reported.amount_paise, 100);
  assert.equal(items[0]!.reported.source, 'live_check');
  assert.deepEqual(await eventsOf(w.t, o.id, 'collection.received'), []);
  // The window ends: the final check sees the same mismatch; the order expires, the item stays open.
  assert.equal(await forceExpiry(w.t, o.id), 'expired');
  assert.equal((await orderRow(w.t, o.id)).status, 'EXPIRED');
  assert.equal((await reviewItems(w.t, o.id)).length, 1);
});

test('a confirmation after EXPIRED is recorded and queued', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  assert.equal(await forceExpiry(w.t, o.id), 'expired');
  await sandboxPay(w.t, o.order_id, { callback: true });
  const items = await itemsOnceThere(w.t, o.id);
  assert.equal(items.length, 1);
  assert.equal(items[0]!.kind, 'late_confirmation');
  assert.equal(items[0]!.order_status_at_open, 'EXPIRED');
  assert.equal(items[0]!.reported.amount_paise, 49_900);
  const row = await orderRow(w.t, o.id);
  assert.equal(row.status, 'EXPIRED');
  const late = await w.t.database.db.query('SELECT utr FROM payment_order_late_confirmations WHERE order_pk = $1', [o.id]);
  assert.equal(late.rows.length, 1);
});

test('a confirmation after CANCELLED is recorded and queued', async () => {
  const o = await createOrder(w.t, w.client, intentBody());
  assert.equal((await w.t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client: w.client })).status, 200);
  await sandboxPay(w.t, o.order_id, { callback: true });
  const items = await itemsOnceThere(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.order_status_at_open, i.status]), [['late_confirmation', 'CANCELLED', 'open']]);
  assert.equal((await orderRow(w.t, o.id)).status, 'CANCELLED');
});

test('an order AWAITING_CONFIRMATION whose window ends unconfirmed is queued with the UTR the payer claimed', async () => {
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #c' });
  const token = o.checkout_url.split('/checkout/')[1] as string;
  const post = (step: string, body: unknown) =>
    fetch(`${w.t.svc.publicUrl}/checkout/${token}/${step}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
  assert.equal(await post('details', { customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true }), 200);
  assert.equal(await post('reference', { payer_reference: '555566667777' }), 200);
  assert.equal((await orderRow(w.t, o.id)).status, 'AWAITING_CONFIRMATION');
  assert.equal(await forceExpiry(w.t, o.id), 'expired');
  const items = await reviewItems(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.payer_reference, i.status]), [['unconfirmed_payer_reference', '555566667777', 'open']]);
});

test('the live status check: the right amount under another provider reference is a mismatch too (never PAID, no event)', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 70_000 }));
  await sandboxPay(w.t, o.order_id, { callback: false });
  // The provider's collection for this order is not the one it reports paid.
  await w.t.database.db.query(`UPDATE payment_orders SET provider_reference = 'SBXNOTTHEONE' WHERE id = $1`, [o.id]);
  const got = await w.t.api('GET', `/merchant/payment-orders/${o.id}`, { client: w.client });
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.data.status, 'PENDING_PAYMENT');
  const items = await reviewItems(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.reported.source, i.reported.amount_paise, i.status]), [['confirmation_mismatch', 'live_check', 70_000, 'open']]);
  assert.notEqual(items[0]!.reported.provider_reference, 'SBXNOTTHEONE');
  assert.deepEqual(await eventsOf(w.t, o.id, 'collection.received'), []);
});

test('a callback after EXPIRED with another amount is recorded as a mismatch item, the order stays EXPIRED', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 80_000 }));
  const providerRef = (await orderRow(w.t, o.id)).provider_reference as string;
  assert.equal(await forceExpiry(w.t, o.id), 'expired');
  assert.equal(await postSandboxCallback(w.t, callback(o, { amount_paise: 100, provider_reference: providerRef, utr: '765476547654' })), 200);
  await settled(w.t, o.order_id);
  const items = await reviewItems(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.order_status_at_open, i.reported.amount_paise]), [['confirmation_mismatch', 'EXPIRED', 100]]);
  assert.equal((await orderRow(w.t, o.id)).status, 'EXPIRED');
  assert.deepEqual(await eventsOf(w.t, o.id, 'collection.received'), []);
});

test('a confirmation for a FAILED order is recorded and queued (money may have moved); a reviewer may confirm it', async () => {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 60_000 }));
  const providerRef = (await orderRow(w.t, o.id)).provider_reference as string;
  const failed = await w.t.admin('POST', `/sandbox/payment-orders/${o.order_id}/fail`, { callback: true });
  assert.equal(failed.status, 200, failed.text);
  // The sandbox's failure callback arrives on its own time.
  await waitFor(async () => (await orderRow(w.t, o.id)).status === 'FAILED', 10_000);
  // The provider then says the money arrived after all: right amount, right collection.
  assert.equal(await postSandboxCallback(w.t, callback(o, { amount_paise: 60_000, provider_reference: providerRef, utr: '432143214321' })), 200);
  await settled(w.t, o.order_id);
  const row = await orderRow(w.t, o.id);
  assert.equal(row.status, 'FAILED', 'never PAID');
  assert.equal(row.review_required, true);
  const late = await w.t.database.db.query('SELECT status_at_arrival, utr FROM payment_order_late_confirmations WHERE order_pk = $1', [o.id]);
  assert.deepEqual(late.rows, [{ status_at_arrival: 'FAILED', utr: '432143214321' }]);
  const items = await reviewItems(w.t, o.id);
  assert.deepEqual(items.map((i) => [i.kind, i.order_status_at_open, i.reported.utr, i.status]), [['late_confirmation', 'FAILED', '432143214321', 'open']]);
  assert.deepEqual(await eventsOf(w.t, o.id, 'collection.received'), []);
  const confirmed = await w.t.admin('POST', `/reviews/${items[0]!.id}/confirm`, { actor: 'ops', note: 'Credit on the statement with UTR 432143214321' });
  assert.equal(confirmed.status, 200, confirmed.text);
  assert.equal((await orderRow(w.t, o.id)).status, 'MANUALLY_CONFIRMED');
  const received = await eventsOf(w.t, o.id, 'collection.received');
  assert.deepEqual(received.map((e) => [e.data.status, e.data.bank_transaction_id]), [['MANUALLY_CONFIRMED', '432143214321']]);
});
