/**
 * Payout news applied together (src/services/payouts/payout-outcomes.ts): a lane's bank callbacks in one
 * call, concurrent submit/inquiry answers in one transaction, each a unit of work of its own. Each batch must leave exactly what
 * applying its news one by one would, and batches over the same payouts must not deadlock.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PayoutOutcomeRecorder } from '../../src/services/payouts/payout-outcomes.js';
import { countingStatements } from '../support/statements.js';
import { createPayout, eventsOf, payoutBody, type PayoutWorld, startPayoutWorld, waitFor } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  // The payout worker inquires pending payouts; here its first inquiry comes after 10 minutes, so
  // it cannot move the attempts these tests set up (under load it did, between set-up and batch).
  w = await startPayoutWorld({ PAYOUT_INQUIRY_BASE_MS: '600000', PAYOUT_INQUIRY_MAX_MS: '600000' });
});
after(async () => {
  await w?.t.stop();
});

/** A payout the sandbox bank accepted and keeps PENDING for 10 minutes (amount ending in 77). */
async function processingPayout(amountPaise: number): Promise<{ id: string; transactionId: string; attemptId: string; bankReference: string }> {
  const r = await createPayout(w, payoutBody(amountPaise));
  assert.equal(r.status, 201);
  const { id, transaction_id } = r.body.data;
  const a = await waitFor('the bank to accept', async () => {
    const q = await w.t.database.db.query<{ id: string; status: string; bank_reference: string }>('SELECT id, status, bank_reference FROM payout_attempts WHERE payout_id = $1', [id]);
    return q.rows[0]?.status === 'PROCESSING' ? q.rows[0] : undefined;
  });
  return { id, transactionId: transaction_id, attemptId: a.id, bankReference: a.bank_reference };
}

const success = (utr: string) => ({ status: 'SUCCESS' as const, providerReference: '', utr, processedAt: new Date('2026-11-21T10:00:00Z') });

async function history(payoutId: string) {
  const r = await w.t.database.db.query<{ entity: string; from_status: string | null; to_status: string }>(
    'SELECT entity, from_status, to_status FROM payout_transitions WHERE payout_id = $1 ORDER BY id',
    [payoutId],
  );
  return r.rows.map((row) => `${row.entity}:${row.from_status}->${row.to_status}`);
}

test('one batch of callbacks: news about the same payout is decided in order, duplicates and bad news change nothing', async () => {
  const a = await processingPayout(41_077);
  const b = await processingPayout(42_077);
  // Payout a's attempt as if its submit answer had not been recorded yet: the batch moves it twice.
  await w.t.database.db.query(`UPDATE payout_attempts SET status = 'PENDING_SUBMIT', bank_reference = NULL WHERE id = $1`, [a.attemptId]);
  await w.t.database.db.query('UPDATE payouts SET bank_reference = NULL WHERE id = $1', [a.id]);
  const ctx = w.t.svc.ctx;
  const results = await ctx.db.tx((tx) =>
    ctx.payoutSubmission.applyProviderPayoutUpdates(tx, [
      { reference: a.transactionId, status: { status: 'PENDING', providerReference: a.bankReference } },
      { reference: b.transactionId, status: { ...success('not-a-utr'), providerReference: b.bankReference } },
      { reference: a.transactionId, status: { ...success('111122223333'), providerReference: a.bankReference } },
      { reference: 'TJPNOSUCHREFERENCE', status: { ...success('111122223334'), providerReference: 'X' } },
      { reference: a.transactionId, status: { ...success('111122223333'), providerReference: a.bankReference } },
      { reference: b.transactionId, status: { status: 'NOT_FOUND' } },
      { reference: a.transactionId, status: { status: 'FAILED', providerReference: a.bankReference, reason: 'late' } },
      { reference: b.transactionId, status: { status: 'FAILED', providerReference: b.bankReference, reason: 'ACCOUNT_CLOSED: closed' } },
    ]),
  );
  assert.deepEqual(results, ['applied', 'invalid_utr', 'applied', 'unknown_reference', 'unchanged', 'ignored', 'stale', 'applied']);

  const pa = await w.t.api('GET', `/merchant/payouts/${a.id}`, { client: w.client });
  assert.equal(pa.body.data.status, 'SUCCESS');
  assert.equal(pa.body.data.utr, '111122223333');
  assert.equal(pa.body.data.bank_reference, a.bankReference);
  assert.equal(pa.body.data.attempts[0].status, 'SUCCESS');
  const pb = await w.t.api('GET', `/merchant/payouts/${b.id}`, { client: w.client });
  assert.equal(pb.body.data.status, 'FAILED');
  assert.equal(pb.body.data.failure_reason, 'ACCOUNT_CLOSED: closed');
  assert.equal(pb.body.data.utr, null);

  // (The first PENDING_SUBMIT->PROCESSING is the real submit's, before the reset above.)
  assert.deepEqual(await history(a.id), [
    'payout:null->PROCESSING', 'attempt:null->PENDING_SUBMIT', 'attempt:PENDING_SUBMIT->PROCESSING',
    'attempt:PENDING_SUBMIT->PROCESSING', 'attempt:PROCESSING->SUCCESS', 'payout:PROCESSING->SUCCESS',
  ]);
  const attemptA = await w.t.database.db.query('SELECT status, bank_reference, utr FROM payout_attempts WHERE id = $1', [a.attemptId]);
  assert.deepEqual(attemptA.rows[0], { status: 'SUCCESS', bank_reference: a.bankReference, utr: '111122223333' });
  assert.deepEqual(await history(b.id), ['payout:null->PROCESSING', 'attempt:null->PENDING_SUBMIT', 'attempt:PENDING_SUBMIT->PROCESSING', 'attempt:PROCESSING->FAILED', 'payout:PROCESSING->FAILED']);
  assert.deepEqual((await eventsOf(w, a.id)).map((e) => e.kind), ['payout.created', 'payout.success']);
  const eb = await eventsOf(w, b.id);
  assert.deepEqual(eb.map((e) => e.kind), ['payout.created', 'payout.failed']);
  assert.equal(eb[1]!.body.data.failure_reason, 'ACCOUNT_CLOSED: closed');
});

