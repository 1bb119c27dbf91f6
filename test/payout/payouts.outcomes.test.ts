/**
 * Every sandbox bank outcome of contract §3, end to end against real PostgreSQL: the create, the
 * bank's behaviour, the inquiry worker, the final state, the events and the bank's own ledger.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidUtr } from '../../src/domain/payout.js';
import { createPayout, eventsOf, executions, payoutBody, type PayoutWorld, startPayoutWorld, waitFor, waitForStatus } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
});
after(async () => {
  await w?.t.stop();
});

async function submissionsTo(reference: string): Promise<string[]> {
  const r = await w.t.database.db.query<{ answer: string }>('SELECT answer FROM sandbox_bank_submissions WHERE reference = $1 ORDER BY id', [reference]);
  return r.rows.map((x) => x.answer);
}

test('ordinary amount: accepted, executed once, SUCCESS with a 12-digit IMPS UTR and a payout.success event', async () => {
  const r = await createPayout(w, payoutBody(10_000));
  assert.equal(r.status, 201);
  const done = await waitForStatus(w, r.body.data.id, 'SUCCESS');
  assert.match(done.utr, /^[0-9]{12}$/);
  assert.deepEqual(done.attempts, [{ status: 'SUCCESS', bank_reference: done.bank_reference, utr: done.utr }]);
  assert.equal((await executions(w))[done.transaction_id], 1);
  const events = await eventsOf(w, done.id);
  assert.deepEqual(events.map((e) => e.kind).sort(), ['payout.created', 'payout.success']);
  const success = events.find((e) => e.kind === 'payout.success')!.body.data;
  assert.deepEqual(Object.keys(success).sort(), [
    'amount_paise', 'bank_reference', 'beneficiary', 'client_reference', 'currency', 'livemode', 'mode', 'payout_id', 'processed_at', 'status', 'transaction_id', 'utr',
  ]);
  assert.equal(success.livemode, false);
  assert.equal(success.status, 'SUCCESS');
  assert.equal(success.utr, done.utr);
  assert.equal(success.processed_at, done.processed_at);
  assert.deepEqual(success.beneficiary, done.beneficiary);
});

test('NEFT and RTGS successes carry UTRs of their rail shape (16 and 22 characters)', async () => {
  const neft = await createPayout(w, payoutBody(250_000, { mode: 'NEFT' }));
  const rtgs = await createPayout(w, payoutBody(25_000_000, { mode: 'RTGS' }));
  const n = await waitForStatus(w, neft.body.data.id, 'SUCCESS');
  const g = await waitForStatus(w, rtgs.body.data.id, 'SUCCESS');
  assert.equal(n.utr.length, 16);
  assert.ok(isValidUtr('NEFT', n.utr));
  assert.equal(g.utr.length, 22);
  assert.ok(isValidUtr('RTGS', g.utr));
});

test('13: accepted then refused by the bank (account closed) -> FAILED with failure_reason, nothing executed', async () => {
  const r = await createPayout(w, payoutBody(10_013));
  const done = await waitForStatus(w, r.body.data.id, 'FAILED');
  assert.match(done.failure_reason, /ACCOUNT_CLOSED/);
  assert.equal(done.utr, null);
  assert.equal(done.attempts.length, 1);
  assert.equal(done.attempts[0].status, 'FAILED');
  assert.equal((await executions(w))[done.transaction_id], undefined);
  const failed = (await eventsOf(w, done.id)).find((e) => e.kind === 'payout.failed')!.body.data;
  assert.equal(failed.status, 'FAILED');
  assert.equal(failed.failure_reason, done.failure_reason);
});

test('57: executed but the submit never answers -> UNKNOWN, found by inquiry, SUCCESS, executed once, never resent', async () => {
  const started = Date.now();
  const r = await createPayout(w, payoutBody(10_057));
  assert.equal(r.status, 201);
  assert.ok(Date.now() - started >= 500, 'the create waited for the bounded submit');
  assert.equal(r.body.data.status, 'PROCESSING');
  const done = await waitForStatus(w, r.body.data.id, 'SUCCESS');
  assert.ok(isValidUtr('IMPS', done.utr));
  assert.equal(done.attempts.length, 1);
  assert.equal((await executions(w))[done.transaction_id], 1);
  assert.deepEqual(await submissionsTo(done.transaction_id), ['ACCEPTED_NO_ANSWER']);
  const history = await w.t.database.db.query<{ from_status: string; to_status: string }>(
    `SELECT from_status, to_status FROM payout_transitions WHERE payout_id = $1 AND entity = 'attempt' ORDER BY id`,
    [done.id],
  );
  const moves = history.rows.map((h) => `${h.from_status}>${h.to_status}`);
  // The inquiry may catch the transfer still pending (-> PROCESSING) before it executes.
  assert.ok(
    [['null>PENDING_SUBMIT', 'PENDING_SUBMIT>UNKNOWN', 'UNKNOWN>SUCCESS'], ['null>PENDING_SUBMIT', 'PENDING_SUBMIT>UNKNOWN', 'UNKNOWN>PROCESSING', 'PROCESSING>SUCCESS']]
      .some((expected) => JSON.stringify(expected) === JSON.stringify(moves)),
    moves.join(', '),
  );
});

test('58: lost before the bank, submit times out -> never SUCCESS; retried as new attempts, then FAILED; nothing executed', async () => {
  const r = await createPayout(w, payoutBody(10_058));
  const done = await waitForStatus(w, r.body.data.id, 'FAILED', 30_000);
  assert.match(done.failure_reason, /NOT_EXECUTED/);
  assert.equal(done.utr, null);
  assert.deepEqual(done.attempts.map((a: any) => a.status), ['FAILED', 'FAILED', 'FAILED']);
  assert.equal((await executions(w))[done.transaction_id], undefined);
  assert.deepEqual(await submissionsTo(done.transaction_id), ['LOST', 'LOST', 'LOST']);
  // NOT_FOUND proves non-execution only after the grace period (800 ms here) since the submit ended.
  const moves = await w.t.database.db.query<{ attempt_id: string; to_status: string; at: Date }>(
    `SELECT attempt_id, to_status, created_at AS at FROM payout_transitions
      WHERE payout_id = $1 AND entity = 'attempt' AND to_status IN ('UNKNOWN', 'NOT_EXECUTED') ORDER BY id`,
    [done.id],
  );
  assert.equal(moves.rowCount, 6);
  for (let i = 0; i < 6; i += 2) {
    const [unknown, notExecuted] = [moves.rows[i]!, moves.rows[i + 1]!];
    assert.equal(unknown.attempt_id, notExecuted.attempt_id);
    assert.ok(notExecuted.at.getTime() - unknown.at.getTime() >= 800, 'waited out the not-found grace period');
  }
  const kinds = (await eventsOf(w, done.id)).map((e) => e.kind).sort();
  assert.deepEqual(kinds, ['payout.created', 'payout.failed']);
});

test('59: bank answers 5xx and executes nothing -> inquiry proves NOT_FOUND, one safe retry, SUCCESS, executed once', async () => {
  const r = await createPayout(w, payoutBody(10_059));
  const done = await waitForStatus(w, r.body.data.id, 'SUCCESS', 20_000);
  assert.deepEqual(done.attempts.map((a: any) => a.status), ['FAILED', 'SUCCESS']);
  assert.equal((await executions(w))[done.transaction_id], 1);
  assert.deepEqual(await submissionsTo(done.transaction_id), ['ERROR_503', 'ACCEPTED']);
});

test('77: accepted and pending at the bank -> stays PROCESSING while the worker keeps inquiring', async () => {
  const r = await createPayout(w, payoutBody(10_077));
  const id = r.body.data.id;
  const inquired = await waitFor('two inquiries of the pending payout', async () => {
    const q = await w.t.database.db.query<{ inquiry_count: number; status: string }>('SELECT inquiry_count, status FROM payout_attempts WHERE payout_id = $1', [id]);
    return (q.rows[0]?.inquiry_count ?? 0) >= 2 ? q.rows[0] : undefined;
  });
  assert.equal(inquired.status, 'PROCESSING');
  const now = await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client });
  assert.equal(now.body.data.status, 'PROCESSING');
  assert.equal(now.body.data.attempts[0].status, 'PROCESSING');
  assert.match(now.body.data.attempts[0].bank_reference, /^SBXB/);
  assert.equal(now.body.data.utr, null);
  assert.equal((await executions(w))[now.body.data.transaction_id], undefined);
  const metrics = await (await fetch(`${w.t.svc.internalUrl}/metrics`)).text();
  assert.match(metrics, /tijori_payout_attempts_unresolved\{status="PROCESSING"\} [1-9]/);
});
