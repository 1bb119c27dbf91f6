/**
 * A REVERSED payout must keep the facts of the success it undid (0027). (That the status CHECK
 * lists equal the domain's is test/foundation/schema-sync.test.ts.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

test('the database CHECK requires a REVERSED payout to keep the UTR and time of its success and a reason', async () => {
  const r = await database.db.query<{ def: string }>(
    "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'payouts_reversed_facts_check'",
  );
  assert.match(r.rows[0]?.def ?? '', /REVERSED.*utr IS NOT NULL.*processed_at IS NOT NULL.*failure_reason IS NOT NULL/);
});
