/**
 * A connection that reached a read-only node (a standby, a demoted primary: contract §10) is an
 * outage, not a bug: the refused write (SQLSTATE 25006) is DatabaseUnavailableError (503 with
 * Retry-After at the HTTP layer), the connection is destroyed rather than pooled again, and
 * readiness says no writable primary is reachable. Played on CI's PostgreSQL with sessions that
 * are read-only by default (`options=-c default_transaction_read_only=on`); the real standby is
 * in test/faults/failover.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DatabaseUnavailableError, Db, isUnavailableError } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
let readOnly: Db;

before(async () => {
  database = await createTestDatabase({ migrated: false });
  await database.db.query('CREATE TABLE ro_probe (n int)');
  const u = new URL(database.url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  readOnly = new Db({ url: u.toString(), poolSize: 2 });
});
after(async () => {
  await readOnly?.close();
  await database?.drop();
});

test('a write refused by a read-only node is DatabaseUnavailableError and its connection leaves the pool', async () => {
  const err = await readOnly.tx((q) => q.query('INSERT INTO ro_probe VALUES (1)')).catch((e: unknown) => e);
  assert.ok(err instanceof DatabaseUnavailableError, String(err));
  assert.equal(((err as Error).cause as { code?: string }).code, '25006');
  assert.equal(readOnly.pool.totalCount, 0, 'the connection was destroyed, not returned');
  // Outside a transaction too (pg-pool releases a failed query's client with its error).
  await assert.rejects(readOnly.query('INSERT INTO ro_probe VALUES (2)'), DatabaseUnavailableError);
  assert.equal(readOnly.pool.totalCount, 0);
  // Reads still work on such a node: only writes are an outage.
  assert.equal((await readOnly.query<{ n: number }>('SELECT count(*)::int AS n FROM ro_probe')).rows[0]!.n, 0);
});

test('readiness: a read-only node is no writable primary, and its connection is not kept', async () => {
  assert.equal(await readOnly.ping(), false);
  assert.equal(readOnly.pool.totalCount, 0);
  assert.equal(await database.db.ping(), true);
  assert.ok(database.db.pool.totalCount > 0, 'a writable primary\'s connection stays pooled');
});

test('the message of a refused write is recognised without its code (a pooler may pass it on as text)', () => {
  assert.equal(isUnavailableError(new Error('cannot execute INSERT in a read-only transaction')), true);
  assert.equal(isUnavailableError(new Error('cannot execute LISTEN during recovery')), true);
  assert.equal(isUnavailableError(new Error('duplicate key value violates unique constraint')), false);
});
