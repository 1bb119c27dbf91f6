/**
 * What a query plan must show, asserted without naming an index: the planner of each PostgreSQL
 * major (15 in CI's service, 18 embedded) may pick another index of equal worth, and a test that
 * pins an index's name then fails for no fault of the statement (seen: PostgreSQL 18's skip scan
 * reads (org_id, status, created_at) where 15 reads (org_id, created_at)). What matters is that no
 * scan of the large table reads it whole, and that each scan of it goes through an index led by
 * the filter's equality columns whose index condition bounds every filter column (so it reads only
 * the rows the filter wants).
 */
import assert from 'node:assert/strict';

type Sql = (text: string, params?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

interface IndexRead {
  index: string;
  cond: string;
}

/** Every scan of `table` in the plan: its node type and the indexes it reads, with their conditions. */
function scansOf(node: PlanNode, table: string, out: Array<{ type: string; indexes: IndexRead[] }> = []): Array<{ type: string; indexes: IndexRead[] }> {
  if (node['Relation Name'] === table) {
    const indexes: IndexRead[] = [];
    const collect = (n: PlanNode) => {
      if (n['Index Name']) indexes.push({ index: n['Index Name'], cond: n['Index Cond'] ?? '' });
      for (const c of n.Plans ?? []) collect(c);
    };
    collect(node); // a Bitmap Heap Scan's indexes are in its Bitmap Index Scan children
    out.push({ type: node['Node Type'], indexes });
  }
  for (const c of node.Plans ?? []) scansOf(c, table, out);
  return out;
}

/** The columns of an index, in order. */
async function indexColumns(sql: Sql, index: string): Promise<string[]> {
  const r = await sql(
    `SELECT a.attname AS column
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE c.relname = $1
      ORDER BY k.ord`,
    [index],
  );
  return r.rows.map((row) => row.column as string);
}

/** The filter of a statement on one table: columns compared for equality, and columns bounded by a range. */
export interface Filter {
  equality: string[];
  range: string[];
}

/**
 * EXPLAINs `statement` and asserts that `table` is read, never sequentially, and only through
 * indexes whose leading columns are `filter.equality` (in any order) and whose index condition
 * names every column of the filter.
 */
export async function assertServedByFilterIndex(sql: Sql, statement: string, params: unknown[], table: string, filter: Filter): Promise<void> {
  const explained = (await sql(`EXPLAIN (FORMAT JSON) ${statement}`, params)).rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> };
  const plan = explained['QUERY PLAN'][0]?.Plan as PlanNode;
  const text = JSON.stringify(plan);
  const scans = scansOf(plan, table);
  assert.ok(scans.length > 0, `${table} is read: ${text}`);
  for (const scan of scans) {
    assert.notEqual(scan.type, 'Seq Scan', `${table}: no sequential scan: ${text}`);
    assert.ok(scan.indexes.length > 0, `${table}: read through an index (${scan.type}): ${text}`);
    for (const { index, cond } of scan.indexes) {
      const leading = (await indexColumns(sql, index)).slice(0, filter.equality.length);
      assert.deepEqual([...leading].sort(), [...filter.equality].sort(), `${table}: index ${index} is led by the filter's equality columns (${filter.equality.join(', ')}), not (${leading.join(', ')}): ${text}`);
      for (const column of [...filter.equality, ...filter.range]) {
        assert.match(cond, new RegExp(`\\b${column}\\b`), `${table}: the index condition on ${index} bounds ${column}: ${text}`);
      }
    }
  }
}
