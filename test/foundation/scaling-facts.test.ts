/**
 * The schema facts docs/scaling.md's path to Citus relies on (issue #34 item 5), read from the
 * document itself and checked against the migrated database's catalogue: which tables are
 * distributed by org_id (and whether they have the column today), every unique key and every
 * foreign key between distributed tables, each with whether it includes org_id. A new table,
 * unique key or foreign key, or one that gains org_id, fails here until the plan says so.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { idForOrderId, orderIdFor } from '../../src/domain/order-id.js';
import { newRowId } from '../../src/store/row-id.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const doc = readFileSync(new URL('../../docs/scaling.md', import.meta.url), 'utf8');

/** The table rows (cells, backticks removed) between `<!-- scaling-facts:NAME -->` and `<!-- /scaling-facts -->`. */
function factRows(name: string): string[][] {
  const start = doc.indexOf(`<!-- scaling-facts:${name} -->`);
  assert.ok(start >= 0, `docs/scaling.md has the ${name} facts`);
  const block = doc.slice(start, doc.indexOf('<!-- /scaling-facts -->', start));
  return block
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
}
const code = (cell: string): string => /`([^`]*)`/.exec(cell)![1]!;

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
});
after(() => t.drop());

const sorted = (xs: string[]) => [...xs].sort();

test('every table is placed: distributed with org_id, distributed once org_id is added, or kept whole', async () => {
  const r = await t.db.query<{ name: string; has_org: boolean }>(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped) AS has_org
       FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND c.relname NOT LIKE 'sandbox\\_%'
        -- A partition (docs/scaling.md "Partitions and retention") is placed with its parent.
        AND NOT c.relispartition`,
  );
  const hasOrg = new Map(r.rows.map((row) => [row.name, row.has_org]));
  const placed = factRows('tables').map(([table, place]) => ({ table: code(table!), place: code(place!) }));
  assert.deepEqual(sorted(placed.map((p) => p.table)), sorted([...hasOrg.keys()]), 'the plan places exactly the schema\'s tables');
  for (const { table, place } of placed) {
    assert.ok(['org_id', 'needs org_id', 'whole'].includes(place), `${table}: ${place}`);
    if (place === 'org_id') assert.equal(hasOrg.get(table), true, `${table} is said to have org_id`);
    if (place === 'needs org_id') assert.equal(hasOrg.get(table), false, `${table} is said to lack org_id`);
  }
});

const distributed = () => factRows('tables').filter(([, place]) => code(place!) !== 'whole').map(([table]) => code(table!));

test('the unique keys of the distributed tables, and which include org_id', async () => {
  const r = await t.db.query<{ tbl: string; cols: string[]; pk: boolean }>(
    `SELECT ct.relname AS tbl, ix.indisprimary AS pk,
            ARRAY(SELECT a.attname::text FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.n) AS cols
       FROM pg_index ix JOIN pg_class ct ON ct.oid = ix.indrelid
      WHERE ix.indisunique AND ct.relname = ANY($1::text[]) AND ct.relnamespace = 'public'::regnamespace`,
    [distributed()],
  );
  const actual = r.rows.map((row) => `${row.tbl} (${row.cols.join(', ')})${row.pk ? ' pk' : ''} ${row.cols.includes('org_id') ? 'yes' : 'no'}`);
  const said = factRows('unique').map(([table, key, org]) => `${code(table!)} ${code(key!)}${key!.includes('(primary key)') ? ' pk' : ''} ${org}`);
  assert.deepEqual(sorted(said), sorted(actual));
});

test('the foreign keys between distributed tables, and which include org_id', async () => {
  const r = await t.db.query<{ child: string; cols: string[]; parent: string; pcols: string[] }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS cols,
            ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS pcols
       FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
        -- A partition's copy of its parent's foreign key is the parent's.
        AND c.conparentid = 0`,
  );
  const dist = new Set(distributed());
  const between = r.rows.filter((row) => dist.has(row.child) && dist.has(row.parent));
  const actual = between.map((row) => `${row.child} (${row.cols.join(', ')}) -> ${row.parent} (${row.pcols.join(', ')}) ${row.cols.includes('org_id') ? 'yes' : 'no'}`);
  const said = factRows('foreign-keys').map(([fk, ref, org]) => `${code(fk!)} -> ${code(ref!)} ${org}`);
  assert.deepEqual(sorted(said), sorted(actual));
  // A table kept whole may be referenced from a distributed one (as a Citus reference table), never the other way round.
  const wholeToDist = r.rows.filter((row) => !dist.has(row.child) && dist.has(row.parent) && !row.child.startsWith('sandbox_'));
  assert.deepEqual(wholeToDist, [], 'no table kept whole references a distributed one');
});

test('an order id is its row id, reversible, and the row id is a UUIDv7 whose random bits could carry org_no', () => {
  const id = newRowId();
  assert.equal(idForOrderId(orderIdFor(id)), id);
  assert.equal(id[14], '7', 'UUIDv7');
  assert.ok(Math.abs(parseInt(id.replace(/-/g, '').slice(0, 12), 16) - Date.now()) < 5_000, 'first 48 bits: milliseconds');
});
