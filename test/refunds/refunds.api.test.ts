/**
 * Refunds through the merchant API (contract §6): review, submission to the sandbox PSP over
 * HTTP, partial and full refunds -> REFUNDED, the 13-paise failure, validation, scopes, other
 * clients, idempotent replay, and the two events.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { createOrder, eventsOf, intentBody, key, orderRow, paidOrder, waitFor } from './helpers.js';

let t: TestService;
let client: TestClient;
/** An organization that skips refund review. */
let quick: TestClient;
before(async () => {
  t = await startTestService({ ...FAST_PAYOUT_ENV });
  client = await t.createClient({ rateLimit: 100_000 });
  quick = await t.createClient({ rateLimit: 100_000 });
  const set = await t.admin('POST', `/orgs/${quick.orgId}/settings`, { refund_review: 'none' });
  assert.equal(set.status, 200, set.text);
});
after(() => t?.stop());

const refund = (c: TestClient, order: string, body: Record<string, unknown>, idem = key()) =>
  t.api('POST', `/merchant/payment-orders/${order}/refunds`, { client: c, body, idempotencyKey: idem });
const getRefund = (c: TestClient, ref: string) => t.api('GET', `/merchant/refunds/${ref}`, { client: c });
const settledRefund = (c: TestClient, id: string, status: string) =>
  waitFor(async () => {
    const r = await getRefund(c, id);
    return r.body.data?.status === status ? r.body.data : null;
  }, 10_000);
const stats = async () => (await t.admin('GET', '/sandbox/stats')).body.data;

test('with review required: PENDING_REVIEW until approved, then PROCESSING -> COMPLETED; the events; the fields', async () => {
  const o = await paidOrder(t, client, 100_000);
  const r = await refund(client, o.order_id, { amount_paise: 40_000, reason: 'Customer returned one item' });
  assert.equal(r.status, 201, r.text);
  const d = r.body.data;
  assert.deepEqual(Object.keys(d).sort(), ['amount_paise', 'completed_at', 'created_at', 'currency', 'id', 'livemode', 'order_id', 'provider_reference', 'reason', 'refund_id', 'status'].sort());
  assert.deepEqual(
    { order_id: d.order_id, amount_paise: d.amount_paise, currency: d.currency, status: d.status, livemode: d.livemode, reason: d.reason, completed_at: d.completed_at },
    { order_id: o.order_id, amount_paise: 40_000, currency: 'INR', status: 'PENDING_REVIEW', livemode: false, reason: 'Customer returned one item', completed_at: null },
  );
  assert.match(d.refund_id, /^RF[0-9A-Z]{26}$/);
  const requested = await eventsOf(t, o.id, 'collection.refund.requested');
  assert.equal(requested.length, 1);
  assert.deepEqual({ refund_id: requested[0]!.data.refund_id, status: requested[0]!.data.status, amount: requested[0]!.data.amount_paise }, { refund_id: d.refund_id, status: 'PENDING_REVIEW', amount: 40_000 });
  // Nothing reaches the provider before a reviewer approves.
  assert.equal((await stats()).refund_executions[d.refund_id], undefined);
  const noNote = await t.admin('POST', `/refunds/${d.id}/approve`, { actor: 'reviewer-1', note: '' });
  assert.equal(noNote.status, 422);
  const approved = await t.admin('POST', `/refunds/${d.refund_id}/approve`, { actor: 'reviewer-1', note: 'Return received at the warehouse' });
  assert.equal(approved.status, 200, approved.text);
  const done = await settledRefund(client, d.id, 'COMPLETED');
  assert.ok(done.provider_reference, 'the provider reference is shown');
  assert.ok(done.completed_at);
  assert.equal((await stats()).refund_executions[d.refund_id], 1);
  const completed = await eventsOf(t, o.id, 'collection.refund.completed');
  assert.equal(completed.length, 1);
  assert.equal(completed[0]!.data.status, 'COMPLETED');
  // Partly refunded: still PAID.
  assert.equal((await orderRow(t, o.id)).status, 'PAID');
  const twice = await t.admin('POST', `/refunds/${d.id}/reject`, { actor: 'reviewer-2', note: 'too late' });
  assert.equal(twice.status, 409);
  // By id or refund_id; the order's list.
  assert.equal((await getRefund(client, d.refund_id)).body.data.id, d.id);
  const list = await t.api('GET', `/merchant/payment-orders/${o.id}/refunds`, { client });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((x: any) => x.id), [d.id]);
});

test('rejected by the reviewer: nothing reaches the provider, and the amount is free again', async () => {
  const o = await paidOrder(t, client, 50_000);
  const r = (await refund(client, o.id, {})).body.data;
  assert.equal(r.amount_paise, 50_000, 'defaults to what is left');
  const rejected = await t.admin('POST', `/refunds/${r.id}/reject`, { actor: 'reviewer-1', note: 'Order was delivered and accepted' });
  assert.equal(rejected.status, 200);
  assert.equal(rejected.body.data.status, 'REJECTED');
  assert.equal((await stats()).refund_executions[r.refund_id], undefined);
  const again = await refund(client, o.id, {});
  assert.equal(again.status, 201);
  assert.equal(again.body.data.amount_paise, 50_000);
});

