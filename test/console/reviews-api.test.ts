/**
 * The console's review queue and refund review (contract §5, §6) against the real service and
 * PostgreSQL: a reviewer confirms (order MANUALLY_CONFIRMED + collection.received) or rejects
 * (order unchanged), two reviewers at once get one 200 and one 409 naming the winner, a viewer
 * reads but is refused (403), other organizations' items never show, every decision is audited.
 * Review items are made the real way: the sandbox PSP takes a wrong amount.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signedInUser } from '../support/console.js';
import { serviceWithClient } from '../support/service.js';
import { createOrder, eventsOf, intentBody, itemsOnceThere, key, orderRow, paidOrder, sandboxPay } from '../refunds/helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

/** An INTENT order the sandbox paid 100 paise for: one open confirmation_mismatch item. */
async function mismatchedOrder(): Promise<{ id: string; order_id: string; itemId: string }> {
  const o = await createOrder(w.t, w.client, intentBody({ amount_paise: 5_000_000 }));
  await sandboxPay(w.t, o.order_id, { callback: true, amountPaise: 100 });
  const [item] = await itemsOnceThere(w.t, o.id);
  return { id: o.id, order_id: o.order_id, itemId: item!.id as string };
}

async function pendingRefund(amountPaise = 20_000): Promise<{ id: string; refund_id: string; orderPk: string }> {
  const o = await paidOrder(w.t, w.client, amountPaise);
  const r = await w.t.api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client: w.client, body: { reason: 'returned' }, idempotencyKey: key() });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.status, 'PENDING_REVIEW');
  return { id: r.body.data.id, refund_id: r.body.data.refund_id, orderPk: o.id };
}