test('batches over the same payouts in opposite orders do not deadlock; each payout settles once', async () => {
  const payouts = await Promise.all([43_077, 44_077, 45_077, 46_077].map((amount) => processingPayout(amount)));
  const ctx = w.t.svc.ctx;
  const news = payouts.map((p, i) => ({ reference: p.transactionId, status: { ...success(`55556666777${i}`), providerReference: p.bankReference } }));
  const batches = [news, [...news].reverse(), news, [...news].reverse()];
  const results = await Promise.all(batches.map((batch) => ctx.db.tx((tx) => ctx.payoutSubmission.applyProviderPayoutUpdates(tx, batch))));
  for (const p of payouts) {
    const outcomes = results.map((r, i) => r[(i % 2 === 0 ? payouts : [...payouts].reverse()).indexOf(p)]);
    assert.deepEqual(outcomes.filter((o) => o === 'applied').length, 1, `payout ${p.id}: ${outcomes.join(',')}`);
    assert.deepEqual((await eventsOf(w, p.id)).map((e) => e.kind), ['payout.created', 'payout.success']);
  }
});

test('answers of held attempts that arrive together are recorded in one transaction, each as if alone', async () => {
  const payouts = await Promise.all([47_077, 48_077, 49_077, 50_077, 51_077, 52_077].map((amount) => processingPayout(amount)));
  const ctx = w.t.svc.ctx;
  const before = await w.t.database.db.query<{ id: string; inquiry_count: number }>('SELECT id, inquiry_count FROM payout_attempts WHERE id = ANY($1::uuid[])', [payouts.map((p) => p.attemptId)]);
  // A recorder of its own, on a database handle that counts its transactions (the service's
  // workers share ctx.db and would be counted too).
  let transactions = 0;
  let statements = 0;
  const db = Object.create(ctx.db) as typeof ctx.db;
  db.tx = ((fn: any) => {
    transactions++;
    // Each answer is its own unit of work (lock, decide, write); side by side, their statements coalesce.
    return ctx.db.tx(async (tx) => {
      const counted = await countingStatements(tx, () => fn(tx));
      statements += counted.statements;
      return counted.result;
    });
  }) as typeof ctx.db.tx;
  const recorder = new PayoutOutcomeRecorder({ ...ctx, db });
  const results = await Promise.all(
    payouts.map((p, i) =>
      recorder.record(p.attemptId, {
        update: { kind: 'succeeded', bankReference: p.bankReference, utr: `99998888777${i}`, processedAt: new Date() },
        holder: true,
        inquired: true,
      }),
    ),
  );
  assert.deepEqual(results.map((r) => r.result), payouts.map(() => 'applied'));
  assert.equal(transactions, 1, 'six answers in the same turn share one transaction');
  assert.equal(statements, 4, 'one statement locks the six attempts, one writes their moves, one their payout.success events, one their ledger entries');
  const entries = await w.t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'payout_succeeded' AND source_id = ANY($1::uuid[])`, [payouts.map((p) => p.id)]);
  assert.equal(entries.rows[0]?.n, payouts.length, 'one payout_succeeded entry per payout');
  const after = await w.t.database.db.query<{ id: string; inquiry_count: number; locked_until: Date | null; status: string; utr: string }>(
    'SELECT id, inquiry_count, locked_until, status, utr FROM payout_attempts WHERE id = ANY($1::uuid[])',
    [payouts.map((p) => p.attemptId)],
  );
  for (const [i, p] of payouts.entries()) {
    const row = after.rows.find((r) => r.id === p.attemptId)!;
    assert.equal(row.status, 'SUCCESS');
    assert.equal(row.utr, `99998888777${i}`);
    assert.equal(row.locked_until, null);
    assert.equal(row.inquiry_count, before.rows.find((r) => r.id === p.attemptId)!.inquiry_count + 1);
  }
});
