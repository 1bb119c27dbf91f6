/**
 * The store under connection loss: a connection killed while a transaction holds it (between two
 * statements) must not crash the process; the transaction fails with SERVICE_UNAVAILABLE and the
 * pool serves the next caller with a fresh connection.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
});
after(() => t.drop());

test('a connection terminated mid-transaction: SERVICE_UNAVAILABLE, no crash, next transaction works', async () => {
  let uncaught: unknown = null;
  const onUncaught = (err: unknown) => {
    uncaught = err;
  };
  process.on('uncaughtException', onUncaught);
  try {
    const failed = t.db.tx(async (q) => {
      const pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      await t.db.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((r) => setTimeout(r, 200)); // the socket closes while this client is checked out
      await q.query('SELECT 1');
    });
    await assert.rejects(failed, (e: unknown) => e instanceof AppError && e.code === 'SERVICE_UNAVAILABLE');
    assert.equal(uncaught, null, 'no uncaught exception');
    const r = await t.db.tx(async (q) => (await q.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one);
    assert.equal(r, 1);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
