/**
 * Upgrade without downtime (issue #35 item 4, docs/operations.md "Upgrading"): while instances
 * roll, the previous release runs against the schema of this one. This test takes the previous
 * release (PREVIOUS_RELEASE, default the commit named below; `git archive` into a temporary folder,
 * using this checkout's node_modules), gives it this release's migrations, and runs its own smoke
 * tests there: its code on the new schema. It also checks the rule that makes that safe to
 * assume: a released migration file is never edited (each of the previous release's migrations is
 * byte-identical here). Skipped, saying why, outside a git checkout that has the commit.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

/** The release before this one: update when a release is cut (docs/operations.md, "Upgrading"). */
const PREVIOUS = process.env.PREVIOUS_RELEASE || '1d76dd9';
/** The previous release's smoke tests: the core flows of both money directions and the HTTP foundation. */
const SMOKE = ['test/payin/payment-orders.create.test.ts', 'test/payout/payouts.create.test.ts', 'test/foundation/http.test.ts'];
const MIGRATION_DIRS = ['src/store/migrations', 'src/sandbox/migrations'];
/**
 * Fleet-stop steps (docs/operations.md, "A release with a fleet-stop step"): migrations the
 * previous release's code cannot run beside, applied with its instances stopped. From the first of
 * them on, the previous release is not expected to work, so it is checked on the schema before it;
 * each one must be named in docs/operations.md. 0150–0154 turn five tables into partitioned ones
 * (issue #34): the previous release's `ON CONFLICT (provider, event_id)` and
 * `ON CONFLICT (event_id, target)` name unique keys a partitioned table cannot have.
 */
const FLEET_STOP = ['0150_partitions_prepare.sql'];

const hasCommit = spawnSync('git', ['cat-file', '-e', `${PREVIOUS}^{commit}`]).status === 0;
const skip = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set'
  : hasCommit
    ? false
    : `the previous release ${PREVIOUS} is not in this checkout (a git clone with history is needed; set PREVIOUS_RELEASE): the upgrade test is not run`;

let dir = '';
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('every fleet-stop step is a migration of this release, named in docs/operations.md', () => {
  const operations = readFileSync('docs/operations.md', 'utf8');
  for (const stop of FLEET_STOP) {
    assert.ok(existsSync(join('src/store/migrations', stop)), `${stop} is a migration`);
    assert.ok(operations.includes(stop), `docs/operations.md names the fleet-stop step ${stop}`);
  }
});

test(`the previous release (${PREVIOUS}) passes its smoke tests on this release's migrations`, { skip, timeout: 15 * 60_000 }, async (t) => {
  dir = mkdtempSync(join(tmpdir(), 'tijori-previous-'));
  execFileSync('sh', ['-c', `git archive --format=tar "${PREVIOUS}" | tar -x -C "${dir}"`]);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');

  // Released migrations are never edited: the previous release's files are byte-identical here.
  for (const d of MIGRATION_DIRS) {
    for (const f of readdirSync(join(dir, d)).filter((x) => x.endsWith('.sql'))) {
      assert.ok(existsSync(join(d, f)), `${d}/${f} of the previous release is gone (expand/contract: never delete a released migration)`);
      assert.equal(readFileSync(join(d, f), 'utf8'), readFileSync(join(dir, d, f), 'utf8'), `${d}/${f} was edited after its release`);
    }
    // This release's migrations (expand steps) join them: the previous release's code on the new
    // schema — up to the first fleet-stop step, which runs only once the previous release is stopped.
    for (const f of readdirSync(d).filter((x) => x.endsWith('.sql'))) {
      if (FLEET_STOP.some((stop) => f >= stop)) continue;
      cpSync(join(d, f), join(dir, d, f));
    }
  }

  const out: string[] = [];
  const code = await new Promise<number | null>((res) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', ...SMOKE], {
      cwd: dir,
      // Without NODE_TEST_CONTEXT: node's test runner would take the child for a nested run and skip its files.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), TEST_CONCURRENCY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    p.stdout.on('data', (c: Buffer) => out.push(String(c)));
    p.stderr.on('data', (c: Buffer) => out.push(String(c)));
    p.on('close', res);
  });
  const text = out.join('');
  assert.equal(code, 0, `the previous release's smoke tests failed on the new schema:\n${text.slice(-6000)}`);
  assert.match(text, /ℹ fail 0/);
  const passed = Number(/ℹ pass (\d+)/.exec(text)?.[1]);
  assert.ok(passed > 10, `${passed} smoke tests passed`);
  t.diagnostic(`the previous release's smoke tests on the new schema: ${passed} passed (${SMOKE.join(', ')})`);
});