test('a reviewer sees the item with what the provider reported and confirms it with a note: MANUALLY_CONFIRMED, collection.received, audited', async () => {
  const m = await mismatchedOrder();
  const rev = await signedInUser(w.t, w.client.orgId, 'rev1@example.com', 'reviewer');
  const list = await rev.call('GET', '/review-items?status=open');
  assert.equal(list.status, 200, list.text);
  const mine = list.body.data.find((i: any) => i.id === m.itemId);
  assert.ok(mine, 'the open item is listed');
  assert.equal(mine.kind, 'confirmation_mismatch');
  assert.equal(mine.provider_reported.amount_paise, 100);
  assert.equal(mine.order.order_id, m.order_id);

  const blank = await rev.call('POST', `/review-items/${m.itemId}/confirm`, { note: '   ' });
  assert.equal(blank.status, 422, blank.text);
  assert.equal((await orderRow(w.t, m.id)).status, 'PENDING_PAYMENT');
  const noCsrf = await rev.call('POST', `/review-items/${m.itemId}/confirm`, { note: 'x' }, { csrf: null });
  assert.equal(noCsrf.status, 403);

  const ok = await rev.call('POST', `/review-items/${m.itemId}/confirm`, { note: 'Bank statement line 42 shows ₹50,000 with this UTR' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status, 'confirmed');
  assert.equal(ok.body.data.acted_by, 'rev1@example.com');
  assert.equal((await orderRow(w.t, m.id)).status, 'MANUALLY_CONFIRMED');
  const received = await eventsOf(w.t, m.id, 'collection.received');
  assert.equal(received.length, 1);
  assert.equal(received[0]!.data.status, 'MANUALLY_CONFIRMED');

  const audit = await rev.call('GET', '/audit-log?action=review_item.confirmed');
  assert.equal(audit.status, 200);
  const entry = audit.body.data.find((e: any) => e.target_id === m.itemId);
  assert.ok(entry, audit.text);
  assert.equal(entry.actor, 'rev1@example.com');
  assert.deepEqual(entry.before.status, 'open');
  assert.deepEqual(entry.after, { status: 'confirmed', note: 'Bank statement line 42 shows ₹50,000 with this UTR', order_status: 'MANUALLY_CONFIRMED' });
});

test('reject closes the item and leaves the order as it was', async () => {
  const m = await mismatchedOrder();
  const rev = await signedInUser(w.t, w.client.orgId, 'rev2@example.com', 'reviewer');
  const r = await rev.call('POST', `/review-items/${m.itemId}/reject`, { note: 'Amount does not match any statement line' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.status, 'rejected');
  assert.equal((await orderRow(w.t, m.id)).status, 'PENDING_PAYMENT');
  assert.deepEqual(await eventsOf(w.t, m.id, 'collection.received'), []);
  const audit = await rev.call('GET', '/audit-log?action=review_item.rejected');
  assert.ok(audit.body.data.some((e: any) => e.target_id === m.itemId && e.after.status === 'rejected'));
  // Open items come first in the unfiltered queue.
  const other = await mismatchedOrder();
  const all = (await rev.call('GET', '/review-items')).body.data as any[];
  const firstDecided = all.findIndex((i) => i.status !== 'open');
  const lastOpen = all.map((i) => i.status).lastIndexOf('open');
  assert.ok(all.some((i) => i.id === other.itemId));
  assert.ok(firstDecided === -1 || lastOpen < firstDecided, `open first: ${all.map((i) => i.status).join(',')}`);
});

test('two reviewers confirm at once: one 200, one 409 naming who decided; one event, one audit entry', async () => {
  const m = await mismatchedOrder();
  const a = await signedInUser(w.t, w.client.orgId, 'race-a@example.com', 'reviewer');
  const b = await signedInUser(w.t, w.client.orgId, 'race-b@example.com', 'admin');
  const [ra, rb] = await Promise.all([
    a.call('POST', `/review-items/${m.itemId}/confirm`, { note: 'evidence A' }),
    b.call('POST', `/review-items/${m.itemId}/confirm`, { note: 'evidence B' }),
  ]);
  assert.deepEqual([ra.status, rb.status].sort(), [200, 409], `${ra.text} ${rb.text}`);
  const [win, lose] = ra.status === 200 ? [ra, rb] : [rb, ra];
  assert.equal(lose.body.error.code, 'INVALID_STATE');
  assert.ok(lose.body.request_id);
  assert.match(lose.body.error.message, new RegExp(`already confirmed by ${win.body.data.acted_by}`));
  assert.equal((await eventsOf(w.t, m.id, 'collection.received')).length, 1);
  const entries = (await a.call('GET', '/audit-log?action=review_item.')).body.data.filter((e: any) => e.target_id === m.itemId);
  assert.equal(entries.length, 1);
});

test('a viewer reads the queue and the refunds but every decision is 403; nothing changes', async () => {
  const m = await mismatchedOrder();
  const rf = await pendingRefund();
  const viewer = await signedInUser(w.t, w.client.orgId, 'viewer@example.com', 'viewer');
  assert.equal((await viewer.call('GET', '/review-items')).status, 200);
  assert.ok((await viewer.call('GET', '/refunds')).body.data.some((r: any) => r.id === rf.id));
  for (const path of [`/review-items/${m.itemId}/confirm`, `/review-items/${m.itemId}/reject`, `/refunds/${rf.id}/approve`, `/refunds/${rf.id}/reject`]) {
    const r = await viewer.call('POST', path, { note: 'trying' });
    assert.equal(r.status, 403, `${path}: ${r.text}`);
    assert.equal(r.body.error.code, 'API_SCOPE_DENIED');
  }
  const dev = await signedInUser(w.t, w.client.orgId, 'dev@example.com', 'developer');
  assert.equal((await dev.call('POST', `/refunds/${rf.id}/approve`, { note: 'x' })).status, 403);
  assert.equal((await orderRow(w.t, m.id)).status, 'PENDING_PAYMENT');
  assert.equal((await w.t.database.db.query('SELECT status FROM refunds WHERE id = $1', [rf.id])).rows[0]!.status, 'PENDING_REVIEW');
});

test('another organization never sees nor decides this organization\'s items and refunds', async () => {
  const m = await mismatchedOrder();
  const rf = await pendingRefund();
  const otherOrg = await w.t.createOrg('Other org');
  const stranger = await signedInUser(w.t, otherOrg, 'stranger@example.com', 'reviewer');
  assert.deepEqual((await stranger.call('GET', '/review-items')).body.data, []);
  assert.deepEqual((await stranger.call('GET', '/refunds')).body.data, []);
  assert.equal((await stranger.call('GET', `/review-items/${m.itemId}`)).status, 404);
  assert.equal((await stranger.call('POST', `/review-items/${m.itemId}/confirm`, { note: 'mine now' })).status, 404);
  assert.equal((await stranger.call('POST', `/refunds/${rf.id}/approve`, { note: 'mine now' })).status, 404);
  assert.equal((await stranger.call('POST', `/refunds/${rf.refund_id}/reject`, { note: 'mine now' })).status, 404);
  assert.equal((await orderRow(w.t, m.id)).status, 'PENDING_PAYMENT');
  assert.equal((await w.t.database.db.query('SELECT status FROM refunds WHERE id = $1', [rf.id])).rows[0]!.status, 'PENDING_REVIEW');
});

test('refunds: filter by status; a reviewer approves (sent to the provider) or rejects with a note; a second decision is 409 naming the first; audited', async () => {
  const one = await pendingRefund();
  const two = await pendingRefund();
  const rev = await signedInUser(w.t, w.client.orgId, 'refunds@example.com', 'reviewer');
  const pending = (await rev.call('GET', '/refunds?status=PENDING_REVIEW')).body.data as any[];
  assert.ok(pending.some((r) => r.id === one.id) && pending.every((r) => r.status === 'PENDING_REVIEW'));
  assert.equal((await rev.call('GET', '/refunds?status=NOPE')).status, 422);

  const ok = await rev.call('POST', `/refunds/${one.id}/approve`, { note: 'Goods back in stock' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status, 'PROCESSING');
  const again = await rev.call('POST', `/refunds/${one.id}/reject`, { note: 'changed my mind' });
  assert.equal(again.status, 409, again.text);
  assert.match(again.body.error.message, /already reviewed by refunds@example\.com/);

  const no = await rev.call('POST', `/refunds/${two.refund_id}/reject`, { note: 'Not returned' });
  assert.equal(no.status, 200, no.text);
  assert.equal(no.body.data.status, 'REJECTED');
  const audit = (await rev.call('GET', '/audit-log?action=refund.')).body.data as any[];
  const approved = audit.find((e) => e.action === 'refund.approved' && e.target_id === one.refund_id);
  assert.deepEqual({ before: approved?.before.status, after: approved?.after }, { before: 'PENDING_REVIEW', after: { status: 'PROCESSING', note: 'Goods back in stock' } });
  assert.ok(audit.some((e) => e.action === 'refund.rejected' && e.target_id === two.refund_id && e.after.status === 'REJECTED'));
  assert.equal(audit.filter((e) => e.target_id === one.refund_id).length, 1, 'the refused second decision left no entry');
});
