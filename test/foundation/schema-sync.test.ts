/**
 * One home for every list and bound: the domain. The migrated database's CHECK constraints and the
 * predicates of its partial indexes are read back from the catalogue (not from the migration
 * files, so a later migration that alters a constraint is judged too) and must equal the domain's
 * lists. SQL that filters on those lists takes them as parameters (`= ANY($n)`); the last test
 * proves the planner can still use the partial indexes when the list arrives as a parameter.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DELIVERY_STATUSES, FAILED_DELIVERY_STATUSES } from '../../src/callbacks/outcome.js';
import { LEDGER_ENTRY_KINDS, LEDGER_SOURCE_TYPES } from '../../src/domain/ledger.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../src/domain/money.js';
import {
  EXPIRES_IN_MINUTES_MAX,
  EXPIRES_IN_MINUTES_MIN,
  OPEN_ORDER_STATUSES,
  ORDER_TRIGGERS,
  PAYMENT_ORDER_STATUSES,
} from '../../src/domain/payment-order.js';
import { PAYOUT_ATTEMPT_STATUSES, PAYOUT_MODES, PAYOUT_STATUSES, UNRESOLVED_ATTEMPT_STATUSES } from '../../src/domain/payout.js';
import { REFUND_STATUSES } from '../../src/domain/refund.js';
import { REVIEW_KINDS, REVIEW_STATUSES } from '../../src/domain/review.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
});
after(() => t.drop());

/** The CHECK constraints that mention only this column, as PostgreSQL prints them. */
async function checksOn(table: string, column: string): Promise<string[]> {
  const r = await t.db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
      WHERE c.contype = 'c' AND c.conrelid = $1::regclass AND a.attname = $2 AND cardinality(c.conkey) = 1`,
    [table, column],
  );
  return r.rows.map((row) => row.def);
}

/** The quoted literals of the one `= ANY (ARRAY[...])` CHECK on a column, in order. */
async function checkList(table: string, column: string): Promise<string[]> {
  const lists = (await checksOn(table, column)).filter((d) => /ANY \(ARRAY\[|<@ ARRAY\[/.test(d));
  assert.equal(lists.length, 1, `${table}.${column}: expected one list CHECK, found ${JSON.stringify(lists)}`);
  return literals(lists[0] as string);
}

const literals = (sql: string): string[] => [...sql.matchAll(/'([^']*)'::text/g)].map((m) => m[1] as string);

/** The `col >= a AND col <= b` CHECK (PostgreSQL's form of BETWEEN) on a column. */
async function checkBounds(table: string, column: string): Promise<[number, number]> {
  const defs = await checksOn(table, column);
  const bounds = defs.map((d) => d.match(/>= '?(\d+)'?(?:::\w+)?\)? AND \(?\w+ <= '?(\d+)'?/)).filter((m) => m !== null);
  assert.equal(bounds.length, 1, `${table}.${column}: expected one BETWEEN CHECK, found ${JSON.stringify(defs)}`);
  const m = bounds[0] as RegExpMatchArray;
  return [Number(m[1]), Number(m[2])];
}

async function indexPredicate(name: string): Promise<string> {
  const r = await t.db.query<{ pred: string | null }>(
    'SELECT pg_get_expr(i.indpred, i.indrelid) AS pred FROM pg_index i WHERE i.indexrelid = $1::regclass',
    [name],
  );
  const pred = r.rows[0]?.pred;
  assert.ok(pred, `${name} is a partial index`);
  return pred;
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

test('payment orders: status, trigger, expiry and amount CHECKs equal the domain', async () => {
  assert.deepEqual(await checkList('payment_orders', 'status'), [...PAYMENT_ORDER_STATUSES]);
  assert.deepEqual(await checkList('payment_order_transitions', 'trigger'), ['created', ...ORDER_TRIGGERS]);
  assert.deepEqual(await checkBounds('payment_orders', 'expires_in_minutes'), [EXPIRES_IN_MINUTES_MIN, EXPIRES_IN_MINUTES_MAX]);
  assert.deepEqual(await checkBounds('payment_orders', 'amount_paise'), [AMOUNT_MIN_PAISE, AMOUNT_MAX_PAISE]);
});

test('ledger entries: kind and source type CHECKs equal the domain', async () => {
  assert.deepEqual(await checkList('ledger_entries', 'kind'), [...LEDGER_ENTRY_KINDS]);
  assert.deepEqual(await checkList('ledger_entries', 'source_type'), [...LEDGER_SOURCE_TYPES]);
});

test('payouts: status, attempt status, mode and amount CHECKs equal the domain', async () => {
  assert.deepEqual(sorted(await checkList('payouts', 'status')), sorted(PAYOUT_STATUSES));
  assert.deepEqual(sorted(await checkList('payout_attempts', 'status')), sorted(PAYOUT_ATTEMPT_STATUSES));
  assert.deepEqual(await checkList('payouts', 'mode'), [...PAYOUT_MODES]);
  assert.deepEqual(sorted(literals((await checksOn('bank_connections', 'modes')).join(' '))), sorted(PAYOUT_MODES));
  assert.deepEqual(await checkBounds('payouts', 'amount_paise'), [AMOUNT_MIN_PAISE, AMOUNT_MAX_PAISE]);
});

test('refunds and review items: CHECKs equal the domain', async () => {
  assert.deepEqual(sorted(await checkList('refunds', 'status')), sorted(REFUND_STATUSES));
  assert.deepEqual(sorted(await checkList('review_items', 'kind')), sorted(REVIEW_KINDS));
  assert.deepEqual(sorted(await checkList('review_items', 'status')), sorted(REVIEW_STATUSES));
});

test('callback deliveries: the status CHECK equals the list of callbacks/outcome.ts', async () => {
  assert.deepEqual(sorted(await checkList('callback_deliveries', 'status')), sorted(DELIVERY_STATUSES));
});

test('partial indexes of the workers cover exactly the domain lists they scan', async () => {
  assert.deepEqual(sorted(literals(await indexPredicate('callback_deliveries_status_idx'))), sorted(FAILED_DELIVERY_STATUSES));
  assert.deepEqual(sorted(literals(await indexPredicate('payment_orders_open_due_idx'))), sorted(OPEN_ORDER_STATUSES));
  assert.deepEqual(sorted(literals(await indexPredicate('payout_attempts_due_idx'))), sorted(UNRESOLVED_ATTEMPT_STATUSES));
});

test('a status list passed as a parameter still lets the planner use the partial indexes', async () => {
  await t.db.tx(async (q) => {
    // Seq scans off: the only way to answer without one is an index whose predicate the planner
    // proved from the parameter's value (node-postgres sends unnamed statements: custom plans).
    await q.query('SET LOCAL enable_seqscan = off');
    const plan = async (sql: string, params: unknown[]): Promise<string> =>
      JSON.stringify((await q.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]);
    const orders = await plan('SELECT id FROM payment_orders WHERE status = ANY($1::text[]) AND expires_at <= now() ORDER BY expires_at LIMIT 10', [
      OPEN_ORDER_STATUSES,
    ]);
    assert.match(orders, /payment_orders_open_due_idx/);
    const attempts = await plan('SELECT id FROM payout_attempts WHERE status = ANY($1::text[]) AND next_check_at <= now() ORDER BY next_check_at LIMIT 10', [
      UNRESOLVED_ATTEMPT_STATUSES,
    ]);
    assert.match(attempts, /payout_attempts_due_idx/);
  });
});
