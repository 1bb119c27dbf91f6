/**
 * Two migration chains on one database: the service's (src/store/migrations, `schema_migrations`)
 * and the sandbox's own (src/sandbox/migrations, `sandbox_schema_migrations`). The sandbox's first
 * three were the service's 0004, 0005 and 0015; a database that applied them there must keep
 * starting, keep its sandbox data and end with the same sandbox schema as a fresh one
 * (the rule: src/store/migrate.ts MOVED_OUT, src/sandbox/migrate.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { migrateSandbox, sandboxMigrationFiles } from '../../src/sandbox/migrate.js';
import type { Db } from '../../src/store/db.js';
import { isNonTransactional, migrate, migrationFiles, MOVED_OUT, runNonTransactional } from '../../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService } from '../support/service.js';
import { intentBody, waitFor } from '../payin/helpers.js';

const made: TestDatabase[] = [];
after(async () => {
  for (const d of made) await d.drop();
});
async function emptyDatabase(): Promise<TestDatabase> {
  const d = await createTestDatabase({ migrated: false });
  made.push(d);
  return d;
}

const numberOf = (file: string) => file.slice(0, 4);

/**
 * The database as the version before the move left it: the service's chain with the three sandbox
 * migrations at their old places, under their old names, as its runner applied and recorded them.
 * Their old text is the sandbox file's without IF NOT EXISTS (the only change besides comments).
 */
async function applyOldChain(db: Db): Promise<void> {
  const oldText = (name: string): string => {
    const moved = MOVED_OUT[name];
    if (moved === undefined) return readFileSync(join('src', 'store', 'migrations', name), 'utf8');
    return readFileSync(moved, 'utf8').replaceAll(' IF NOT EXISTS', '');
  };
  await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const name of [...migrationFiles(), ...Object.keys(MOVED_OUT)].sort()) {
    const text = oldText(name);
    if (isNonTransactional(text)) {
      // As the runner does: outside a transaction (CREATE INDEX CONCURRENTLY), then recorded.
      await db.withClient((c) => runNonTransactional(c, text));
      await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      continue;
    }
    await db.tx(async (tx) => {
      await tx.query(text);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    });
  }
}

/** Columns, constraints and indexes of the sandbox's tables, as the catalogue has them. */
async function sandboxSchema(db: Db): Promise<string[]> {
  const r = await db.query<{ line: string }>(
    `SELECT format('column %s.%s %s %s %s', table_name, column_name, data_type, is_nullable, coalesce(column_default, '')) AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name LIKE 'sandbox\\_%' AND table_name <> 'sandbox_schema_migrations'
     UNION ALL
     SELECT format('constraint %s %s %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
       FROM pg_constraint c WHERE c.conrelid::regclass::text LIKE 'sandbox\\_%' AND c.conrelid::regclass::text <> 'sandbox_schema_migrations'
     UNION ALL
     SELECT format('index %s', indexdef) FROM pg_indexes
      WHERE schemaname = 'public' AND tablename LIKE 'sandbox\\_%' AND tablename <> 'sandbox_schema_migrations'`,
  );
  return r.rows.map((row) => row.line).sort();
}

const names = async (db: Db, table: string): Promise<string[]> => (await db.query<{ name: string }>(`SELECT name FROM ${table}`)).rows.map((r) => r.name).sort();

test('the moved migrations left the service chain for good: no number of theirs is used there again, and each has its new home', () => {
  const main = migrationFiles();
  const moved = Object.keys(MOVED_OUT);
  assert.equal(moved.length, 3);
  for (const old of moved) assert.ok(!main.some((f) => numberOf(f) === numberOf(old)), `${old}: its number is taken again in src/store/migrations`);
  assert.deepEqual(
    Object.values(MOVED_OUT).map((p) => p.replace('src/sandbox/migrations/', '')),
    sandboxMigrationFiles().slice(0, 3),
  );
});

