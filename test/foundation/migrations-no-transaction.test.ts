/**
 * Migration files marked `-- tijori:no-transaction` (src/store/migrate.ts): run one statement at a
 * time outside a transaction (CREATE INDEX CONCURRENTLY), and a run after a crash that left an
 * INVALID index rebuilds it instead of skipping it under IF NOT EXISTS.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { concurrentIndexNames, isNonTransactional, runNonTransactional, splitStatements } from '../../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase({ migrated: false });
});
after(() => t.drop());

const FILE = `-- tijori:no-transaction
-- a comment; with a semicolon
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS probe_k_key ON probe (k);
CREATE INDEX CONCURRENTLY IF NOT EXISTS probe_v_idx
  ON probe (v);
`;

test('the marker, the statements and the indexes of a file are read as written', () => {
  assert.equal(isNonTransactional(FILE), true);
  assert.equal(isNonTransactional(`-- a comment\n${FILE}`), false, 'only as the first line');
  assert.deepEqual(splitStatements(FILE), ['CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS probe_k_key ON probe (k)', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS probe_v_idx\n  ON probe (v)']);
  assert.deepEqual(concurrentIndexNames(splitStatements(FILE)), ['probe_k_key', 'probe_v_idx']);
});

test('an INVALID index left by a crashed run is dropped and built again; a second run changes nothing', async () => {
  await t.db.query('CREATE TABLE probe (k integer, v integer)');
  await t.db.query('INSERT INTO probe SELECT g % 10, g FROM generate_series(1, 100) g');
  // A concurrent unique build that fails (duplicates) leaves the index behind, INVALID: what a crash mid-way leaves.
  await assert.rejects(t.db.withClient((c) => c.query('CREATE UNIQUE INDEX CONCURRENTLY probe_k_key ON probe (k)')), /could not create unique index/);
  const validity = async () =>
    (await t.db.query<{ relname: string; valid: boolean }>("SELECT c.relname, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname LIKE 'probe_%' ORDER BY 1")).rows;
  assert.deepEqual(await validity(), [{ relname: 'probe_k_key', valid: false }]);
  // The cause is fixed; the file runs again.
  await t.db.query('DELETE FROM probe WHERE v > 10');
  await t.db.withClient((c) => runNonTransactional(c, FILE));
  assert.deepEqual(await validity(), [{ relname: 'probe_k_key', valid: true }, { relname: 'probe_v_idx', valid: true }]);
  await assert.rejects(t.db.query('INSERT INTO probe VALUES (1, 1)'), /duplicate key/, 'the rebuilt index enforces');
  await t.db.withClient((c) => runNonTransactional(c, FILE));
  assert.deepEqual(await validity(), [{ relname: 'probe_k_key', valid: true }, { relname: 'probe_v_idx', valid: true }]);
});
