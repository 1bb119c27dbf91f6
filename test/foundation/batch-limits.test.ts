/**
 * The one table of batch sizes (src/store/batched.ts) against the configuration: the batched
 * statements that may run at once stay below DB_POOL_SIZE with room for the work that is not
 * batched; every batch of the service is a row of the table (no Batcher is made anywhere else), and
 * every row is used by exactly one single-item call.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { BATCH_LIMITS, type BatchName, concurrencyFor, DESIGN_POOL_SIZE, RESERVED_CONNECTIONS, totalConcurrency } from '../../src/store/batched.js';

const config = loadConfig({ MASTER_KEY: randomBytes(32).toString('base64'), ADMIN_TOKEN: 'test', DATA_DIR: join(tmpdir(), 'tijori-batch-limits') });
const names = Object.keys(BATCH_LIMITS) as BatchName[];

test('the batched statements that may run at once stay below the default DB_POOL_SIZE, with connections to spare', () => {
  assert.equal(DESIGN_POOL_SIZE, config.dbPoolSize, 'the table is written for the configured default pool');
  const total = names.reduce((sum, n) => sum + concurrencyFor(n, config.dbPoolSize), 0);
  assert.equal(total, totalConcurrency());
  assert.ok(total < config.dbPoolSize, `batched statements at once (${total}) must stay below DB_POOL_SIZE (${config.dbPoolSize})`);
  assert.ok(total + RESERVED_CONNECTIONS <= config.dbPoolSize, `${RESERVED_CONNECTIONS} connections are left to unbatched work`);
  for (const n of names) {
    assert.ok(BATCH_LIMITS[n].maxBatch >= 1 && BATCH_LIMITS[n].concurrency >= 1, `${n}: sizes of at least 1`);
  }
});

test('a smaller pool scales every concurrency down (at least 1 each); a larger one keeps the table', () => {
  for (const n of names) {
    assert.equal(concurrencyFor(n, 40), BATCH_LIMITS[n].concurrency);
    assert.equal(concurrencyFor(n, 1), 1);
    assert.ok(concurrencyFor(n, 10) <= BATCH_LIMITS[n].concurrency);
  }
  assert.equal(concurrencyFor('orderCreates', 10), Math.max(1, Math.floor((BATCH_LIMITS.orderCreates.concurrency * 10) / DESIGN_POOL_SIZE)));
  const at12 = names.reduce((sum, n) => sum + concurrencyFor(n, 12), 0);
  assert.ok(at12 < totalConcurrency(), 'fewer statements at once on a smaller pool');
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

test('every batch is a row of the table, used by one single-item call; no Batcher is made elsewhere', () => {
  const files = sources('src').map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const makers = files.filter((f) => /new Batcher\b/.test(f.text)).map((f) => f.path);
  assert.deepEqual(makers, [join('src', 'store', 'batched.ts')], 'only src/store/batched.ts makes batchers');
  const uses = new Map<string, number>();
  for (const f of files) {
    for (const m of f.text.matchAll(/\b(?:batched|unitsOfKind)\(\s*'([A-Za-z]+)'/g)) uses.set(m[1]!, (uses.get(m[1]!) ?? 0) + 1);
  }
  assert.deepEqual([...uses.keys()].sort(), [...names].sort(), 'the kinds used are exactly the rows of the table');
  for (const [name, n] of uses) assert.equal(n, 1, `${name} is used by one call`);
});