test('on a new database each chain makes its own tables and books them in its own table', async () => {
  const { db } = await emptyDatabase();
  assert.ok((await migrate(db)).length > 0);
  const sandboxTables = async () =>
    (await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'sandbox\\_%'`)).rows.map((r) => r.name).sort();
  assert.deepEqual(await sandboxTables(), [], 'the service chain makes no sandbox table');

  // Two sandboxes starting at once on the same database: one applies, the other finds it done.
  const [a, b] = await Promise.all([migrateSandbox(db), migrateSandbox(db)]);
  assert.deepEqual([...a, ...b], sandboxMigrationFiles());
  assert.deepEqual(await migrateSandbox(db), []);
  assert.deepEqual(await names(db, 'sandbox_schema_migrations'), sandboxMigrationFiles());
  assert.deepEqual(await sandboxTables(), [
    'sandbox_bank_ledger',
    'sandbox_bank_submissions',
    'sandbox_bank_transfers',
    'sandbox_collection_status_checks',
    'sandbox_collections',
    'sandbox_refund_ledger',
    'sandbox_refunds',
    'sandbox_schema_migrations',
    'sandbox_settlement_lines',
    'sandbox_settlements',
  ]);
  assert.deepEqual(await names(db, 'schema_migrations'), migrationFiles(), 'nothing of the sandbox in the service book');
});

test('a database that applied 0004/0005/0015 in the service chain upgrades: data kept, tables adopted, same schema as new, the service starts and runs on it', async () => {
  const old = await emptyDatabase();
  await applyOldChain(old.db);
  // What the sandbox had done before the upgrade: an open collection and an executed transfer.
  const reference = `OLD${randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase()}`;
  await old.db.query(
    `INSERT INTO sandbox_collections (reference, provider_reference, amount_paise, note, payee_name, expires_at, upi_uri)
     VALUES ($1, 'SBXOLD1', 10000, 'n', 'p', now() + interval '1 hour', 'upi://pay?tr=x')`,
    [reference],
  );
  await old.db.query(
    `INSERT INTO sandbox_bank_transfers (id, reference, bank_reference, amount_paise, mode, beneficiary_name, account_last4, ifsc, status, outcome, utr, execute_at, processed_at)
     VALUES ($1, $2, 'SBXBOLD1', 10000, 'IMPS', 'B', '1234', 'HDFC0000001', 'SUCCESS', 'EXECUTE', '123456789012', now(), now())`,
    [randomUUID(), reference],
  );
  await old.db.query(`INSERT INTO sandbox_bank_ledger (reference, amount_paise, utr) VALUES ($1, 10000, '123456789012')`, [reference]);

  // The new version's runners: the service's has nothing to do and keeps the old rows as history;
  // the sandbox's re-runs its first three as no-ops and books them.
  assert.deepEqual(await migrate(old.db), []);
  assert.deepEqual(await migrateSandbox(old.db), sandboxMigrationFiles());
  assert.deepEqual(await names(old.db, 'schema_migrations'), [...migrationFiles(), ...Object.keys(MOVED_OUT)].sort());
  assert.deepEqual(await names(old.db, 'sandbox_schema_migrations'), sandboxMigrationFiles());

  const fresh = await emptyDatabase();
  await migrate(fresh.db);
  await migrateSandbox(fresh.db);
  const upgraded = await sandboxSchema(old.db);
  assert.ok(upgraded.length > 30, 'the catalogue query sees the sandbox tables');
  assert.deepEqual(upgraded, await sandboxSchema(fresh.db));

  // The whole service (with its in-process sandbox) on the upgraded database.
  const t = await startTestService({}, { database: old });
  try {
    const stats = await t.admin('GET', '/sandbox/stats');
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.body.data.payout_executions[reference], 1, 'the sandbox reads what it executed before the upgrade');

    const client = await t.createClient({});
    const created = await t.api('POST', '/merchant/payment-orders', { client, body: intentBody(), idempotencyKey: randomUUID() });
    assert.equal(created.status, 201, created.text);
    const paid = await t.admin('POST', `/sandbox/payment-orders/${created.body.data.order_id}/pay`, {});
    assert.equal(paid.status, 200, paid.text);
    await waitFor(async () => (await old.db.query('SELECT 1 FROM payment_orders WHERE id = $1 AND status = $2', [created.body.data.id, 'PAID'])).rowCount === 1, 10_000);
  } finally {
    await t.stop();
  }
});
