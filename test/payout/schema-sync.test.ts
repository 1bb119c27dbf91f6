/** The SQL CHECK list of payout states agrees with the domain's one list (migration 0023 replaced 0003's). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PAYOUT_STATUSES } from '../../src/domain/payout.js';

const sql = readFileSync('src/store/migrations/0023_payout_approvals.sql', 'utf8');

test('payouts status CHECK = PAYOUT_STATUSES', () => {
  const start = sql.indexOf('ADD CONSTRAINT payouts_status_check');
  assert.ok(start > 0, 'migration 0023 sets payouts_status_check');
  const block = sql.slice(start, sql.indexOf(';', start));
  assert.deepEqual([...block.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]), [...PAYOUT_STATUSES]);
});
