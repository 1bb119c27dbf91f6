/**
 * The break kinds of contract §9 with the sandbox PSP (DUPLICATE and bad data: cashfree-recon.test.ts):
 * UNKNOWN_ORDER, NOT_PAID_IN_TIJORI (a late payment of an EXPIRED order: operations review), a
 * settled payment of an order still open (the provider check makes it PAID, then it matches; never
 * a move by the settlement alone), and UNSETTLED after settlement_expected_days.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceWithClient } from '../support/service.js';
import { forceExpiry } from '../refunds/helpers.js';
import { breaks, cli, createOrder, intentBody, paid, q, sandboxPay, settle, sync } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });
const sandboxUrl = () => (w.t.svc as unknown as { sandboxUrl: string }).sandboxUrl;

test('UNKNOWN_ORDER: the provider settled a payment Tijori has no order for', async () => {
  const { t } = w;
  const c = await t.createClient({});
  // A collection the sandbox PSP holds for this merchant that no order of Tijori's names.
  const post = (path: string, body: unknown) => fetch(`${sandboxUrl()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const made = await post('/psp/collections', { reference: 'NOTOURS12345', amount_paise: 5_000, note: 'x', payee_name: 'M', expires_at: new Date(Date.now() + 60_000).toISOString(), merchant: c.orgId });
  assert.equal(made.status, 201, await made.text());
  assert.equal((await post('/psp/collections/NOTOURS12345/pay', { callback: false })).status, 200);
  await settle(t, c.orgId);
  assert.deepEqual(await sync(t, c.orgId), { settlements_new: 1, lines_new: 1, matched: 0, breaks: 1 });
  const [b] = await breaks(t, c.orgId);
  assert.deepEqual({ kind: b.kind, order_id: b.order_id, refund_id: b.refund_id, expected: b.expected_paise, reported: b.reported_paise }, { kind: 'UNKNOWN_ORDER', order_id: null, refund_id: null, expected: null, reported: 5_000 });
});

test('an open order settled: the normal provider check makes it PAID, then the line matches', async () => {
  const { t } = w;
  const c = await t.createClient({});
  const o = await createOrder(t, c, intentBody({ amount_paise: 7_700 }));
  await sandboxPay(t, o.order_id, { callback: false });
  assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0].status, 'PENDING_PAYMENT');
  await settle(t, c.orgId);
  assert.deepEqual(await sync(t, c.orgId), { settlements_new: 1, lines_new: 1, matched: 1, breaks: 0 });
  assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0].status, 'PAID');
  const checks = (await q(t, "SELECT answer, outcome FROM provider_checks WHERE subject_id = $1 AND reason = 'settlement_check'", [o.id])).rows;
  assert.deepEqual(checks.map((c: any) => c.answer), ['SUCCESS'], 'the check is in the provider checks log');
});

test('NOT_PAID_IN_TIJORI: a late payment of an EXPIRED order goes to operations review; the order stays EXPIRED', async () => {
  const { t } = w;
  const c = await t.createClient({});
  const o = await createOrder(t, c, intentBody({ amount_paise: 8_800 }));
  assert.equal(await forceExpiry(t, o.id), 'expired');
  assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0].status, 'EXPIRED');
  await sandboxPay(t, o.order_id, { callback: false });
  await settle(t, c.orgId);
  assert.deepEqual(await sync(t, c.orgId), { settlements_new: 1, lines_new: 1, matched: 0, breaks: 1 });
  assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0].status, 'EXPIRED');
  const [b] = await breaks(t, c.orgId);
  assert.deepEqual({ kind: b.kind, order_id: b.order_id, expected: b.expected_paise, reported: b.reported_paise }, { kind: 'NOT_PAID_IN_TIJORI', order_id: o.order_id, expected: 8_800, reported: 8_800 });
  const items = (await q(t, 'SELECT kind, status FROM review_items WHERE order_pk = $1', [o.id])).rows;
  assert.deepEqual(items, [{ kind: 'late_confirmation', status: 'open' }]);
});

for (const closed of ['FAILED', 'CANCELLED'] as const) {
  test(`NOT_PAID_IN_TIJORI after the live check: a settled payment of a ${closed} order goes to operations review; the order stays ${closed}`, async () => {
    const { t } = w;
    const c = await t.createClient({});
    const o = await createOrder(t, c, intentBody({ amount_paise: 8_900 }));
    // Tijori closed the order (a provider terminal failure reported earlier, or a merchant cancel); the PSP then took the payment.
    await q(t, 'UPDATE payment_orders SET status = $2 WHERE id = $1', [o.id, closed]);
    await sandboxPay(t, o.order_id, { callback: false });
    await settle(t, c.orgId);
    assert.deepEqual(await sync(t, c.orgId), { settlements_new: 1, lines_new: 1, matched: 0, breaks: 1 });
    assert.equal((await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0].status, closed);
    const checks = (await q(t, "SELECT answer FROM provider_checks WHERE subject_id = $1 AND reason = 'settlement_check'", [o.id])).rows;
    assert.deepEqual(checks.map((x: any) => x.answer), ['SUCCESS'], 'the live provider check ran before the break');
    const [b] = await breaks(t, c.orgId);
    assert.equal(b.kind, 'NOT_PAID_IN_TIJORI');
    const items = (await q(t, 'SELECT kind, status FROM review_items WHERE order_pk = $1', [o.id])).rows;
    assert.deepEqual(items, [{ kind: 'late_confirmation', status: 'open' }]);
  });
}

test('UNSETTLED: a confirmed collection in no settlement after settlement_expected_days', async () => {
  const { t } = w;
  const c = await t.createClient({});
  const o = await paid(t, c, 6_600);
  await q(t, "UPDATE payment_orders SET confirmed_at = now() - interval '4 days' WHERE id = $1", [o.id]);
  await q(t, "UPDATE organizations SET settlements_from = now() - interval '10 days' WHERE id = $1", [c.orgId]); // as if set up before
  await cli(t, 'org', 'set', '--org', c.orgId, '--settlement-expected-days', '5');
  await sync(t, c.orgId);
  assert.deepEqual(await breaks(t, c.orgId), [], 'within 5 days: no break');
  await cli(t, 'org', 'set', '--org', c.orgId, '--settlement-expected-days', '3');
  assert.deepEqual(await sync(t, c.orgId), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 }, 'UNSETTLED is no line of a settlement');
  await sync(t, c.orgId);
  const found = await breaks(t, c.orgId, 'open');
  assert.equal(found.length, 1, 'one break per order, however often it syncs');
  assert.deepEqual({ kind: found[0].kind, order_id: found[0].order_id, settlement_id: found[0].settlement_id, expected: found[0].expected_paise, reported: found[0].reported_paise }, { kind: 'UNSETTLED', order_id: o.order_id, settlement_id: null, expected: 6_600, reported: null });
});
