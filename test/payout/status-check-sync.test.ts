/**
 * The database's CHECK lists of payout and attempt statuses are exactly the domain's lists
 * (src/domain/payout.ts), so a status added on one side only fails here, not in production. Also:
 * a REVERSED payout must keep the facts of the success it undid (0027).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PAYOUT_ATTEMPT_STATUSES, PAYOUT_STATUSES } from '../../src/domain/payout.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

/** The quoted values of the CHECK constraint on `status` of `table` (all of them, if several). */
async function checkedStatuses(table: string): Promise<string[]> {
  const r = await database.db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      WHERE c.conrelid = $1::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ '^CHECK \\(\\(?status = ANY'`,
    [table],
  );
  assert.equal(r.rowCount, 1, `one status list on ${table}: ${r.rows.map((x) => x.def).join(' | ')}`);
  return [...r.rows[0]!.def.matchAll(/'([A-Z_]+)'::text/g)].map((m) => m[1]!);
}

test('payouts.status CHECK lists exactly PAYOUT_STATUSES', async () => {
  assert.deepEqual((await checkedStatuses('payouts')).sort(), [...PAYOUT_STATUSES].sort());
});

test('payout_attempts.status CHECK lists exactly PAYOUT_ATTEMPT_STATUSES', async () => {
  assert.deepEqual((await checkedStatuses('payout_attempts')).sort(), [...PAYOUT_ATTEMPT_STATUSES].sort());
});

test('the database CHECK requires a REVERSED payout to keep the UTR and time of its success and a reason', async () => {
  const r = await database.db.query<{ def: string }>(
    "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'payouts_reversed_facts_check'",
  );
  assert.match(r.rows[0]?.def ?? '', /REVERSED.*utr IS NOT NULL.*processed_at IS NOT NULL.*failure_reason IS NOT NULL/);
});
