/**
 * Reads that may come from a streaming standby (DATABASE_REPLICA_URL, contract §10): list
 * endpoints read there while its replay lag is at most REPLICA_MAX_LAG_MS, and from the primary
 * otherwise, or when the standby cannot be reached. The lag is measured at most once a second per
 * instance (one cheap query on the standby), not per request. Anything that decides money,
 * idempotency, sign-in or the authoritative GET of one order or payout never comes here.
 */
import type pg from 'pg';

/**
 * What is read through: db.ts's Queryable, named here by what this file uses of it, so that the
 * store's pool (db.ts, which builds a ReplicaReads) and this file import nothing of each other.
 */
interface LagQueryable {
  query<R extends pg.QueryResultRow>(text: string): Promise<pg.QueryResult<R>>;
}

/** How long one lag measurement is trusted. */
const CHECK_EVERY_MS = 1_000;

/**
 * Lag as the time since the last replayed commit, but 0 while everything received is replayed
 * (an idle primary is no lag). NULL timestamps (nothing replayed yet) count as far behind.
 */
const LAG_SQL = `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
                             ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 1e12) END::float8 AS lag_ms`;

export class ReplicaReads<Q extends LagQueryable> {
  private checkedAt = 0;
  private usable = false;
  private checking: Promise<boolean> | undefined;

  constructor(
    private readonly primary: Q,
    private readonly replica: Q | undefined,
    private readonly maxLagMs: number,
    /** Which errors mean "the standby is not reachable" (db.ts's isUnavailableError); others are the query's own. */
    private readonly isUnavailable: (err: unknown) => boolean,
  ) {}

  /** Runs a read on the standby when it is usable, else (or when it fails there) on the primary. */
  async read<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    if (!this.replica || !(await this.replicaUsable())) return fn(this.primary);
    try {
      return await fn(this.replica);
    } catch (err) {
      if (!this.isUnavailable(err)) throw err;
      // The standby went away (or was promoted and broke the connection): the primary answers.
      this.usable = false;
      this.checkedAt = Date.now();
      return fn(this.primary);
    }
  }

  private replicaUsable(): Promise<boolean> {
    if (Date.now() - this.checkedAt < CHECK_EVERY_MS) return Promise.resolve(this.usable);
    this.checking ??= this.measure().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async measure(): Promise<boolean> {
    try {
      const r = await this.replica!.query<{ lag_ms: number }>(LAG_SQL);
      this.usable = (r.rows[0]?.lag_ms ?? Infinity) <= this.maxLagMs;
    } catch {
      this.usable = false;
    }
    this.checkedAt = Date.now();
    return this.usable;
  }
}
