/**
 * Migration 0100 on a database that already holds money (an upgrade): it posts the opening entries
 * the writers would have posted, so `verify` is clean at once, and later news posts normally.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { payoutSucceeded } from '../../src/domain/ledger.js';
import { LedgerService } from '../../src/services/ledger/ledger.js';
import { postLedgerEntry } from '../../src/services/ledger/post.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase({ migrated: false });
});
after(() => t.drop());

const DIR = 'src/store/migrations';

/** The schema as it was before the ledger: the migrations before 0100, recorded as applied. */
async function migrateBeforeLedger(): Promise<void> {
  await t.db.query(`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.sql') && f < '0100').sort()) {
    await t.db.tx(async (tx) => {
      await tx.query(readFileSync(join(DIR, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
  }
}

test('an upgraded database gets opening entries: verify is clean and each fact has its one entry', async () => {
  await migrateBeforeLedger();
  const org = randomUUID();
  const client = randomUUID();
  const route = randomUUID();
  const beneficiary = randomUUID();
  const q = (text: string, values: unknown[]) => t.db.query(text, values);
  await q(`INSERT INTO organizations (id, name) VALUES ($1, 'Old Org')`, [org]);
  await q(`INSERT INTO api_clients (id, client_id, org_id, secret_hash, scopes) VALUES ($1, $2, $3, '\\x00', '{collections:read}')`, [client, `tj_client_${client}`, org]);
  await q(`INSERT INTO bank_connections (id, org_id, name, provider, modes) VALUES ($1, $2, 'Route', 'sandbox', '{IMPS}')`, [route, org]);
  await q(
    `INSERT INTO beneficiaries (id, org_id, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
     VALUES ($1, $2, 'Asha', '\\x00', '9012', '\\x01', 'HDFC0000001', 'HDFC Bank', '9876543210')`,
    [beneficiary, org],
  );
  const order = async (status: string, amount: number): Promise<string> => {
    const id = randomUUID();
    const paid = ['PAID', 'MANUALLY_CONFIRMED', 'REFUNDED'].includes(status);
    await q(
      `INSERT INTO payment_orders (id, order_id, org_id, client_pk, amount_paise, purpose, response_mode, status, provider, provider_status,
                                   expires_in_minutes, bank_transaction_id, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, 'Old', 'INTENT', $6, 'sandbox', $7, 30, $8, $9)`,
      [id, `OLD${id.slice(0, 8).toUpperCase()}`, org, client, amount, status, paid ? 'SUCCESS' : 'PENDING', paid ? `UTR${id.slice(0, 6)}` : null, paid ? new Date() : null],
    );
    return id;
  };
  const refund = async (orderPk: string, status: string, amount: number) => {
    const id = randomUUID();
    await q(
      `INSERT INTO refunds (id, refund_id, order_pk, org_id, client_pk, amount_paise, status, provider, livemode, completed_at, failure_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'sandbox', false, $8, $9)`,
      [id, `RF${id.replace(/-/g, '').slice(0, 26).toUpperCase()}`, orderPk, org, client, amount, status, status === 'COMPLETED' ? new Date() : null, status === 'FAILED' ? 'declined' : null],
    );
  };
  const payout = async (status: string, amount: number): Promise<string> => {
    const id = randomUUID();
    const done = status === 'SUCCESS' || status === 'REVERSED';
    await q(
      `INSERT INTO payouts (id, transaction_id, org_id, client_pk, bank_connection_id, beneficiary_id, beneficiary_name, beneficiary_last4, beneficiary_ifsc,
                            beneficiary_bank_name, amount_paise, mode, status, created_at, utr, processed_at, failure_reason)
       VALUES ($1, $2, $3, $4, $5, $6, 'Asha', '9012', 'HDFC0000001', 'HDFC Bank', $7, 'IMPS', $8, now(), $9, $10, $11)`,
      [id, `TX${id.slice(0, 8)}`, org, client, route, beneficiary, amount, status, done ? 'UTR9' : null, done ? new Date() : null,
        status === 'FAILED' || status === 'REVERSED' ? 'bank said no' : null],
    );
    return id;
  };
  const paid = await order('PAID', 10_000);
  await order('MANUALLY_CONFIRMED', 20_000);
  const refunded = await order('REFUNDED', 5_000);
  await order('EXPIRED', 7_000);
  await refund(paid, 'COMPLETED', 2_500);
  await refund(paid, 'FAILED', 1_000);
  await refund(refunded, 'COMPLETED', 5_000);
  const inFlight = await payout('PROCESSING', 1_100);
  await payout('SUCCESS', 1_200);
  await payout('FAILED', 1_300);
  await payout('REVERSED', 1_400);

  assert.deepEqual(await migrate(t.db).then((applied) => applied.filter((f) => f.startsWith('0100'))), ['0100_ledger.sql']);
  const ledger = new LedgerService({ db: t.db });
  // Confirmed orders 3, completed refunds 2; payouts created 4, succeeded 2 (one later reversed), failed 1, reversed 1.
  assert.deepEqual(await ledger.verify(org), { entries: 3 + 2 + 4 + 2 + 1 + 1, balanced: true, mismatches: [] });
  const nil = '00000000-0000-0000-0000-000000000000';
  assert.deepEqual(await ledger.balances(org), [
    { provider_account_id: nil, account: 'collections', balance_paise: -35_000 },
    { provider_account_id: nil, account: 'collections_receivable', balance_paise: 35_000 - 7_500 },
    { provider_account_id: nil, account: 'payout_funding', balance_paise: -(1_100 + 1_200) },
    { provider_account_id: nil, account: 'payouts_in_flight', balance_paise: 1_100 },
    { provider_account_id: nil, account: 'payouts_paid', balance_paise: 1_200 },
    { provider_account_id: nil, account: 'refunds', balance_paise: 7_500 },
  ]);

  // The payout still in flight succeeds after the upgrade: its entry posts as the writer would.
  await t.db.tx(async (tx) => {
    await tx.query(`UPDATE payouts SET status = 'SUCCESS', utr = 'UTR10', processed_at = now() WHERE id = $1`, [inFlight]);
    assert.equal(await postLedgerEntry(tx, { orgId: org, providerAccountId: null, payoutId: inFlight, sourceId: inFlight, entry: payoutSucceeded(1_100) }), true);
  });
  assert.deepEqual(await ledger.verify(org), { entries: 14, balanced: true, mismatches: [] });
});
