/**
 * A PgBouncer of the test's own (Debian's package, PGBOUNCER_BIN, default /usr/sbin/pgbouncer) in
 * transaction pooling mode in front of a PostgreSQL, on a free port with its own ini and userlist
 * in a temp dir, stopped and removed by `stop()`. As root it runs as the `postgres` user
 * (PgBouncer refuses to run as root). A small server pool (`poolSize`) makes every server
 * connection serve transactions of many client connections: anything that relies on session
 * state across transactions (named prepared statements, SET, session advisory locks) breaks.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresUser } from '../../src/store/postgres-binaries.js';
import { freePort } from './pg-cluster.js';

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN || '/usr/sbin/pgbouncer';

export function pgbouncerMissing(): string | undefined {
  return existsSync(PGBOUNCER_BIN) ? undefined : `PgBouncer is not installed at ${PGBOUNCER_BIN} (apt-get install pgbouncer, or set PGBOUNCER_BIN)`;
}

export interface PgBouncer {
  port: number;
  /** `url` (a PostgreSQL URL) with its host and port replaced by this PgBouncer's. */
  via(url: string): string;
  /** Totals of SHOW STATS for one database (its admin console). */
  stats(database: string): Promise<{ xacts: number; queries: number }>;
  /** The local ports of its server connections (to tell them from direct sessions in pg_stat_activity). */
  serverPorts(): Promise<number[]>;
  stop(): Promise<void>;
}

/**
 * `background`: the process does not wait for it (unref'd) and it is stopped when the test
 * process exits (TEST_PGBOUNCER's shared instance, see sharedPgBouncer).
 */
export async function startPgBouncer(target: { host: string; port: number }, opts: { poolSize?: number; background?: boolean } = {}): Promise<PgBouncer> {
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'tijori-pgbouncer-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${target.host} port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize ?? 3}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [ini], { ...(user ? { uid: user.uid, gid: user.gid } : {}), stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  if (opts.background) {
    child.unref();
    (child.stderr as unknown as { unref(): void }).unref();
    process.once('exit', () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
  }
  const log: string[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    log.push(String(d));
    if (log.length > 50) log.shift();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const admin = async <R extends pg.QueryResultRow>(sql: string): Promise<R[]> => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
    await c.connect();
    try {
      return (await c.query<R>(sql)).rows;
    } finally {
      await c.end();
    }
  };
  // Ready once its admin console answers.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer exited during start-up:\n${log.join('')}`);
    }
    try {
      await admin('SHOW VERSION');
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not start: ${(err as Error).message}\n${log.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    via(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async stats(database: string) {
      const rows = await admin<{ database: string; total_xact_count: string; total_query_count: string }>('SHOW STATS');
      const row = rows.find((r) => r.database === database);
      return { xacts: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
    },
    async serverPorts() {
      return (await admin<{ local_port: string }>('SHOW SERVERS')).map((r) => Number(r.local_port));
    },
    stop,
  };
}

let shared: Promise<PgBouncer> | undefined;

/**
 * TEST_PGBOUNCER=1: one PgBouncer per test process in front of TEST_DATABASE_URL, through which
 * startTestService runs every service (DATABASE_URL → PgBouncer, DATABASE_DIRECT_URL → PostgreSQL).
 */
export function sharedPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const u = new URL(serverUrl);
  shared ??= startPgBouncer({ host: u.hostname, port: Number(u.port || 5432) }, { poolSize: 4, background: true });
  return shared;
}