test('refund_review none: straight to the provider; partial + rest -> REFUNDED once all completed', async () => {
  const o = await paidOrder(t, quick, 30_000);
  const a = await refund(quick, o.id, { amount_paise: 10_000 });
  assert.equal(a.status, 201, a.text);
  assert.equal(a.body.data.status, 'PROCESSING');
  await settledRefund(quick, a.body.data.id, 'COMPLETED');
  assert.equal((await orderRow(t, o.id)).status, 'PAID');
  const rest = await refund(quick, o.id, {});
  assert.equal(rest.body.data.amount_paise, 20_000);
  await settledRefund(quick, rest.body.data.id, 'COMPLETED');
  await waitFor(async () => (await orderRow(t, o.id)).status === 'REFUNDED');
  const api = await t.api('GET', `/merchant/payment-orders/${o.id}`, { client: quick });
  assert.equal(api.body.data.status, 'REFUNDED');
  const more = await refund(quick, o.id, { amount_paise: 100 });
  assert.equal(more.status, 409);
  assert.equal(more.body.error.code, 'INVALID_STATE');
  const s = await stats();
  assert.equal(s.refund_executions[a.body.data.refund_id], 1);
  assert.equal(s.refund_executions[rest.body.data.refund_id], 1);
  assert.equal((await eventsOf(t, o.id, 'collection.refund.completed')).length, 2);
  // Refunds left without a provider answer would show here; none are.
  const metrics = await waitFor(async () => {
    const text = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
    return /tijori_refunds_unresolved\{submission="NOT_SENT"\} 0/.test(text) ? text : null;
  });
  assert.match(metrics, /tijori_refunds_unresolved\{submission="UNKNOWN"\} 0/);
  assert.match(metrics, /tijori_refund_oldest_unresolved_seconds\{submission="UNKNOWN"\} 0/);
});

test('an amount ending in 13 paise fails at the sandbox: FAILED, not executed, and the amount is free again', async () => {
  const o = await paidOrder(t, quick, 20_000);
  const r = await refund(quick, o.id, { amount_paise: 5_013 });
  assert.equal(r.status, 201);
  await settledRefund(quick, r.body.data.id, 'FAILED');
  assert.equal((await stats()).refund_executions[r.body.data.refund_id], undefined);
  assert.deepEqual(await eventsOf(t, o.id, 'collection.refund.completed'), []);
  const full = await refund(quick, o.id, {});
  assert.equal(full.body.data.amount_paise, 20_000);
  await settledRefund(quick, full.body.data.id, 'COMPLETED');
  await waitFor(async () => (await orderRow(t, o.id)).status === 'REFUNDED');
});

test('never more than the order: 422 REFUND_EXCEEDS_AMOUNT', async () => {
  const o = await paidOrder(t, client, 10_000);
  const over = await refund(client, o.id, { amount_paise: 10_001 });
  assert.equal(over.status, 422);
  assert.equal(over.body.error.code, 'REFUND_EXCEEDS_AMOUNT');
  assert.ok(over.body.error.request_id);
  assert.equal((await refund(client, o.id, { amount_paise: 6_000 })).status, 201);
  const past = await refund(client, o.id, { amount_paise: 4_001 });
  assert.equal(past.body.error.code, 'REFUND_EXCEEDS_AMOUNT');
  assert.equal((await refund(client, o.id, {})).body.data.amount_paise, 4_000);
  assert.equal((await refund(client, o.id, {})).body.error.code, 'REFUND_EXCEEDS_AMOUNT');
});

test('only PAID or MANUALLY_CONFIRMED orders: 409 INVALID_STATE', async () => {
  const open = await createOrder(t, client, intentBody());
  const r = await refund(client, open.id, {});
  assert.equal(r.status, 409);
  assert.equal(r.body.error.code, 'INVALID_STATE');
});

test('validation, the key, scopes and other clients', async () => {
  const o = await paidOrder(t, client, 10_000);
  const path = `/merchant/payment-orders/${o.id}/refunds`;
  for (const body of [{ amount_paise: 0 }, { amount_paise: 1.5 }, { amount_paise: '100' }, { reason: 'x'.repeat(256) }, { extra: true }]) {
    const r = await refund(client, o.id, body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.body.error.code, 'VALIDATION_FAILED');
  }
  const noKey = await t.api('POST', path, { client, body: {} });
  assert.equal(noKey.status, 400);
  assert.equal(noKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
  const readOnly = await t.createClient({ orgId: client.orgId, scopes: ['collections:read'] });
  const denied = await refund(readOnly, o.id, {});
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'API_SCOPE_DENIED');
  const writeOnly = await t.createClient({ orgId: client.orgId, scopes: ['collections:write'] });
  assert.equal((await t.api('GET', path, { client: writeOnly })).status, 403);
  const other = await t.createClient({});
  const created = (await refund(client, o.id, { amount_paise: 100 })).body.data;
  assert.equal((await refund(other, o.id, {})).status, 404);
  assert.equal((await t.api('GET', path, { client: other })).status, 404);
  assert.equal((await getRefund(other, created.id)).status, 404);
  assert.equal((await getRefund(other, created.refund_id)).status, 404);
  assert.equal((await getRefund(client, randomUUID())).status, 404);
  assert.equal((await getRefund(client, 'nonsense')).status, 404);
  assert.equal((await refund(client, 'PONOSUCHORDER', {})).status, 404);
});

