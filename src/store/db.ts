/**
 * The one way the service talks to PostgreSQL: a pooled connection with connect and statement
 * timeouts, transactions, and the mapping of "database unreachable" to DatabaseUnavailableError.
 * Repositories take a `Queryable` so the same function runs inside or outside a transaction.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { DatabaseUnavailableError, isUnavailableError, mapError } from './db-errors.js';
import { ReplicaReads } from './replica.js';

// bigint (int8) columns hold paise: parse them as numbers, guarded against precision loss.
pg.types.setTypeParser(20, (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${v} exceeds the safe integer range`);
  return n;
});

/** Callbacks to run once the transaction of a client has committed (never after a rollback). */
const commitHooks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `fn` after the transaction `q` belongs to commits: for signals such as "new work for a
 * worker" that must not be seen before the work is visible to other connections. Outside a
 * transaction (`q` is the Db itself) the statement already committed, so `fn` runs right away.
 * A throwing `fn` is ignored: the transaction has committed either way.
 */
export function afterCommit(q: Queryable, fn: () => void): void {
  const hooks = commitHooks.get(q);
  if (hooks) hooks.push(fn);
  else queueMicrotask(() => runHook(fn));
}

/**
 * The transaction `q` is in, as an object that stands for that one transaction (a pooled client
 * serves many transactions one after the other); undefined outside Db.tx (the pool, a bare client).
 */
export function transactionOf(q: Queryable): object | undefined {
  return commitHooks.get(q);
}

function runHook(fn: () => void): void {
  try {
    fn();
  } catch {
    // see afterCommit
  }
}

