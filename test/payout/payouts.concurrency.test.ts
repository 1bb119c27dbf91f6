/** 50 concurrent creates with one Idempotency-Key: one payout, one bank execution, one answer. */
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPayout, executions, payoutBody, type PayoutWorld, startPayoutWorld, waitForStatus } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
});
after(async () => {
  await w?.t.stop();
});

test('50 concurrent same-key payout creates: exactly one payout and one execution; every answer identical', async () => {
  const key = randomUUID();
  const body = payoutBody(12_300, { client_reference: 'concurrent-1' });
  const answers = await Promise.all(Array.from({ length: 50 }, () => createPayout(w, body, key)));
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [201]);
  assert.equal(new Set(answers.map((a) => a.text)).size, 1, 'every answer is the same body, byte for byte');
  assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 49);
  const id = answers[0]!.body.data.id;
  const rows = await w.t.database.db.query('SELECT id FROM payouts WHERE client_reference = $1', ['concurrent-1']);
  assert.equal(rows.rowCount, 1);
  const done = await waitForStatus(w, id, 'SUCCESS');
  assert.equal((await executions(w))[done.transaction_id], 1);
  const submits = await w.t.database.db.query('SELECT 1 FROM sandbox_bank_submissions WHERE reference = $1', [done.transaction_id]);
  assert.equal(submits.rowCount, 1, 'the bank was called once');
});

test('the same key with a different body is refused; a new key makes a second payout', async () => {
  const key = randomUUID();
  const first = await createPayout(w, payoutBody(12_400), key);
  assert.equal(first.status, 201);
  const other = await createPayout(w, payoutBody(12_500), key);
  assert.equal(other.status, 422);
  assert.equal(other.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  const again = await createPayout(w, payoutBody(12_400));
  assert.equal(again.status, 201);
  assert.notEqual(again.body.data.id, first.body.data.id);
});
