/**
 * Units of work that share a transaction, against real PostgreSQL (src/store/shared-transactions.ts):
 * single-item statements of units running side by side go out as one statement;
 * units with the same key run one after the other and see what the earlier one wrote; a failing
 * unit rolls the shared transaction back, after every unit has finished, and is then the only one
 * to fail. The wrong uses the types refuse are listed at the end (checked by `tsc`, npm run check).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Queryable, Tx } from '../../src/store/db.js';
import { coalesced, unitsInTransaction, unitsOfKind } from '../../src/store/shared-transactions.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { countingStatements } from '../support/statements.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase({ migrated: false });
  await t.db.query('CREATE TABLE counters (name text PRIMARY KEY, n int NOT NULL)');
});
after(async () => {
  await t?.drop();
});

/** The statements of a transaction, counted while `fn` runs in it. */
function inCountedTransaction<R>(fn: (tx: Tx) => Promise<R>): Promise<{ result: R; statements: number }> {
  return t.db.tx((tx) => countingStatements(tx, () => fn(tx)));
}

/** Adds one to a counter and returns the new value: one statement for all the items of a tick. */
const bump = coalesced<string, number>(async (q, names) => {
  const r = await q.query<{ name: string; n: number }>(
    `INSERT INTO counters (name, n) SELECT x, 1 FROM unnest($1::text[]) AS x
     ON CONFLICT (name) DO UPDATE SET n = counters.n + 1 RETURNING name, n`,
    [names],
  );
  return names.map((name) => r.rows.find((row) => row.name === name)!.n);
});

const read = coalesced<string, number | null>(async (q, names) => {
  const r = await q.query<{ name: string; n: number }>('SELECT name, n FROM counters WHERE name = ANY($1::text[])', [names]);
  return names.map((name) => r.rows.find((row) => row.name === name)?.n ?? null);
});

test('single-item calls of units side by side in one transaction take one statement per step', async () => {
  const names = ['a1', 'a2', 'a3', 'a4', 'a5'];
  const { result, statements } = await inCountedTransaction((tx) =>
    unitsInTransaction(tx, names, (n) => n, async (q, name) => {
      const before = await read(q, name);
      // A unit may take its own path between the steps: only microtasks, so the next step still coalesces.
      await Promise.resolve();
      return [before, await bump(q, name)];
    }),
  );
  assert.deepEqual(result, names.map(() => [null, 1]));
  assert.equal(statements, 2, 'one read and one write for five units');
});

test('outside a transaction a coalesced statement is refused, never sent on the pool', async () => {
  // @ts-expect-error the pool is not a Tx: a coalesced statement belongs to a transaction
  await assert.rejects(bump(t.db, 'b1'), /outside a transaction/);
  const rows = await t.db.query("SELECT name FROM counters WHERE name = 'b1'");
  assert.equal(rows.rowCount, 0);
});

test('units with the same key run one after the other, each seeing what the one before wrote; order per key is kept', async () => {
  const items = ['c1', 'c2', 'c1', 'c1', 'c2', 'c3'];
  const seen: string[] = [];
  const { result, statements } = await inCountedTransaction((tx) =>
    unitsInTransaction(tx, items, (n) => n, async (q, name) => {
      const n = await bump(q, name);
      seen.push(`${name}=${n}`);
      return n;
    }),
  );
  assert.deepEqual(result, [1, 1, 2, 3, 2, 1]);
  assert.deepEqual(seen, ['c1=1', 'c2=1', 'c3=1', 'c1=2', 'c2=2', 'c1=3']);
  assert.equal(statements, 3, 'three rounds: c1, c2, c3 / c1, c2 / c1');
});

test('a failing unit fails the shared transaction only after every unit finished; nothing of it stays', async () => {
  let finished = 0;
  await assert.rejects(
    t.db.tx((tx) =>
      unitsInTransaction(tx, ['d1', 'bad', 'd2'], (n) => n, async (q, name) => {
        try {
          if (name === 'bad') throw new Error('bad unit');
          await new Promise((r) => setTimeout(r, 20));
          return await bump(q, name);
        } finally {
          finished++;
        }
      }),
    ),
    /bad unit/,
  );
  assert.equal(finished, 3, 'the slow units ended before the rollback');
  const rows = await t.db.query("SELECT name FROM counters WHERE name LIKE 'd%'");
  assert.equal(rows.rowCount, 0, 'rolled back as a whole');
});

test('shared transactions: units arriving together commit once; a failing unit fails alone, the others are written', async () => {
  // The kind is a row of the batch table; this test process makes no other use of it.
  const run = unitsOfKind('payoutOutcomes');
  let transactions = 0;
  const db = Object.create(t.db) as typeof t.db;
  db.tx = ((fn: (q: Tx) => Promise<unknown>) => {
    transactions++;
    return t.db.tx(fn);
  }) as typeof t.db.tx;
  const ok = await Promise.all(['e1', 'e2', 'e3'].map((name) => run(db, name, (tx) => bump(tx, name))));
  assert.deepEqual(ok, [1, 1, 1]);
  assert.equal(transactions, 1, 'three units in one transaction');

  transactions = 0;
  const settled = await Promise.allSettled(
    ['f1', 'f2', 'f3'].map((name) =>
      run(db, name, async (tx) => {
        const n = await bump(tx, name);
        if (name === 'f2') await tx.query('SELECT 1/0');
        return n;
      }),
    ),
  );
  assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((settled[1] as PromiseRejectedResult).reason), /division by zero/);
  assert.equal(transactions, 4, 'the shared one, then each unit alone');
  const rows = await t.db.query<{ name: string; n: number }>("SELECT name, n FROM counters WHERE name LIKE 'f%' ORDER BY name");
  assert.deepEqual(rows.rows, [{ name: 'f1', n: 1 }, { name: 'f3', n: 1 }]);
});

test('a coalesced call left un-awaited when its transaction ends is refused, never sent outside it', async () => {
  let late: Promise<number> | undefined;
  await t.db.tx(async (tx) => {
    late = bump(tx, 'g1');
    late.catch(() => undefined); // observed below
  });
  await assert.rejects(late!, /sent after its transaction ended/);
  const rows = await t.db.query("SELECT name FROM counters WHERE name = 'g1'");
  assert.equal(rows.rowCount, 0);
});

/**
 * Wrong uses the types refuse: checked by `tsc --noEmit` (npm run check), which fails on an
 * `@ts-expect-error` that no longer meets an error. Never called.
 */
export function refusedAtCompileTime(): void {
  const run = (() => undefined) as unknown as ReturnType<typeof unitsOfKind>;
  const unit = (tx: Tx) => bump(tx, 'x');
  void t.db.tx(async (tx) => {
    // A unit of work queued for the pool while this transaction holds a connection: a Tx is not a Db.
    // @ts-expect-error Tx is not a Db
    await run(tx, 'k', unit);
    // Units side by side on the pool would lock nothing: they need the caller's transaction.
    // @ts-expect-error the pool is not a Tx
    await unitsInTransaction(t.db, ['a'], (n) => n, (q, n) => bump(q, n));
    // A unit run on the pool rather than in a transaction.
    // @ts-expect-error the pool is not a Tx
    await unit(t.db);
    // A bare connection is not a transaction either.
    // @ts-expect-error a Queryable is not a Tx
    await unit({ query: t.db.query.bind(t.db) } as Queryable);
    // A coalesced statement on the pool (it would coalesce nothing and lock nothing past its statement).
    // @ts-expect-error the pool is not a Tx
    await bump(t.db, 'x');
  });
}
