/**
 * The embedded store's ownership of its directory and start-up failures (issue #16 items 1, 2):
 * a second start on a directory in use is refused and touches nothing; a PostgreSQL whose owner
 * died is recovered; a service that fails to start stops what it started and says why in one
 * line; as root, the store starts from a clone in a private (0700) folder.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startService } from '../../src/service.js';
import { StartupError } from '../../src/startup-error.js';
import { isRunning, LOCK_FILE } from '../../src/store/embedded-lock.js';
import { startEmbeddedPostgres } from '../../src/store/embedded.js';
import { installedDistribution } from '../../src/store/postgres-binaries.js';
import { createTestDatabase } from '../support/db.js';
import { poll } from '../support/poll.js';

const dirs: string[] = [];
const pids: number[] = [];
/** A directory the unprivileged postgres user can enter (mkdtemp makes them 0700). */
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(d, 0o755);
  dirs.push(d);
  return d;
}
after(() => {
  for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function selectOne(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one as number;
  } finally {
    await c.end();
  }
}

test('a second start on a database directory in use is refused at once, names the owner, and the first keeps working', { timeout: 60_000 }, async () => {
  const dir = join(tempDir('tijori-lock-'), 'db');
  const first = await startEmbeddedPostgres({ dataDir: dir, port: 0, persistent: true });
  try {
    const started = Date.now();
    await assert.rejects(
      startEmbeddedPostgres({ dataDir: dir, port: 0, persistent: true }),
      (e: unknown) => e instanceof StartupError && e.message.includes(`in use by Tijori process ${process.pid}`) && !e.message.includes('\n'),
    );
    assert.ok(Date.now() - started < 2_000, 'refused at once');
    assert.ok(isRunning(first.pid), "the first instance's PostgreSQL was left alone");
    assert.equal(await selectOne(first.url), 1);
    assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8').split(' ')[0], String(process.pid), 'the lock still names the first owner');
  } finally {
    await first.stop();
  }
  assert.ok(!existsSync(join(dir, LOCK_FILE)), 'a clean stop releases the lock');
});

test('a PostgreSQL whose Tijori process was killed is stopped at the next start, and the data is kept', { timeout: 90_000 }, async () => {
  const dir = join(tempDir('tijori-orphan-'), 'db');
  // The owner: another process that starts the store, writes a row and is then killed with SIGKILL.
  const script = `
    import { startEmbeddedPostgres } from './src/store/embedded.ts';
    import pg from 'pg';
    const h = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dir)}, port: 0, persistent: true });
    const c = new pg.Client({ connectionString: h.url });
    await c.connect();
    await c.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the crash')");
    await c.end();
    process.stdout.write('ready ' + h.pid + '\\n');
    setInterval(() => {}, 1000);`;
  const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  pids.push(owner.pid as number);
  let stderr = '';
  owner.stderr.on('data', (d) => {
    stderr += d;
  });
  const orphanPid = await new Promise<number>((resolve, reject) => {
    let out = '';
    owner.stdout.on('data', (d) => {
      out += d;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    owner.once('exit', (c) => reject(new Error(`owner exited (${c}): ${stderr}`)));
  });
  pids.push(orphanPid);
  owner.kill('SIGKILL');
  await poll(async () => !isRunning(owner.pid as number), { what: 'the owner to die', timeoutMs: 5_000, stepMs: 50 });
  assert.ok(isRunning(orphanPid), 'its PostgreSQL outlived it (an orphan)');

  const next = await startEmbeddedPostgres({ dataDir: dir, port: 0, persistent: true });
  try {
    assert.ok(!isRunning(orphanPid), 'the orphan was stopped');
    const c = new pg.Client({ connectionString: next.url });
    await c.connect();
    const rows = (await c.query<{ v: string }>('SELECT v FROM kept')).rows;
    await c.end();
    assert.deepEqual(rows, [{ v: 'before the crash' }]);
  } finally {
    await next.stop();
  }
});

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

test('a service that cannot listen stops the embedded PostgreSQL it started and says why in one line', { timeout: 90_000 }, async () => {
  const taken = await listen();
  const dataDir = tempDir('tijori-eaddrinuse-');
  try {
    const config = loadConfig({ PORT: String(taken.port), INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    await assert.rejects(
      startService(config, { log: createLogger('silent') }),
      (e: unknown) => e instanceof StartupError && e.message.startsWith(`127.0.0.1:${taken.port} is already in use (PORT)`),
    );
    const clusterDir = join(dataDir, 'db', 'pg');
    assert.ok(existsSync(join(clusterDir, 'PG_VERSION')), 'the embedded database had been started');
    assert.ok(!existsSync(join(clusterDir, 'postmaster.pid')), 'and was stopped again');
    assert.ok(!existsSync(join(dataDir, 'db', LOCK_FILE)), 'its directory is free for the next start');
  } finally {
    taken.server.close();
  }
});

test('npm start on a taken port exits 1 with one line, no stack trace', { timeout: 60_000 }, async () => {
  const taken = await listen();
  const database = await createTestDatabase();
  try {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts'],
        {
          env: { ...process.env, DATABASE_URL: database.url, PORT: String(taken.port), INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: tempDir('tijori-main-'), LOG_LEVEL: 'warn' },
          timeout: 30_000,
        },
        (err, _stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr }),
      );
    });
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    const line = JSON.parse(lines[0] as string) as { level: string; msg: string; err?: unknown };
    assert.equal(line.level, 'fatal');
    assert.match(line.msg, new RegExp(`^failed to start: 127\\.0\\.0\\.1:${taken.port} is already in use \\(PORT\\)`));
    assert.equal(line.err, undefined, 'no stack trace');
  } finally {
    taken.server.close();
    await database.drop();
  }
});

const asRoot = process.getuid?.() === 0;

test('as root, the store starts although its PostgreSQL binaries sit in a private (0700) folder', { skip: !asRoot && 'not running as root', timeout: 120_000 }, async () => {
  // The situation of a clone under /root or `mktemp -d`: node_modules (and the binaries in it)
  // behind a folder the postgres user cannot enter.
  const privateFolder = mkdtempSync(join(tmpdir(), 'tijori-private-'));
  dirs.push(privateFolder);
  assert.equal(statSync(privateFolder).mode & 0o777, 0o700);
  const installed = installedDistribution();
  cpSync(dirname(installed), join(privateFolder, 'pkg'), { recursive: true, verbatimSymlinks: true });
  const cacheRoot = tempDir('tijori-pgcache-');
  const pgDir = join(tempDir('tijori-rootdata-'), 'db');
  const h = await startEmbeddedPostgres({
    dataDir: pgDir,
    port: 0,
    persistent: false,
    distribution: { dir: join(privateFolder, 'pkg', 'native'), cacheRoot },
  });
  try {
    assert.equal(await selectOne(h.url), 1);
    const exe = readFileSync(`/proc/${h.pid}/cmdline`, 'utf8').split('\0')[0] as string;
    assert.ok(exe.startsWith(cacheRoot), `postgres runs from the reachable copy (${exe})`);
    const copy = statSync(dirname(dirname(exe)));
    assert.equal(copy.uid, 0);
    assert.equal(copy.mode & 0o022, 0, 'the copy is writable by root only');
  } finally {
    await h.stop();
  }
});

test('as root, a DATA_DIR inside a private folder (a clone in mktemp -d) gets its cluster in a place postgres can reach, kept across starts', { skip: !asRoot && 'not running as root', timeout: 120_000 }, async () => {
  const privateFolder = mkdtempSync(join(tmpdir(), 'tijori-private-'));
  dirs.push(privateFolder);
  const clusterRoot = join(tempDir('tijori-clusters-'), 'var-lib-tijori');
  const dataDir = join(privateFolder, 'clone', 'data', 'db');
  const first = await startEmbeddedPostgres({ dataDir, port: 0, persistent: true, clusterRoot });
  try {
    assert.ok(first.clusterDir.startsWith(`${clusterRoot}/`), `the cluster lives under the cluster root (${first.clusterDir})`);
    assert.equal(first.relocatedBecause, privateFolder, 'it says which folder blocked the postgres user');
    assert.equal(readFileSync(join(dataDir, 'pg-location'), 'utf8').trim(), first.clusterDir, 'DATA_DIR notes where its database lives');
    assert.equal(statSync(privateFolder).mode & 0o777, 0o700, 'the private folder above DATA_DIR was left as it was');
    const c = new pg.Client({ connectionString: first.url });
    await c.connect();
    await c.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('first start')");
    await c.end();
  } finally {
    await first.stop();
  }
  const second = await startEmbeddedPostgres({ dataDir, port: 0, persistent: true, clusterRoot });
  try {
    assert.equal(second.clusterDir, first.clusterDir, 'the same data directory finds the same cluster');
    const c = new pg.Client({ connectionString: second.url });
    await c.connect();
    const rows = (await c.query<{ v: string }>('SELECT v FROM kept')).rows;
    await c.end();
    assert.deepEqual(rows, [{ v: 'first start' }]);
  } finally {
    await second.stop();
  }
  assert.ok(!existsSync(join(dataDir, LOCK_FILE)), 'the lock is released');
});

test('as root, a cluster root that others may write to is refused with one line', { skip: !asRoot && 'not running as root' }, async () => {
  const privateFolder = mkdtempSync(join(tmpdir(), 'tijori-private-'));
  dirs.push(privateFolder);
  const clusterRoot = tempDir('tijori-clusters-');
  chmodSync(clusterRoot, 0o777);
  await assert.rejects(
    startEmbeddedPostgres({ dataDir: join(privateFolder, 'data', 'db'), port: 0, persistent: true, clusterRoot }),
    (e: unknown) => e instanceof StartupError && e.message.includes(`${clusterRoot} must be a directory owned by root`) && !e.message.includes('\n'),
  );
  assert.ok(!existsSync(join(privateFolder, 'data', 'db', LOCK_FILE)), 'the lock is released');
});

test('as root, a DATA_DIR that is itself private (mktemp -d) is opened for traversal only, and the store starts', { skip: !asRoot && 'not running as root', timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tijori-mktemp-'));
  dirs.push(dataDir);
  const h = await startEmbeddedPostgres({ dataDir: join(dataDir, 'db'), port: 0, persistent: false });
  try {
    assert.equal(await selectOne(h.url), 1);
    assert.equal(statSync(dataDir).mode & 0o777, 0o701, 'others may enter DATA_DIR, not list it');
  } finally {
    await h.stop();
  }
});

test('as root, npm start from a clone in a private folder says in one log line where the database files are', { skip: !asRoot && 'not running as root', timeout: 120_000 }, async () => {
  const privateFolder = mkdtempSync(join(tmpdir(), 'tijori-private-'));
  dirs.push(privateFolder);
  const dataDir = join(privateFolder, 'clone', 'data');
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const config = loadConfig({ PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  const svc = await startService(config, { log: createLogger('info', sink) });
  const clusterDir = readFileSync(join(dataDir, 'db', 'pg-location'), 'utf8').trim();
  try {
    assert.equal((await fetch(`${svc.publicUrl}/healthz`)).status, 200);
    const said = lines.map((l) => JSON.parse(l) as { msg: string; databaseFiles?: string }).filter((l) => l.msg.startsWith('embedded PostgreSQL started'));
    assert.equal(said.length, 1, lines.join('\n'));
    assert.equal(said[0]?.msg, `embedded PostgreSQL started; its files are in ${clusterDir} (the postgres user it runs as cannot enter ${privateFolder})`);
    assert.ok(clusterDir.startsWith('/var/lib/tijori/'), clusterDir);
  } finally {
    await svc.stop();
    rmSync(dirname(clusterDir), { recursive: true, force: true });
  }
});
