/**
 * The console's money pages' API (issue #19 item 3) against the real service and PostgreSQL:
 * payment orders and payouts newest first, keyset pages that stay right while rows arrive, search
 * by every reference, status and date filters, details with history and attempts, organizations
 * kept apart, and a viewer may read.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { runTijori } from '../support/cli.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let a: TestClient;
let b: TestClient;
let viewerA: ConsoleCaller;
let viewerB: ConsoleCaller;
const ordersA: any[] = [];
let orderB: any;
let paidA: any;
let payoutA: any;
let payoutB: any;

async function payout(client: TestClient, amount: number, ref: string): Promise<any> {
  const r = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(amount, { client_reference: ref }) });
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

before(async () => {
  ts = await startTestService(FAST_PAYOUT_ENV);
  a = await ts.createClient({});
  b = await ts.createClient({});
  for (const c of [a, b]) {
    const r = await ts.admin('POST', '/routes', { org: c.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] });
    assert.equal(r.status, 201, r.text);
  }
  for (let i = 0; i < 5; i++) ordersA.push(await createOrder(ts, a, intentBody({ merchant_order_reference: `A-REF-${i}`, amount_paise: 10_000 + i })));
  orderB = await createOrder(ts, b, intentBody({ merchant_order_reference: 'B-REF-0' }));
  paidA = ordersA[1];
  const pay = await runTijori(ts, ['sandbox', 'pay', paidA.order_id, '--utr', '246813579024', '--json']);
  assert.equal(pay.code, 0, pay.stderr);
  payoutA = await payout(a, 250_000, 'PAY-A-1');
  await payout(a, 260_000, 'PAY-A-2');
  payoutB = await payout(b, 250_000, 'PAY-B-1');
  viewerA = await signedInUser(ts, a.orgId, 'viewer-a@example.com', 'viewer');
  viewerB = await signedInUser(ts, b.orgId, 'viewer-b@example.com', 'viewer');
  await poll(async () => (await viewerA.call('GET', `/payment-orders/${paidA.id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
  await poll(async () => (await viewerA.call('GET', `/payouts/${payoutA.id}`)).body.data?.payout.status === 'SUCCESS' || undefined, { what: 'payout success', timeoutMs: 15_000, stepMs: 100 });
});
after(() => ts?.stop());

const ids = (r: { body: any }): string[] => r.body.data.map((x: any) => x.id);

test('payment orders: newest first, only the organization\'s own, a viewer may read', async () => {
  const r = await viewerA.call('GET', '/payment-orders');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(ids(r), ordersA.map((o) => o.id).reverse());
  assert.equal(r.body.next_cursor, null);
  assert.ok(r.body.request_id);
  const first = r.body.data[0];
  assert.equal(first.order_id, ordersA[4].order_id);
  assert.equal(first.merchant_order_reference, 'A-REF-4');
  assert.equal(first.amount_paise, 10_004);
  assert.deepEqual(ids(await viewerB.call('GET', '/payment-orders')), [orderB.id]);
});

test('payment orders: search by order_id, merchant_order_reference, UTR and id finds exactly that order; never another organization\'s', async () => {
  for (const q of [paidA.order_id, paidA.order_id.toLowerCase(), 'A-REF-1', '246813579024', paidA.id, paidA.id.toUpperCase()]) {
    const r = await viewerA.call('GET', `/payment-orders?search=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(ids(r), [paidA.id], `search ${q}`);
  }
  for (const q of [orderB.order_id, 'B-REF-0', orderB.id, 'nothing-like-it']) {
    const r = await viewerA.call('GET', `/payment-orders?search=${encodeURIComponent(q)}`);
    assert.deepEqual(ids(r), [], `search ${q} from the other organization`);
  }
  const other = await viewerA.call('GET', `/payment-orders/${orderB.id}`);
  assert.equal(other.status, 404, other.text);
  assert.equal(other.body.error.code, 'NOT_FOUND');
});

test('payment orders: status and date filters; a bad status or cursor is a 422 in the envelope', async () => {
  assert.deepEqual(ids(await viewerA.call('GET', '/payment-orders?status=PAID')), [paidA.id]);
  const open = await viewerA.call('GET', `/payment-orders?status=${ordersA[0].status}`);
  assert.deepEqual(ids(open), ordersA.filter((o) => o !== paidA).map((o) => o.id).reverse());
  const firstAt = new Date(ordersA[0].created_at);
  const before = new Date(firstAt.getTime() - 60_000).toISOString();
  assert.deepEqual(ids(await viewerA.call('GET', `/payment-orders?created_to=${encodeURIComponent(before)}`)), []);
  assert.equal((await viewerA.call('GET', `/payment-orders?created_from=${encodeURIComponent(before)}`)).body.data.length, ordersA.length);
  const upTo = new Date(new Date(ordersA[2].created_at).getTime() + 1).toISOString();
  assert.deepEqual(ids(await viewerA.call('GET', `/payment-orders?created_to=${encodeURIComponent(upTo)}`)), ordersA.slice(0, 3).map((o) => o.id).reverse());
  const badStatus = await viewerA.call('GET', '/payment-orders?status=PAYED');
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.ok(badStatus.body.request_id);
  const badCursor = await viewerA.call('GET', '/payment-orders?cursor=not-a-cursor');
  assert.equal(badCursor.status, 422, badCursor.text);
});

test('payment orders: keyset pages stay right while new orders arrive', async () => {
  const p1 = await viewerA.call('GET', '/payment-orders?limit=2');
  assert.deepEqual(ids(p1), [ordersA[4].id, ordersA[3].id]);
  assert.ok(p1.body.next_cursor);
  // Orders arrive between the pages: with offsets the next page would repeat rows.
  const arrived = await Promise.all([0, 1, 2].map((i) => createOrder(ts, a, intentBody({ merchant_order_reference: `LATE-${i}` }))));
  const p2 = await viewerA.call('GET', `/payment-orders?limit=2&cursor=${p1.body.next_cursor}`);
  assert.deepEqual(ids(p2), [ordersA[2].id, ordersA[1].id]);
  const p3 = await viewerA.call('GET', `/payment-orders?limit=2&cursor=${p2.body.next_cursor}`);
  assert.deepEqual(ids(p3), [ordersA[0].id]);
  assert.equal(p3.body.next_cursor, null);
  const fresh = await viewerA.call('GET', '/payment-orders?limit=3');
  assert.deepEqual(new Set(ids(fresh)), new Set(arrived.map((o) => o.id)));
});

test('an order\'s page: the merchant view, every state move with time and cause, callbacks', async () => {
  const r = await viewerA.call('GET', `/payment-orders/${paidA.order_id}`);
  assert.equal(r.status, 200, r.text);
  const d = r.body.data;
  assert.equal(d.order.id, paidA.id);
  assert.equal(d.order.utr, '246813579024');
  assert.equal(d.history[0].cause, 'created');
  assert.equal(d.history[0].from_status, null);
  const paid = d.history.find((h: any) => h.to_status === 'PAID');
  assert.ok(paid, JSON.stringify(d.history));
  assert.match(paid.at, /^\d{4}-\d{2}-\d{2}T/);
  assert.ok(Array.isArray(d.callbacks));
});

test('an order\'s page lists its refunds as the merchant API does (contract §6), with who reviewed them', async () => {
  const none = await viewerA.call('GET', `/payment-orders/${ordersA[0].id}`);
  assert.deepEqual(none.body.data.refunds, []);
  const made = [];
  for (const [amount, reason] of [[1_000, 'Damaged box'], [500, null]] as const) {
    const r = await ts.api('POST', `/merchant/payment-orders/${paidA.id}/refunds`, { client: a, idempotencyKey: randomUUID(), body: { amount_paise: amount, ...(reason ? { reason } : {}) } });
    assert.equal(r.status, 201, r.text);
    made.push(r.body.data);
  }
  const rejected = await ts.admin('POST', `/refunds/${made[1].id}/reject`, { actor: 'rev@example.com', note: 'not returned' });
  assert.equal(rejected.status, 200, rejected.text);
  const page = await viewerA.call('GET', `/payment-orders/${paidA.order_id}`);
  assert.equal(page.status, 200, page.text);
  const api = await ts.api('GET', `/merchant/payment-orders/${paidA.id}/refunds`, { client: a });
  assert.equal(api.status, 200, api.text);
  assert.deepEqual(page.body.data.refunds.map((r: any) => r.id), made.map((r) => r.id));
  // Every field the merchant API shows, the same values; plus the review's actor and a failure reason.
  page.body.data.refunds.forEach((r: any, i: number) => {
    const { reviewed_by, failure_reason, ...merchant } = r;
    assert.deepEqual(merchant, api.body.data[i]);
    assert.equal(failure_reason, null);
    assert.equal(reviewed_by, i === 1 ? 'rev@example.com' : null);
  });
  assert.deepEqual(page.body.data.refunds.map((r: any) => [r.amount_paise, r.status, r.reason]), [[1_000, 'PENDING_REVIEW', 'Damaged box'], [500, 'REJECTED', null]]);
  // Another organization's viewer gets nothing of it.
  const other = await viewerB.call('GET', `/payment-orders/${paidA.id}`);
  assert.equal(other.status, 404);
  assert.ok(!other.text.includes(made[0].refund_id));
});

test('payouts: newest first, search by transaction_id, client_reference, UTR and id; filters; other organization never seen', async () => {
  const all = await viewerA.call('GET', '/payouts');
  assert.equal(all.status, 200, all.text);
  assert.equal(all.body.data.length, 2);
  assert.equal(all.body.data[1].id, payoutA.id);
  const detail = (await viewerA.call('GET', `/payouts/${payoutA.id}`)).body.data;
  const utr = detail.payout.utr as string;
  assert.ok(utr);
  for (const q of [payoutA.transaction_id, 'PAY-A-1', utr, payoutA.id]) {
    assert.deepEqual(ids(await viewerA.call('GET', `/payouts?search=${encodeURIComponent(q)}`)), [payoutA.id], `search ${q}`);
  }
  for (const q of [payoutB.transaction_id, 'PAY-B-1', payoutB.id]) {
    assert.deepEqual(ids(await viewerA.call('GET', `/payouts?search=${encodeURIComponent(q)}`)), [], `search ${q} from the other organization`);
  }
  assert.deepEqual(ids(await viewerA.call('GET', '/payouts?status=SUCCESS&search=PAY-A-1')), [payoutA.id]);
  assert.deepEqual(ids(await viewerA.call('GET', '/payouts?status=FAILED&search=PAY-A-1')), []);
  const p1 = await viewerA.call('GET', '/payouts?limit=1');
  const p2 = await viewerA.call('GET', `/payouts?limit=1&cursor=${p1.body.next_cursor}`);
  assert.deepEqual(ids(p2), [payoutA.id]);
  assert.equal((await viewerA.call('GET', `/payouts/${payoutB.id}`)).status, 404);
  assert.equal((await viewerB.call('GET', `/payouts/${payoutB.transaction_id}`)).status, 200);
});

test('a payout\'s page: attempts with bank reference, UTR and inquiries; its state moves', async () => {
  const d = (await viewerA.call('GET', `/payouts/${payoutA.transaction_id}`)).body.data;
  assert.equal(d.payout.id, payoutA.id);
  assert.equal(d.attempts.length, 1);
  assert.equal(d.attempts[0].status, 'SUCCESS');
  assert.equal(d.attempts[0].utr, d.payout.utr);
  assert.ok(d.attempts[0].bank_reference);
  assert.equal(typeof d.attempts[0].inquiries, 'number');
  assert.ok(d.history.some((h: any) => h.entity === 'payout' && h.to_status === 'SUCCESS'), JSON.stringify(d.history));
  assert.equal(JSON.stringify(d).includes('123456789012'), false, 'the account number never appears whole');
});

test('CSV export: the filtered list, streamed as text/csv, formula-like cells defused, other organizations absent', async () => {
  const evil = await createOrder(ts, a, intentBody({ merchant_order_reference: '=HYPERLINK("http://x.example","y")', amount_paise: 123_456 }));
  const r = await viewerA.call('GET', '/payment-orders/export');
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(r.headers.get('content-disposition') ?? '', /attachment; filename="payment-orders-\d{4}-\d{2}-\d{2}\.csv"/, 'dated');
  const lines = r.text.trim().split('\n');
  assert.equal(lines[0], 'created_at,order_id,id,merchant_order_reference,amount_rupees,status,response_mode,utr,paid_at,purpose,customer_name,livemode,settlement_id,settlement_utr,settled_at');
  assert.ok(lines[1]?.includes(evil.order_id), 'newest first');
  assert.ok(lines[1]?.includes(`"'=HYPERLINK(""http://x.example"",""y"")"`), lines[1]);
  assert.ok(lines[1]?.includes(',1234.56,'), lines[1]);
  assert.ok(!r.text.includes(orderB.order_id));
  const rows = await viewerA.call('GET', '/payment-orders');
  assert.equal(lines.length - 1, rows.body.data.length, 'every row of the organization');
  const paid = await viewerA.call('GET', '/payment-orders/export?status=PAID');
  assert.deepEqual(paid.text.trim().split('\n').slice(1).map((l) => l.split(',')[1]), [paidA.order_id]);
  const bad = await viewerA.call('GET', '/payment-orders/export?status=NOPE');
  assert.equal(bad.status, 422, bad.text);
  assert.ok(bad.body.request_id);
  const payouts = await viewerA.call('GET', '/payouts/export?search=PAY-A-1');
  assert.equal(payouts.status, 200, payouts.text);
  const pl = payouts.text.trim().split('\n');
  assert.equal(pl.length, 2);
  assert.ok(pl[1]?.includes(payoutA.transaction_id) && pl[1]?.includes(',2500.00,'), pl[1]);
  // Issue #29 item 5: a formula after a separator another locale splits on (";", tab) is defused
  // too, and such cells are quoted whole.
  const hidden = await createOrder(ts, a, intentBody({ merchant_order_reference: 'inv 7;=1+2;ok', amount_paise: 654_321 }));
  const again = (await viewerA.call('GET', '/payment-orders/export')).text.trim().split('\n');
  const line = again.find((l) => l.includes(hidden.order_id));
  assert.ok(line?.includes(`,"inv 7;'=1+2;ok",`), line);
});

test('CSV export reads past its first keyset page (1,000 rows) without a gap or a repeat', async () => {
  // 1,005 copies of org B's order, each a millisecond older: more than one page of the export.
  await ts.database.db.query(
    `INSERT INTO payment_orders
       SELECT (json_populate_record(o, json_build_object('id', gen_random_uuid(), 'created_at', o.created_at - n * interval '1 millisecond'))).*
         FROM payment_orders o, generate_series(1, 1005) n WHERE o.id = $1`,
    [orderB.id],
  );
  const r = await viewerB.call('GET', '/payment-orders/export');
  assert.equal(r.status, 200, r.text);
  const exported = r.text.trim().split('\n').slice(1).map((l) => l.split(',')[2]);
  assert.equal(exported.length, 1006);
  assert.equal(new Set(exported).size, 1006);
  assert.equal(exported[0], orderB.id);
});
