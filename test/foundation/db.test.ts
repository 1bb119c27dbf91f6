/**
 * The store under connection loss: a connection killed while a transaction holds it (between two
 * statements) must not crash the process; the transaction fails with DatabaseUnavailableError (the
 * HTTP layer answers it SERVICE_UNAVAILABLE) and the pool serves the next caller with a fresh connection.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Db, DatabaseUnavailableError } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
});
after(() => t.drop());

test('a connection terminated mid-transaction: database unavailable, no crash, next transaction works', async () => {
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
    await assert.rejects(failed, (e: unknown) => e instanceof DatabaseUnavailableError);
    assert.equal(uncaught, null, 'no uncaught exception');
    const r = await t.db.tx(async (q) => (await q.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one);
    assert.equal(r, 1);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

test('an unreachable database fails in the store\'s own terms, never with a merchant API message', async () => {
  // What a worker logs when its tick fails ("sandbox bank tick failed", "worker tick failed").
  const nowhere = new Db({ url: 'postgres://postgres@127.0.0.1:1/none', connectTimeoutMs: 1_000 });
  try {
    const err: unknown = await nowhere.query('SELECT 1').then(
      () => assert.fail('a query to a closed port succeeded'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DatabaseUnavailableError);
    assert.match(err.message, /^database unavailable: .*ECONNREFUSED/);
    assert.doesNotMatch(err.message, /Idempotency-Key|Retry/);
  } finally {
    await nowhere.close();
  }
});
