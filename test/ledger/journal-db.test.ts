/**
 * The journal's guarantees, enforced by PostgreSQL itself (migration 0100_ledger.sql): no UPDATE,
 * DELETE or TRUNCATE of an entry or a posting; every entry balanced at commit (even when its
 * postings arrive in separate statements, and when a posting is added to an old entry later); one
 * entry per (kind, source). And postLedgerEntry: posts once, coalesces a shared transaction.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { BUILT_IN_SANDBOX_ACCOUNT, collectionConfirmed, refundCompleted } from '../../src/domain/ledger.js';
import { postLedgerEntry } from '../../src/services/ledger/post.js';
import { journalBalances } from '../../src/store/repos/ledger-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
const org = randomUUID();

before(async () => {
  t = await createTestDatabase();
});
after(() => t.drop());

async function rawEntry(q: { query: TestDatabase['db']['query'] }, id: string, kind = 'collection_confirmed'): Promise<void> {
  await q.query(`INSERT INTO ledger_entries (id, org_id, provider_account_id, kind, source_type, source_id) VALUES ($1, $2, $3, $4, 'payment_order', $5)`, [
    id, org, BUILT_IN_SANDBOX_ACCOUNT, kind, randomUUID(),
  ]);
}

test('an entry whose postings do not sum to zero is refused at commit, and nothing of it stays', async () => {
  const id = randomUUID();
  await assert.rejects(
    t.db.tx(async (tx) => {
      await rawEntry(tx, id);
      await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'collections_receivable', 500), ($1, 'collections', -499)`, [id]);
    }),
    /not balanced: 2 postings summing to 1 paise/,
  );
  const n = await t.db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE id = $1`, [id]);
  assert.equal(n.rows[0]?.n, 0);
});

test('an entry with no postings, or with one, is refused at commit', async () => {
  await assert.rejects(t.db.tx((tx) => rawEntry(tx, randomUUID())), /not balanced: 0 postings/);
  const id = randomUUID();
  await assert.rejects(
    t.db.tx(async (tx) => {
      await rawEntry(tx, id);
      await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'collections', -100)`, [id]);
    }),
    /not balanced: 1 postings summing to -100 paise/,
  );
  // A zero posting is no posting: refused by its CHECK at once.
  await assert.rejects(
    t.db.tx(async (tx) => {
      await rawEntry(tx, randomUUID());
      await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'collections', 0)`, [id]);
    }),
    /violates check constraint/,
  );
});

test('postings of one entry may arrive in separate statements of its transaction (the check is deferred)', async () => {
  const id = randomUUID();
  await t.db.tx(async (tx) => {
    await rawEntry(tx, id);
    await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'collections_receivable', 700)`, [id]);
    await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'collections', -700)`, [id]);
  });
  const n = await t.db.query(`SELECT count(*)::int AS n FROM ledger_postings WHERE entry_id = $1`, [id]);
  assert.equal(n.rows[0]?.n, 2);
});

test('a posting added later to a committed, balanced entry is refused (it would unbalance it)', async () => {
  const id = randomUUID();
  await t.db.tx(async (tx) => {
    await rawEntry(tx, id);
    await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'refunds', 100), ($1, 'collections_receivable', -100)`, [id]);
  });
  await assert.rejects(t.db.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'fees', 5)`, [id]), /not balanced: 3 postings summing to 5/);
});

test('UPDATE, DELETE and TRUNCATE of entries and postings are refused, for the owner too', async () => {
  const id = randomUUID();
  await t.db.tx(async (tx) => {
    await rawEntry(tx, id);
    await tx.query(`INSERT INTO ledger_postings (entry_id, account, amount_paise) VALUES ($1, 'refunds', 100), ($1, 'collections_receivable', -100)`, [id]);
  });
  const refused = /the ledger is append-only/;
  await assert.rejects(t.db.query(`UPDATE ledger_postings SET amount_paise = 200 WHERE entry_id = $1 AND account = 'refunds'`, [id]), refused);
  await assert.rejects(t.db.query(`DELETE FROM ledger_postings WHERE entry_id = $1`, [id]), refused);
  await assert.rejects(t.db.query(`UPDATE ledger_entries SET kind = 'payout_created' WHERE id = $1`, [id]), refused);
  await assert.rejects(t.db.query(`DELETE FROM ledger_entries WHERE id = $1`, [id]), refused);
  await assert.rejects(t.db.query(`TRUNCATE ledger_postings`), refused);
  await assert.rejects(t.db.query(`TRUNCATE ledger_entries CASCADE`), refused);
  const p = await t.db.query(`SELECT amount_paise FROM ledger_postings WHERE entry_id = $1 ORDER BY account`, [id]);
  assert.deepEqual(p.rows.map((r) => r.amount_paise), [-100, 100]);
});

test('postLedgerEntry writes an entry once per (kind, source); a retry posts nothing', async () => {
  const o = randomUUID();
  const order = randomUUID();
  const first = await t.db.tx((tx) => postLedgerEntry(tx, { orgId: o, providerAccountId: null, sourceId: order, entry: collectionConfirmed(12_345) }));
  const again = await t.db.tx((tx) => postLedgerEntry(tx, { orgId: o, providerAccountId: null, sourceId: order, entry: collectionConfirmed(12_345) }));
  assert.equal(first, true);
  assert.equal(again, false);
  assert.deepEqual(await journalBalances(t.db, o), [
    { provider_account_id: BUILT_IN_SANDBOX_ACCOUNT, account: 'collections', balance_paise: -12_345 },
    { provider_account_id: BUILT_IN_SANDBOX_ACCOUNT, account: 'collections_receivable', balance_paise: 12_345 },
  ]);
});

test('postLedgerEntry: the entries of one transaction made together share a statement and all land', async () => {
  const o = randomUUID();
  const account = randomUUID();
  const refunds = Array.from({ length: 25 }, () => randomUUID());
  const written = await t.db.tx((tx) =>
    Promise.all(refunds.map((id) => postLedgerEntry(tx, { orgId: o, providerAccountId: account, sourceId: id, entry: refundCompleted(100) }))),
  );
  assert.deepEqual(written, refunds.map(() => true));
  assert.deepEqual(await journalBalances(t.db, o), [
    { provider_account_id: account, account: 'collections_receivable', balance_paise: -2_500 },
    { provider_account_id: account, account: 'refunds', balance_paise: 2_500 },
  ]);
});