/**
 * A statement PostgreSQL parses and plans once per connection and then only executes (a named
 * prepared statement). For the hot paths only: planning the create's CTE costs the database about
 * as much as executing it. Prepared statements must name their result columns (no `SELECT *`):
 * a column change by a migration would otherwise fail them with "cached plan must not change
 * result type" on connections of instances still running.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

const preparedNames = new Map<string, string>();

/** The prepared form of `text`; the name is derived from the text, so equal texts share it. */
export function prepared(text: string): PreparedStatement {
  let name = preparedNames.get(text);
  if (name === undefined) {
    name = `t_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return { name, text };
}

export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

declare const inTransaction: unique symbol;

/**
 * A connection inside an open transaction: only `Db.tx` (and the store's units of work, which run
 * in one) hand one out, so a function that needs a transaction (units side by side, whose locks
 * must hold until commit) takes a `Tx` and refuses the pool at compile time. A `Tx` is not a `Db`:
 * nothing that opens a transaction of its own on the pool (a batched call, a unit of work) can be
 * started with it, so a caller that holds a transaction never waits on the pool for a second one.
 */
export type Tx = Queryable & { readonly [inTransaction]: true };

export interface DbOptions {
  url: string;
  /**
   * DATABASE_DIRECT_URL: a direct connection to the primary for what needs a session (LISTEN,
   * session advisory locks), when `url` is a pooler in transaction mode (docs/scaling.md). Setting
   * it also turns named prepared statements off on `url` (PgBouncer before 1.21 cannot route them)
   * and leaves statement_timeout out of the start-up packet (PgBouncer refuses unknown start-up
   * parameters; set it on the role instead).
   */
  directUrl?: string;
  /** DATABASE_REPLICA_URL and REPLICA_MAX_LAG_MS: a streaming standby for list reads (store/replica.ts). */
  replicaUrl?: string;
  replicaMaxLagMs?: number;
  poolSize?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
}

export { DatabaseUnavailableError, inLockOrder, isDataOrDeadlockError, isUnavailableError } from './db-errors.js';


export class Db implements Queryable {
  readonly pool: pg.Pool;
  /** Connections of the pool (the batched statements are sized against it: src/store/batched.ts). */
  readonly poolSize: number;

  /** Where LISTEN and session advisory locks go: the direct pool, or `pool` itself without DATABASE_DIRECT_URL. */
  readonly sessionPool: pg.Pool;
  /** False behind a transaction-mode pooler: statements are sent unnamed (see DbOptions.directUrl). */
  readonly namedStatements: boolean;
  /** List reads: the standby while its lag allows, else this database. */
  readonly replicaReads: ReplicaReads<Queryable>;
  private readonly replica: Db | undefined;

  constructor(opts: DbOptions) {
    this.poolSize = opts.poolSize ?? 20;
    this.namedStatements = !opts.directUrl;
    this.pool = newPool(opts, opts.url, this.poolSize, !opts.directUrl);
    // Session work is one LISTEN connection per channel plus a migration lock: a few connections.
    this.sessionPool = opts.directUrl ? newPool(opts, opts.directUrl, 4, true) : this.pool;
    this.replica = opts.replicaUrl ? new Db({ url: opts.replicaUrl, poolSize: Math.max(2, Math.ceil(this.poolSize / 4)), connectTimeoutMs: 2_000, applicationName: opts.applicationName }) : undefined;
    this.replicaReads = new ReplicaReads(this, this.replica, opts.replicaMaxLagMs ?? 5_000, (err) => err instanceof DatabaseUnavailableError);
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await (typeof text === 'string' || !this.namedStatements
        ? this.pool.query<R>(typeof text === 'string' ? text : text.text, values)
        : this.pool.query<R>({ name: text.name, text: text.text, values }));
    } catch (err) {
      throw mapError(err);
    }
  }

  private async acquire(pool = this.pool): Promise<pg.PoolClient> {
    try {
      return await pool.connect();
    } catch (err) {
      throw mapError(err);
    }
  }

  /** Runs `fn` in one READ COMMITTED transaction; rolls back on any error. */
  async tx<T>(fn: (q: Tx) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    let broken = false;
    const hooks: Array<() => void> = [];
    const q = (this.namedStatements ? client : unnamed(client)) as Queryable as Tx;
    commitHooks.set(q, hooks);
    try {
      await client.query('BEGIN');
      const result = await fn(q);
      // The transaction ends here for everything that asks (transactionOf), before COMMIT is sent.
      commitHooks.delete(q);
      await client.query('COMMIT');
      for (const hook of hooks) runHook(hook);
      return result;
    } catch (err) {
      commitHooks.delete(q);
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (isUnavailableError(err)) broken = true;
      throw mapError(err);
    } finally {
      commitHooks.delete(q);
      // A broken connection, or one that reached a read-only node, is destroyed, never pooled again.
      client.release(broken);
    }
  }

  /** Holds one connection of the session pool for a session-level advisory lock or similar. */
  async withClient<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.acquire(this.sessionPool);
    let broken = false;
    try {
      return await fn(client);
    } catch (err) {
      if (isUnavailableError(err)) broken = true;
      throw mapError(err);
    } finally {
      client.release(broken);
    }
  }

  /**
   * True when a writable primary answers. A hot standby or a demoted primary answers `SELECT 1`
   * too, so readiness asks whether the node is in recovery or read-only (contract §10). A
   * connection that found a read-only node is destroyed: behind a virtual address that has moved,
   * the next check must open a fresh connection (which reaches the new primary), not reuse it.
   */
  async ping(): Promise<boolean> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return false;
    }
    try {
      const r = await client.query<{ writable: boolean }>(
        "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
      );
      const writable = r.rows[0]?.writable === true;
      client.release(!writable);
      return writable;
    } catch (err) {
      client.release(err instanceof Error ? err : true);
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.sessionPool === this.pool ? undefined : this.sessionPool.end(), this.replica?.close()]);
  }
}

function newPool(opts: DbOptions, url: string, max: number, sendStatementTimeout: boolean): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    ...(sendStatementTimeout ? { statement_timeout: opts.statementTimeoutMs ?? 10_000 } : {}),
    query_timeout: (opts.statementTimeoutMs ?? 10_000) + 2_000,
    application_name: opts.applicationName ?? 'tijori',
    keepAlive: true,
  });
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool drops it and the next checkout reconnects.
  pool.on('error', () => {});
  // A checked-out client whose connection dies between two queries emits 'error' with no pool
  // listener attached (pg-pool removes its idle listener on checkout): without this the process
  // would crash. The next query on it fails, is mapped to DatabaseUnavailableError and the client is
  // discarded on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** A client whose prepared statements are sent unnamed (behind a transaction-mode pooler). */
function unnamed(client: pg.PoolClient): Queryable {
  return {
    query: <R extends pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]) =>
      client.query<R>(typeof text === 'string' ? text : text.text, values),
  };
}

/*
 * Statements that shape a transaction rather than read or write an aggregate: a savepoint around
 * one step, one read-only snapshot for a whole transaction. Both take a `Tx`: outside a transaction
 * they would mean nothing (or fail).
 */

/**
 * Runs `step` after a savepoint named `name`; if it throws, the transaction is rolled back to the
 * savepoint (what the step wrote is undone, the transaction goes on) and `onFailure` is told the
 * error. A failure of the savepoint statement itself is thrown.
 */
export async function inSavepoint(tx: Tx, name: string, step: () => Promise<void>, onFailure: (err: unknown) => Promise<void>): Promise<void> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad savepoint name ${name}`);
  await tx.query(`SAVEPOINT ${name}`);
  try {
    await step();
  } catch (err) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    await onFailure(err);
  }
}

/** The transaction reads one snapshot and writes nothing (its first statement). */
export async function readOneSnapshot(tx: Tx): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}
