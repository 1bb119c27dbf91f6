/**
 * The console API behind issue #32, against the real service and PostgreSQL: a refund started from
 * the console (permission, idempotency, what is left, states, another organization), prefix search
 * with LIKE's wildcards taken literally, the payer masked by role, events naming their order, and
 * API clients' "last used".
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { runTijori } from '../support/cli.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let a: TestClient;
let b: TestClient;
let viewer: ConsoleCaller;
let maker: ConsoleCaller;
let reviewer: ConsoleCaller;
let paid: any;
let open: any;
let other: any;

before(async () => {
  ts = await startTestService(FAST_PAYOUT_ENV);
  a = await ts.createClient({});
  b = await ts.createClient({});
  open = await createOrder(ts, a, intentBody({ merchant_order_reference: 'INV_1%', amount_paise: 10_000 }));
  paid = await createOrder(ts, a, intentBody({ merchant_order_reference: 'INV-2024-07', amount_paise: 50_000, customer_email: 'asha.rao@example.in', customer_phone: '9812345678' }));
  other = await createOrder(ts, b, intentBody({ merchant_order_reference: 'INV-2024-08' }));
  for (const o of [paid, other]) {
    const pay = await runTijori(ts, ['sandbox', 'pay', o.order_id, '--json']);
    assert.equal(pay.code, 0, pay.stderr);
  }
  viewer = await signedInUser(ts, a.orgId, 'viewer@asha.example', 'viewer');
  maker = await signedInUser(ts, a.orgId, 'maker@asha.example', 'maker');
  reviewer = await signedInUser(ts, a.orgId, 'reviewer@asha.example', 'reviewer');
  await poll(async () => (await viewer.call('GET', `/payment-orders/${paid.id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
});
after(() => ts?.stop());

const start = (c: ConsoleCaller, order: string, body: unknown, key: string = randomUUID()) => c.call('POST', `/payment-orders/${order}/refunds`, body, { headers: { 'idempotency-key': key } });

test('a refund started in the console: maker or admin only, one per key, never more than what is left, PENDING_REVIEW, audited', async () => {
  const denied = await start(viewer, paid.id, { amount_paise: 100 });
  assert.equal(denied.status, 403, denied.text);
  assert.equal(denied.body.error.code, 'API_SCOPE_DENIED');
  const reviewerDenied = await start(reviewer, paid.id, { amount_paise: 100 });
  assert.equal(reviewerDenied.status, 403, 'a reviewer approves refunds; starting one is not theirs');
  const noKey = await maker.call('POST', `/payment-orders/${paid.id}/refunds`, { amount_paise: 100 });
  assert.equal(noKey.status, 400, noKey.text);
  assert.equal(noKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');

  const key = randomUUID();
  const r = await start(maker, paid.order_id, { amount_paise: 20_000, reason: 'Two items back' }, key);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.status, 'PENDING_REVIEW');
  assert.equal(r.body.data.amount_paise, 20_000);
  assert.equal(r.body.data.order_id, paid.order_id);
  const again = await start(maker, paid.order_id, { amount_paise: 20_000, reason: 'Two items back' }, key);
  assert.equal(again.status, 201);
  assert.equal(again.body.data.id, r.body.data.id, 'the same key answers the same refund');
  const rows = await ts.database.db.query('SELECT count(*)::int AS n FROM refunds WHERE order_pk = $1', [paid.id]);
  assert.equal(rows.rows[0]!.n, 1);

  const tooMuch = await start(maker, paid.id, { amount_paise: 30_001 });
  assert.equal(tooMuch.status, 422, tooMuch.text);
  assert.equal(tooMuch.body.error.code, 'REFUND_EXCEEDS_AMOUNT');
  assert.ok(tooMuch.body.request_id);
  const notPaid = await start(maker, open.id, {});
  assert.equal(notPaid.status, 409, notPaid.text);
  assert.equal(notPaid.body.error.code, 'INVALID_STATE');
  const otherOrg = await start(maker, other.id, {});
  assert.equal(otherOrg.status, 404, "another organization's order is not found");
  const bad = await start(maker, paid.id, { amount_paise: -5 });
  assert.equal(bad.status, 422, bad.text);
  // The merchant API's bound (schemas/refunds.ts), also what the OpenAPI document says (issue 31).
  const huge = await start(maker, paid.id, { amount_paise: 10_000_000_001 });
  assert.equal(huge.status, 422, huge.text);
  assert.deepEqual(huge.body.error.details, [{ field: 'amount_paise', issue: 'must be at most 10000000000' }]);

  // What is left (₹300.00) by default.
  const rest = await start(maker, paid.id, {});
  assert.equal(rest.status, 201, rest.text);
  assert.equal(rest.body.data.amount_paise, 30_000);

  const audit = await ts.database.db.query(`SELECT actor, after FROM console_audit_log WHERE action = 'refund.requested' AND org_id = $1 ORDER BY created_at`, [a.orgId]);
  assert.deepEqual(
    audit.rows.map((x) => [x.actor, x.after.amount_paise, x.after.status]),
    [
      ['maker@asha.example', 20_000, 'PENDING_REVIEW'],
      ['maker@asha.example', 30_000, 'PENDING_REVIEW'],
    ],
  );
  const events = await ts.database.db.query(`SELECT count(*)::int AS n FROM events WHERE kind = 'collection.refund.requested' AND aggregate_id = $1`, [paid.id]);
  assert.equal(events.rows[0]!.n, 2, 'collection.refund.requested for each');
});

test('search is a prefix of a reference; LIKE wildcards in the text are literal', async () => {
  const search = async (text: string) => (await viewer.call('GET', `/payment-orders?search=${encodeURIComponent(text)}`)).body.data.map((o: any) => o.merchant_order_reference);
  assert.deepEqual(await search('INV-2024'), ['INV-2024-07']);
  assert.deepEqual(await search('INV_'), ['INV_1%'], '_ is not "any character"');
  assert.deepEqual(await search('INV_1%'), ['INV_1%']);
  assert.deepEqual(await search('%'), [], '% is not "anything"');
  assert.deepEqual(await search('NV-'), [], 'a prefix, not a substring');
});

test("the payer on an order's page: masked for a viewer, in full for a reviewer", async () => {
  const seen = async (c: ConsoleCaller) => (await c.call('GET', `/payment-orders/${paid.id}`)).body.data.payer;
  assert.deepEqual(await seen(viewer), { name: 'Asha Rao', email: 'a***@example.in', phone: '••••••5678', masked: true });
  assert.deepEqual(await seen(reviewer), { name: 'Asha Rao', email: 'asha.rao@example.in', phone: '9812345678', masked: false });
});

test('events name their order; API clients show when they were last used', async () => {
  const events = (await viewer.call('GET', '/events?limit=50')).body.data;
  const received = events.find((e: any) => e.type === 'collection.received' && e.aggregate_id === paid.id);
  assert.ok(received, JSON.stringify(events));
  assert.equal(received.reference, paid.order_id);

  const admin = await signedInUser(ts, a.orgId, 'admin@asha.example', 'admin');
  const listed = async () => (await admin.call('GET', '/api-clients')).body.data.find((c: any) => c.client_id === a.clientId);
  // `a` made orders through the API in before(): its use was noted.
  const seenAt = await poll(async () => (await listed())?.last_used_at ?? undefined, { what: 'last_used_at', timeoutMs: 5_000, stepMs: 100 });
  assert.ok(Date.now() - Date.parse(seenAt) < 10 * 60_000, seenAt);
});

test('no single person moves money: an admin who started a refund in the console cannot approve it (403 SELF_APPROVAL_DENIED); a reviewer can', async () => {
  const order = await createOrder(ts, a, intentBody({ merchant_order_reference: 'INV-DUAL-1', amount_paise: 40_000 }));
  const pay = await runTijori(ts, ['sandbox', 'pay', order.order_id, '--json']);
  assert.equal(pay.code, 0, pay.stderr);
  const admin = await signedInUser(ts, a.orgId, 'refund.admin@asha.example', 'admin');
  await poll(async () => (await admin.call('GET', `/payment-orders/${order.id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
  const started = await start(admin, order.id, { amount_paise: 15_000, reason: 'Damaged' });
  assert.equal(started.status, 201, started.text);
  assert.equal(started.body.data.status, 'PENDING_REVIEW');

  const self = await admin.call('POST', `/refunds/${started.body.data.id}/approve`, { note: 'mine' });
  assert.equal(self.status, 403, self.text);
  assert.equal(self.body.error.code, 'SELF_APPROVAL_DENIED');
  assert.ok(self.body.request_id);
  const still = await ts.database.db.query('SELECT status, requested_by_user_id FROM refunds WHERE id = $1', [started.body.data.id]);
  assert.equal(still.rows[0]!.status, 'PENDING_REVIEW', 'nothing moved');
  assert.equal(still.rows[0]!.requested_by_user_id, admin.userId);

  const ok = await reviewer.call('POST', `/refunds/${started.body.data.id}/approve`, { note: 'checked' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status === 'PROCESSING' || ok.body.data.status === 'SUCCESS', true, ok.text);
});

test("a refund started in the console waits for a reviewer even when the organization's refunds need no review", async () => {
  const set = await runTijori(ts, ['org', 'set', '--org', a.orgId, '--refund-review', 'none', '--json']);
  assert.equal(set.code, 0, set.stderr);
  try {
    const order = await createOrder(ts, a, intentBody({ merchant_order_reference: 'INV-NOREVIEW-1', amount_paise: 20_000 }));
    const pay = await runTijori(ts, ['sandbox', 'pay', order.order_id, '--json']);
    assert.equal(pay.code, 0, pay.stderr);
    await poll(async () => (await maker.call('GET', `/payment-orders/${order.id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
    const r = await start(maker, order.id, { amount_paise: 5_000, reason: 'Late delivery' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.data.status, 'PENDING_REVIEW', 'one person alone does not send money back');
  } finally {
    await runTijori(ts, ['org', 'set', '--org', a.orgId, '--refund-review', 'required', '--json']);
  }
});