test('idempotent replay: same key and body answer the same refund; another body is 422', async () => {
  const o = await paidOrder(t, client, 10_000);
  const k = key();
  const first = await refund(client, o.id, { amount_paise: 1_000 }, k);
  const again = await refund(client, o.id, { amount_paise: 1_000 }, k);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, first.text);
  const reused = await refund(client, o.id, { amount_paise: 2_000 }, k);
  assert.equal(reused.status, 422);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.equal((await t.api('GET', `/merchant/payment-orders/${o.id}/refunds`, { client })).body.data.length, 1);
});

test('a MANUALLY_CONFIRMED order can be refunded; fully refunded it becomes REFUNDED', async () => {
  const o = await createOrder(t, quick, intentBody({ amount_paise: 7_000 }));
  // The provider took the money but reported another reference: a reviewer confirms.
  await t.admin('POST', `/sandbox/payment-orders/${o.order_id}/pay`, { callback: false });
  await t.database.db.query(`UPDATE payment_orders SET provider_reference = 'SBXOTHER' WHERE id = $1`, [o.id]);
  await t.api('GET', `/merchant/payment-orders/${o.id}`, { client: quick });
  const item = await waitFor(async () => (await t.admin('GET', `/reviews?order=${o.id}`)).body.data[0]);
  assert.equal((await t.admin('POST', `/reviews/${item.id}/confirm`, { actor: 'ops', note: 'statement checked' })).status, 200);
  assert.equal((await orderRow(t, o.id)).status, 'MANUALLY_CONFIRMED');
  const r = await refund(quick, o.id, {});
  assert.equal(r.status, 201);
  await settledRefund(quick, r.body.data.id, 'COMPLETED');
  await waitFor(async () => (await orderRow(t, o.id)).status === 'REFUNDED');
});

test('an answer lost after the PSP executed (UNKNOWN) is settled by inquiry, never by a second execution', async () => {
  const o = await paidOrder(t, quick, 9_000);
  const provider = t.svc.ctx.providers.sandbox;
  const original = provider.submitRefund;
  let submits = 0;
  // The request reaches the sandbox over HTTP and is executed; its answer is lost on the way back.
  provider.submitRefund = async (req) => {
    submits++;
    await original(req);
    return { outcome: 'UNKNOWN', error: 'connection reset after the request was sent (test)' };
  };
  try {
    const r = await refund(quick, o.id, {});
    assert.equal(r.status, 201);
    // The submit answered UNKNOWN, so only the worker's inquiry can complete it.
    const done = await settledRefund(quick, r.body.data.id, 'COMPLETED');
    assert.ok(done.provider_reference);
    assert.equal(submits, 1, 'the inquiry found it executed: not sent again');
    assert.equal((await stats()).refund_executions[r.body.data.refund_id], 1);
    await waitFor(async () => (await orderRow(t, o.id)).status === 'REFUNDED');
  } finally {
    provider.submitRefund = original;
  }
});

test('GET the order\'s refunds: every refund of the order, oldest first, each exactly as GET /merchant/refunds/{id} and by refund_id show it', async () => {
  const o = await paidOrder(t, client, 30_000);
  const made = [];
  for (const amount_paise of [1_000, 2_000, 3_000]) made.push((await refund(client, o.id, { amount_paise, reason: `part ${amount_paise}` })).body.data);
  assert.equal((await t.admin('POST', `/refunds/${made[1].id}/reject`, { actor: 'reviewer-1', note: 'no' })).status, 200);
  // Another order's refund never appears in this order's list.
  const otherOrder = await paidOrder(t, client, 5_000);
  assert.equal((await refund(client, otherOrder.id, {})).status, 201);
  for (const ref of [o.id, o.order_id]) {
    const list = await t.api('GET', `/merchant/payment-orders/${ref}/refunds`, { client });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.success, true);
    assert.deepEqual(list.body.data.map((r: any) => [r.id, r.amount_paise, r.status]), [[made[0].id, 1_000, 'PENDING_REVIEW'], [made[1].id, 2_000, 'REJECTED'], [made[2].id, 3_000, 'PENDING_REVIEW']]);
    for (const item of list.body.data) {
      assert.deepEqual((await getRefund(client, item.id)).body.data, item);
      assert.deepEqual((await getRefund(client, item.refund_id)).body.data, item);
      assert.equal(item.order_id, o.order_id);
    }
  }
});
