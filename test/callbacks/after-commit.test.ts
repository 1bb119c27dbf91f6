/** afterCommit: the signal that wakes the delivery worker fires only once the work is visible. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterCommit } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { poll } from '../support/poll.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
  await database.db.query('CREATE TABLE t (n int)');
});
after(() => database.drop());

test('hooks run after COMMIT, when other connections already see the rows', async () => {
  const seen: number[] = [];
  await database.db.tx(async (tx) => {
    await tx.query('INSERT INTO t VALUES (1)');
    afterCommit(tx, () => {
      void database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM t').then((r) => seen.push(r.rows[0]!.n));
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(seen, [], 'not before the commit');
  });
  await poll(async () => seen.length, { what: 'the query of the hook', timeoutMs: 5_000, stepMs: 10 });
  assert.deepEqual(seen, [1]);
});

test('hooks never run after a rollback; outside a transaction they run at once', async () => {
  let ran = 0;
  await assert.rejects(
    database.db.tx(async (tx) => {
      afterCommit(tx, () => ran++);
      throw new Error('rolled back');
    }),
  );
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(ran, 0);
  afterCommit(database.db, () => ran++);
  await Promise.resolve();
  assert.equal(ran, 1);
});
