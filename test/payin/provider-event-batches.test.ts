/**
 * Provider callbacks in batches (src/services/providers/provider-intake.ts): callbacks posted together are
 * stored once each (duplicates of one batch too), events are applied several per transaction, and
 * an event whose handler fails rolls back only its batch, whose other events then go through one
 * per transaction while the failing one is set aside with its error and a back-off. News applied
 * together (applyCollectionStatusesByReference) means exactly what it means one transaction each,
 * and two batches locking the same orders in any order never deadlock.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import { applyCollectionStatusesByReference } from '../../src/services/payin/payment-order-transitions.js';
import { orderIdFor } from '../../src/services/payin/payment-order-view.js';
import { serviceWithClient } from '../support/service.js';
import { countingStatements } from '../support/statements.js';
import { createOrder, intentBody, reportedFor, waitFor } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

const successPayload = async (orderId: string, utr: string, paidAt: string) => {
  const reported = await reportedFor(w.t, orderId);
  return {
    eventId: randomUUID(),
    kind: 'collection',
    reference: orderId,
    status: { status: 'SUCCESS', providerStatus: 'SUCCESS', utr, paidAt, amountPaise: reported.amount_paise, providerReference: reported.provider_reference },
  };
};

/** Stores the events in one transaction, as a burst the worker finds together. */
async function storeTogether(payloads: Array<Awaited<ReturnType<typeof successPayload>>>): Promise<void> {
  await w.t.database.db.tx(async (tx) => {
    for (const p of payloads) {
      await tx.query(
        `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body) VALUES ($1, 'sandbox', $2, 'collection', $3, $4, '{}')`,
        [randomUUID(), p.eventId, p.reference, JSON.stringify(p)],
      );
    }
  });
}

