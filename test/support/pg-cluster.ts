/**
 * Throw-away PostgreSQL servers from the machine's own binaries (PG_BIN, default Debian's
 * PostgreSQL 15) for the database-tier tests (contract §10): a primary, streaming standbys made
 * with pg_basebackup, promotion and kill -9. Each server runs in a process group of its own, so
 * a kill -9 takes its backends with it, as a machine that dies would. As root, the servers run
 * as the `postgres` user. `removeAll()` kills every server this module started and deletes its
 * files (call it in `after`, it also runs on a failed test).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresUser } from '../../src/store/postgres-binaries.js';

export const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const ENV = { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' };
const run = promisify(execFile);

/** Whether the binaries are there (a test skips with this reason otherwise). */
export function pgBinariesMissing(): string | undefined {
  return existsSync(join(PG_BIN, 'pg_basebackup')) ? undefined : `no PostgreSQL binaries in ${PG_BIN} (set PG_BIN)`;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface PgNode {
  name: string;
  port: number;
  dir: string;
  url(database?: string): string;
  /** SIGKILL to the server's whole process group: postmaster and backends die at once. */
  kill9(): void;
  /** Fast shutdown. */
  stop(): Promise<void>;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[], database?: string): Promise<R[]>;
}

const user = postgresUser();
const ids = user ? { uid: user.uid, gid: user.gid } : {};
const children = new Set<ChildProcess>();
let base: string | undefined;

function baseDir(): string {
  if (!base) {
    base = mkdtempSync(join(tmpdir(), 'tijori-pgtier-'));
    if (user) chownSync(base, user.uid, user.gid);
  }
  return base;
}

/**
 * Settings of every server: small, local only, replication on, no fsync (a kill -9 of a process
 * loses nothing the OS has). Written into the primary's postgresql.conf (pg_basebackup copies it
 * to standbys), not given with -c: pg_rewind's crash-recovery run reads only the file, and a
 * standby refuses to start with a max_connections lower than its primary's recorded one.
 */
const COMMON = {
  listen_addresses: "'127.0.0.1'",
  max_connections: '40',
  shared_buffers: "'16MB'",
  wal_level: 'replica',
  max_wal_senders: '6',
  hot_standby: 'on',
  fsync: 'off',
  // pg_rewind (an old primary back as a standby) needs full page writes, and data checksums (initdb -k).
  full_page_writes: 'on',
};

/** Per server: its port and socket directory, plus what the caller adds. */
function serverArgs(dir: string, port: number, extra: Record<string, string>): string[] {
  const opts: Record<string, string> = { port: String(port), unix_socket_directories: dir, ...extra };
  return ['-D', dir, ...Object.entries(opts).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

async function startServer(name: string, dir: string, port: number, extra: Record<string, string>): Promise<PgNode> {
  const child = spawn(join(PG_BIN, 'postgres'), serverArgs(dir, port, extra), { ...ids, env: ENV, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  children.add(child);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.once('exit', () => children.delete(child));
  const tail: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let ready = false;
    child.stderr!.on('data', (d: Buffer) => {
      tail.push(String(d));
      if (tail.length > 30) tail.shift();
      // A primary says "ready to accept connections", a hot standby "ready to accept read-only connections".
      if (!ready && /database system is ready to accept (read-only )?connections/.test(tail.join(''))) {
        ready = true;
        resolve();
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`${name} exited during start-up (${code ?? signal}):\n${tail.join('')}`)));
  });
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    name,
    port,
    dir,
    url,
    kill9() {
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await exited;
    },
    async query<R extends pg.QueryResultRow>(text: string, values?: unknown[], database?: string) {
      const c = new pg.Client({ connectionString: url(database) });
      await c.connect();
      try {
        return (await c.query<R>(text, values)).rows;
      } finally {
        await c.end();
      }
    },
  };
}

/** initdb + start: a primary that waits for `syncStandby` (its application_name) on every commit. */
export async function startPrimary(name: string, syncStandby?: string): Promise<PgNode> {
  const dir = join(baseDir(), name);
  await run(join(PG_BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '--data-checksums'], { ...ids, env: ENV });
  appendFileSync(join(dir, 'postgresql.conf'), Object.entries(COMMON).map(([k, v]) => `${k} = ${v}\n`).join(''));
  return startServer(name, dir, await freePort(), syncStandby ? { synchronous_standby_names: syncStandby, synchronous_commit: 'on' } : {});
}

/** pg_basebackup from `primary` + start as a hot standby streaming from it under application_name `name`. */
export async function startStandby(name: string, primary: PgNode): Promise<PgNode> {
  const dir = join(baseDir(), name);
  await run(join(PG_BIN, 'pg_basebackup'), ['-D', dir, '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-X', 'stream', '-R', '--no-sync', '--checkpoint=fast'], { ...ids, env: ENV });
  return startServer(name, dir, await freePort(), { primary_conninfo: `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}` });
}

/**
 * The old primary (killed) back as a standby of `newPrimary`: pg_rewind (which first runs crash
 * recovery on it) winds its files back to where the timelines forked, then it starts streaming.
 */
export async function rewindAsStandby(old: PgNode, newPrimary: PgNode): Promise<PgNode> {
  const source = `host=127.0.0.1 port=${newPrimary.port} user=postgres dbname=postgres`;
  await run(join(PG_BIN, 'pg_rewind'), ['-D', old.dir, '--source-server', source, '-R'], { ...ids, env: ENV });
  return startServer(`${old.name}_rewound`, old.dir, await freePort(), { primary_conninfo: `${source} application_name=${old.name}` });
}

/** Waits until `standby` is the primary's synchronous standby. */
export async function waitForSync(primary: PgNode, standby: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await primary.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication WHERE application_name = $1', [standby]);
    if (rows[0]?.sync_state === 'sync') return;
    if (Date.now() > until) throw new Error(`${standby} did not become the synchronous standby of ${primary.name}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Promotes a standby and waits until it accepts writes. */
export async function promote(standby: PgNode): Promise<void> {
  await standby.query('SELECT pg_promote(true, 30)');
}

/** Kills every server this module started and deletes their files. */
export async function removeAll(): Promise<void> {
  for (const c of children) if (c.pid) {
    try {
      process.kill(-c.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 5_000;
  while (children.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
}
