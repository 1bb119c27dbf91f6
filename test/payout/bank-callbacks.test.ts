/**
 * The sandbox bank's back office (src/sandbox/bank-executor.ts): it decides due transfers
 * and sends their callbacks at once; the payout settles by that callback alone (status inquiries
 * are pushed out of reach here), and each transfer's callback is sent once and then finished.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPayout, executions, payoutBody, type PayoutWorld, startPayoutWorld, waitForStatus } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  // Inquiries only after a minute: anything settled sooner was settled by the bank's callback.
  w = await startPayoutWorld({ PAYOUT_INQUIRY_BASE_MS: '60000', PAYOUT_INQUIRY_MAX_MS: '60000' });
});
after(async () => {
  await w?.t.stop();
});

test('payouts settle by the bank callback sent right after execution: once per transfer, no inquiry', async () => {
  const created = await Promise.all([70_000, 70_100, 70_213].map((amount) => createPayout(w, payoutBody(amount))));
  const [ok1, ok2, closed] = await Promise.all(
    created.map((r, i) => waitForStatus(w, r.body.data.id, i === 2 ? 'FAILED' : 'SUCCESS', 10_000)),
  );
  assert.match(ok1.utr, /^\d{12}$/);
  assert.match(ok2.utr, /^\d{12}$/);
  assert.match(closed.failure_reason, /ACCOUNT_CLOSED/);
  const stats = await executions(w);
  assert.equal(stats[ok1.transaction_id], 1);
  assert.equal(stats[ok2.transaction_id], 1);
  const transfers = await w.t.database.db.query<{ callback_attempts: number; callback_due_at: Date | null }>(
    'SELECT callback_attempts, callback_due_at FROM sandbox_bank_transfers WHERE reference = ANY($1::text[])',
    [[ok1.transaction_id, ok2.transaction_id, closed.transaction_id]],
  );
  assert.equal(transfers.rowCount, 3);
  for (const t of transfers.rows) assert.deepEqual(t, { callback_attempts: 1, callback_due_at: null });
  const inquiries = await w.t.database.db.query<{ n: number }>(
    'SELECT coalesce(sum(inquiry_count), 0)::int AS n FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id WHERE p.transaction_id = ANY($1::text[])',
    [[ok1.transaction_id, ok2.transaction_id, closed.transaction_id]],
  );
  assert.equal(inquiries.rows[0]!.n, 0);
});

test('an idle bank still sends a callback that falls due (a retry, or a lease its sender left): it asks each tick whether one is due', async () => {
  const created = await createPayout(w, payoutBody(70_300));
  const done = await waitForStatus(w, created.body.data.id, 'SUCCESS', 10_000);
  // The bank has been idle for over a second (it now only asks whether anything is due); a callback
  // falls due as a retry would.
  await new Promise((r) => setTimeout(r, 1_500));
  await w.t.database.db.query('UPDATE sandbox_bank_transfers SET callback_due_at = now() WHERE reference = $1', [done.transaction_id]);
  const deadline = Date.now() + 5_000;
  let row: { callback_attempts: number; callback_due_at: Date | null } | undefined;
  while (Date.now() < deadline) {
    row = (await w.t.database.db.query<{ callback_attempts: number; callback_due_at: Date | null }>(
      'SELECT callback_attempts, callback_due_at FROM sandbox_bank_transfers WHERE reference = $1', [done.transaction_id],
    )).rows[0];
    if (row?.callback_attempts === 2 && row.callback_due_at === null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(row, { callback_attempts: 2, callback_due_at: null });
  assert.equal((await executions(w))[done.transaction_id], 1);
});
