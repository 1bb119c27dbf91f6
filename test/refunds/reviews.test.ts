/**
 * Operations review actions (contract §6), through the admin API (the console calls the same
 * service): confirm with a note -> MANUALLY_CONFIRMED + collection.received (data.status
 * MANUALLY_CONFIRMED) in one transaction; reject -> closed, order unchanged; an item is acted on
 * once, and of two reviewers at once one wins and the other gets 409.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { serviceWithClient } from '../support/service.js';
import { createOrder, eventsOf, intentBody, itemsOnceThere, orderRow, postSandboxCallback } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

/** An open INTENT order with one open mismatch item (the provider reported 100 paise). */
async function mismatched(): Promise<{ order: any; itemId: string }> {
  const order = await createOrder(w.t, w.client, intentBody({ amount_paise: 5_000_000 }));
  const providerRef = (await orderRow(w.t, order.id)).provider_reference as string;
  const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  await postSandboxCallback(w.t, { id: randomUUID(), type: 'collection.updated', reference: order.order_id, status: 'SUCCESS', utr, paid_at: new Date().toISOString(), amount_paise: 100, provider_reference: providerRef });
  const [item] = await itemsOnceThere(w.t, order.id);
  return { order, itemId: item!.id as string };
}

test('the queue lists the item with what the provider reported and what the payer claimed', async () => {
  const { order, itemId } = await mismatched();
  const list = await w.t.admin('GET', `/reviews?org=${w.client.orgId}&status=open`);
  assert.equal(list.status, 200);
  const item = list.body.data.find((i: any) => i.id === itemId);
  assert.equal(item.kind, 'confirmation_mismatch');
  assert.equal(item.order.order_id, order.order_id);
  assert.equal(item.order.amount_paise, 5_000_000);
  assert.equal(item.provider_reported.amount_paise, 100);
  assert.equal(item.payer_claimed_utr, null);
  assert.equal((await w.t.admin('GET', `/reviews/${itemId}`)).body.data.id, itemId);
  assert.equal((await w.t.admin('GET', `/reviews/${randomUUID()}`)).status, 404);
  assert.equal((await w.t.admin('GET', '/reviews?status=nonsense')).status, 422);
});

test('confirm with a note: MANUALLY_CONFIRMED and collection.received with data.status MANUALLY_CONFIRMED; acted on once', async () => {
  const { order, itemId } = await mismatched();
  const noNote = await w.t.admin('POST', `/reviews/${itemId}/confirm`, { actor: 'reviewer-1', note: '   ' });
  assert.equal(noNote.status, 422);
  const ok = await w.t.admin('POST', `/reviews/${itemId}/confirm`, { actor: 'reviewer-1', note: 'Bank statement shows 50,000.00 credited on UTR; screenshot in ticket OPS-12' });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual({ status: ok.body.data.status, acted_by: ok.body.data.acted_by }, { status: 'confirmed', acted_by: 'reviewer-1' });
  const row = await orderRow(w.t, order.id);
  assert.equal(row.status, 'MANUALLY_CONFIRMED');
  const received = await eventsOf(w.t, order.id, 'collection.received');
  assert.equal(received.length, 1);
  assert.equal(received[0]!.data.status, 'MANUALLY_CONFIRMED');
  assert.equal(received[0]!.data.amount_paise, 5_000_000);
  const history = await w.t.database.db.query(`SELECT trigger, detail FROM payment_order_transitions WHERE order_pk = $1 AND to_status = 'MANUALLY_CONFIRMED'`, [order.id]);
  assert.equal(history.rows[0]!.trigger, 'operations_review');
  assert.equal(history.rows[0]!.detail.actor, 'reviewer-1');
  const api = await w.t.api('GET', `/merchant/payment-orders/${order.id}`, { client: w.client });
  assert.equal(api.body.data.status, 'MANUALLY_CONFIRMED');
  const again = await w.t.admin('POST', `/reviews/${itemId}/reject`, { actor: 'reviewer-2', note: 'no' });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'INVALID_STATE');
});

test('reject: the item closes and the order keeps its state', async () => {
  const { order, itemId } = await mismatched();
  const r = await w.t.admin('POST', `/reviews/${itemId}/reject`, { actor: 'reviewer-1', note: 'Payer paid 1 rupee; asked to pay again' });
  assert.equal(r.status, 200);
  assert.equal(r.body.data.status, 'rejected');
  assert.equal((await orderRow(w.t, order.id)).status, 'PENDING_PAYMENT');
  assert.deepEqual(await eventsOf(w.t, order.id, 'collection.received'), []);
});

test('two reviewers acting at once: one wins, the other is told (409), the order moves once', async () => {
  for (let round = 0; round < 5; round++) {
    const { order, itemId } = await mismatched();
    const [a, b] = await Promise.all([
      w.t.admin('POST', `/reviews/${itemId}/confirm`, { actor: 'reviewer-a', note: 'evidence A' }),
      w.t.admin('POST', `/reviews/${itemId}/reject`, { actor: 'reviewer-b', note: 'evidence B' }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const loser = a.status === 409 ? a : b;
    assert.equal(loser.body.error.code, 'INVALID_STATE');
    const item = (await w.t.admin('GET', `/reviews/${itemId}`)).body.data;
    const events = await eventsOf(w.t, order.id, 'collection.received');
    if (item.status === 'confirmed') {
      assert.equal((await orderRow(w.t, order.id)).status, 'MANUALLY_CONFIRMED');
      assert.equal(events.length, 1);
    } else {
      assert.equal((await orderRow(w.t, order.id)).status, 'PENDING_PAYMENT');
      assert.equal(events.length, 0);
    }
  }
});