async function postCallback(body: Record<string, unknown>) {
  const text = JSON.stringify(body);
  const res = await fetch(`${w.t.svc.internalUrl}/provider/sandbox/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxBody(sandboxSigningSecret(w.t.config.masterKey), text) },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as { data?: { status?: string } } };
}

test('callbacks posted together are each stored once, repeats of one event included', async () => {
  const orders = await Promise.all(Array.from({ length: 10 }, () => createOrder(w.t, w.client, intentBody())));
  const bodies = await Promise.all(
    orders.map(async (o, i) => ({
      id: randomUUID(),
      type: 'collection.updated',
      reference: o.order_id,
      status: 'SUCCESS',
      utr: String(500_000_000_000 + i),
      paid_at: new Date().toISOString(),
      ...(await reportedFor(w.t, o.order_id)),
    })),
  );
  // Every callback twice, all at once: the intake batches what arrives together.
  const answers = await Promise.all([...bodies, ...bodies].map((b) => postCallback(b)));
  assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers));
  const stored = await w.t.database.db.query('SELECT count(*)::int AS n FROM provider_events WHERE event_id = ANY($1)', [bodies.map((b) => b.id)]);
  assert.equal(stored.rows[0]!.n, bodies.length);
  for (const o of orders) {
    await waitFor(async () => (await w.t.database.db.query('SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]!.status === 'PAID');
  }
  const paidEvents = await w.t.database.db.query(`SELECT count(*)::int AS n FROM events WHERE aggregate_id = ANY($1::uuid[]) AND kind = 'collection.received'`, [
    orders.map((o) => o.id),
  ]);
  assert.equal(paidEvents.rows[0]!.n, orders.length, 'one collection.received per order');
});

test('a failing event rolls back only its batch: the others are applied, it waits alone with its error', async () => {
  const orders = await Promise.all(Array.from({ length: 6 }, () => createOrder(w.t, w.client, intentBody())));
  const good = await Promise.all(orders.slice(1).map((o, i) => successPayload(o.order_id, String(600_000_000_000 + i), new Date().toISOString())));
  // An unparseable payment time: the order's UPDATE fails inside the handler.
  const bad = await successPayload(orders[0]!.order_id, '699999999999', 'not a time');
  const all = [bad, ...good];
  await storeTogether(all);
  await w.t.svc.ctx.providerIntake.processBatch(20);
  const rows = await waitFor(async () => {
    const r = await w.t.database.db.query<{ event_id: string; state: string; outcome: string | null; attempts: number; last_error: string | null }>(
      'SELECT event_id, state, outcome, attempts, last_error FROM provider_events WHERE event_id = ANY($1)',
      [all.map((p) => p.eventId)],
    );
    return r.rows.filter((row) => row.state === 'processed').length === good.length ? r.rows : null;
  });
  const byId = new Map(rows.map((r) => [r.event_id, r]));
  for (const p of good) assert.equal(byId.get(p.eventId)!.outcome, 'paid');
  const failed = byId.get(bad.eventId)!;
  assert.equal(failed.state, 'pending');
  assert.equal(failed.attempts, 1, 'set aside once, by the one-per-transaction retry');
  assert.ok(failed.last_error, 'its error is recorded');
  const statuses = await w.t.database.db.query('SELECT id, status FROM payment_orders WHERE id = ANY($1::uuid[])', [orders.map((o) => o.id)]);
  const statusOf = new Map(statuses.rows.map((r) => [r.id, r.status]));
  assert.equal(statusOf.get(orders[0]!.id), 'PENDING_PAYMENT');
  for (const o of orders.slice(1)) assert.equal(statusOf.get(o.id), 'PAID');
});

test('events found together are applied several per transaction', async () => {
  // The failing event of the test before waits for its retry: once due, it would share this test's
  // claim, fail that transaction and send every event to the one-per-transaction path.
  await w.t.database.db.query(`UPDATE provider_events SET next_attempt_at = now() + interval '1 hour' WHERE state = 'pending'`);
  const orders = await Promise.all(Array.from({ length: 8 }, () => createOrder(w.t, w.client, intentBody())));
  const payloads = await Promise.all(orders.map((o, i) => successPayload(o.order_id, String(700_000_000_000 + i), new Date().toISOString())));
  await storeTogether(payloads);
  await w.t.svc.ctx.providerIntake.processBatch(20);
  const rows = await waitFor(async () => {
    const r = await w.t.database.db.query<{ state: string; at: string }>('SELECT state, processed_at::text AS at FROM provider_events WHERE event_id = ANY($1)', [
      payloads.map((p) => p.eventId),
    ]);
    return r.rows.every((row) => row.state === 'processed') ? r.rows : null;
  });
  // processed_at is the transaction's start time (to the microsecond: read as text, not as a
  // millisecond Date): fewer distinct values than events means some transaction applied several
  // (the background worker may take a share of them concurrently).
  const transactions = new Set(rows.map((r) => r.at));
  assert.ok(transactions.size < payloads.length, `${payloads.length} events in ${transactions.size} transactions`);
});

const success = async (reference: string, utr: string) => {
  const reported = await reportedFor(w.t, reference);
  return {
    reference,
    source: 'test',
    status: { status: 'SUCCESS', providerStatus: 'SUCCESS', utr, paidAt: new Date(), amountPaise: reported.amount_paise, providerReference: reported.provider_reference } as const,
  };
};

test('news about the same orders in one batch is applied in its order, as if one transaction each', async () => {
  const [a, b, c, d] = await Promise.all(Array.from({ length: 4 }, () => createOrder(w.t, w.client, intentBody())));
  const news = [
    await success(a!.order_id, '810000000001'),
    { reference: b!.order_id, source: 'test', status: { status: 'FAILED', providerStatus: 'FAILURE', reason: 'declined' } as const },
    await success(a!.order_id, '810000000002'), // a second payment for a paid order: recorded, flagged
    await success(b!.order_id, '810000000003'), // money for a failed order: recorded, flagged
    await success(orderIdFor(randomUUID()), '810000000004'), // never issued
    await success(c!.order_id, '810000000005'),
    await success(c!.order_id, '810000000005'), // the same news again
    { reference: d!.order_id, source: 'test', status: { status: 'PENDING', providerStatus: 'PENDING_AT_BANK' } as const },
  ];
  const results = await w.t.database.db.tx((tx) => applyCollectionStatusesByReference(tx, news));
  assert.deepEqual(results, ['paid', 'failed', 'late_confirmation', 'late_confirmation', 'unknown_order', 'paid', 'unchanged', 'unchanged']);
  const rows = await w.t.database.db.query('SELECT id, status, bank_transaction_id, review_required, provider_status FROM payment_orders WHERE id = ANY($1::uuid[])', [
    [a!.id, b!.id, c!.id, d!.id],
  ]);
  const row = new Map(rows.rows.map((r) => [r.id as string, r]));
  assert.deepEqual({ ...row.get(a!.id) }, { id: a!.id, status: 'PAID', bank_transaction_id: '810000000001', review_required: true, provider_status: 'SUCCESS' });
  assert.equal(row.get(b!.id)!.status, 'FAILED');
  assert.equal(row.get(b!.id)!.review_required, true);
  assert.equal(row.get(c!.id)!.status, 'PAID');
  assert.equal(row.get(c!.id)!.review_required, false);
  assert.equal(row.get(d!.id)!.provider_status, 'PENDING_AT_BANK');
  const late = await w.t.database.db.query('SELECT order_pk, utr FROM payment_order_late_confirmations WHERE order_pk = ANY($1::uuid[]) ORDER BY utr', [[a!.id, b!.id]]);
  assert.deepEqual(late.rows.map((r) => [r.order_pk, r.utr]), [[a!.id, '810000000002'], [b!.id, '810000000003']]);
  const events = await w.t.database.db.query(`SELECT aggregate_id FROM events WHERE aggregate_id = ANY($1::uuid[]) AND kind = 'collection.received' ORDER BY aggregate_id`, [
    [a!.id, b!.id, c!.id, d!.id],
  ]);
  assert.deepEqual(events.rows.map((r) => r.aggregate_id).sort(), [a!.id, c!.id].sort(), 'one collection.received per paid order');
  const history = await w.t.database.db.query(`SELECT order_pk, to_status FROM payment_order_transitions WHERE order_pk = ANY($1::uuid[]) AND to_status IN ('PAID', 'FAILED')`, [
    [a!.id, b!.id, c!.id],
  ]);
  assert.equal(history.rows.length, 3, 'one history row per move');
});

test('two transactions applying news about the same orders in opposite orders do not deadlock', async () => {
  const orders = await Promise.all(Array.from({ length: 12 }, () => createOrder(w.t, w.client, intentBody())));
  const news = await Promise.all(orders.map((o, i) => success(o.order_id, String(820_000_000_000 + i))));
  const [one, two] = await Promise.all([
    w.t.database.db.tx((tx) => applyCollectionStatusesByReference(tx, news)),
    w.t.database.db.tx((tx) => applyCollectionStatusesByReference(tx, [...news].reverse())),
  ]);
  const both = [...one!, ...two!];
  assert.equal(both.filter((r) => r === 'paid').length, orders.length, 'each order paid exactly once');
  assert.equal(both.filter((r) => r === 'unchanged').length, orders.length, 'the other news of each order is a duplicate');
  const events = await w.t.database.db.query(`SELECT count(*)::int AS n FROM events WHERE aggregate_id = ANY($1::uuid[]) AND kind = 'collection.received'`, [orders.map((o) => o.id)]);
  assert.equal(events.rows[0]!.n, orders.length);
});

test('confirmations of different orders applied together take four statements: one lock, one write of the moves, one of the events, one of the ledger entries', async () => {
  const orders = await Promise.all(Array.from({ length: 8 }, () => createOrder(w.t, w.client, intentBody())));
  const news = await Promise.all(orders.map((o, i) => success(o.order_id, String(830_000_000_000 + i))));
  // Each piece of news is a unit of work of its own; side by side, their single-item statements coalesce.
  const { result: results, statements } = await w.t.database.db.tx((tx) => countingStatements(tx, () => applyCollectionStatusesByReference(tx, news)));
  assert.deepEqual(results, orders.map(() => 'paid'));
  assert.equal(statements, 4);
  const entries = await w.t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'collection_confirmed' AND source_id = ANY($1::uuid[])`, [orders.map((o) => o.id)]);
  assert.equal(entries.rows[0]?.n, orders.length, 'one ledger entry per confirmation');
});
