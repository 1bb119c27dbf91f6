/**
 * No deadlock between a settlement import and the order and refund writers: a settlement line's
 * insert takes FOR KEY SHARE on the order and refund rows it references (its foreign keys); the
 * writers lock those rows FOR NO KEY UPDATE (they never change a key column), which does not
 * conflict with it, so a writer is never made to wait for an import (nor an import for a writer).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { lockById } from '../../src/store/repos/payment-orders-repo.js';
import { lockRefund } from '../../src/store/repos/refunds-repo.js';
import { serviceWithClient } from '../support/service.js';
import { paid, refunded } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

test('an import holding its lines\' foreign-key locks does not block the order and refund writers\' row locks', async () => {
  const { t } = w;
  const c = await t.createClient({ rateLimit: 100_000 });
  const o = await paid(t, c, 5_000);
  const r = await refunded(t, c, o.id, 1_000);
  const db = t.database.db;
  let release!: () => void;
  const held = new Promise<void>((res) => (release = res));
  let inserted!: () => void;
  const ready = new Promise<void>((res) => (inserted = res));
  const importing = db
    .tx(async (tx) => {
      const sid = randomUUID();
      await tx.query(`INSERT INTO settlements (id, org_id, provider, provider_settlement_id, currency, gross_paise, fees_paise, tax_paise, refunds_paise, adjustments_paise, net_paise, settled_at)
                      VALUES ($1, $2, 'sandbox', $3, 'INR', 5000, 0, 0, 1000, 0, 4000, now())`, [sid, c.orgId, `LOCK${sid.slice(0, 8)}`]);
      await tx.query(`INSERT INTO settlement_lines (id, settlement_id, org_id, provider_line_id, type, reported_type, order_pk, refund_pk, amount_paise, fee_paise, tax_paise, net_paise, currency, match)
                      VALUES ($1, $3, $4, 'L1', 'PAYMENT', 'PAYMENT', $5, NULL, 5000, 0, 0, 5000, 'INR', 'MATCHED'),
                             ($2, $3, $4, 'L2', 'REFUND', 'REFUND', NULL, $6, 1000, 0, 0, 1000, 'INR', 'MATCHED')`, [randomUUID(), randomUUID(), sid, c.orgId, o.id, r.id]);
      inserted();
      await held;
      throw new Error('rolled back on purpose');
    })
    .catch((err: Error) => assert.match(err.message, /on purpose/));
  await ready;
  try {
    await db.tx(async (tx) => {
      await tx.query("SET LOCAL lock_timeout = '1s'");
      assert.equal((await lockById(tx, o.id))?.id, o.id, 'the order writer\'s lock is granted at once');
      assert.equal((await lockRefund(tx, r.id))?.id, r.id, 'the refund writer\'s lock is granted at once');
    });
  } finally {
    release();
    await importing;
  }
});
