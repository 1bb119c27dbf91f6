/**
 * Upkeep of the time-partitioned tables (migrations 0150-0154, docs/scaling.md "Partitions and
 * retention"): weekly partitions (Monday 00:00 UTC to the next) are created `aheadWeeks` ahead, and
 * a partition whose whole range is older than the retention is detached (DETACH PARTITION
 * CONCURRENTLY: no lock that stops inserts or reads of the other partitions) and dropped whole.
 * The legacy partition (everything before the cutover of migration 0150) has no lower bound and
 * ages out the same way, once its upper bound is older than the retention.
 *
 * Several instances may run it: a session advisory lock lets one at a time work; the others skip
 * the round. Runs on a session connection (Db.withClient: DATABASE_DIRECT_URL behind a pooler),
 * outside any transaction, as DETACH ... CONCURRENTLY requires. A detach interrupted half-way
 * (the partition left "detach pending") is finished with DETACH ... FINALIZE on the next round.
 */
import type { Db, Queryable } from './db.js';
import { withLongStatements } from './long-query.js';

const LOCK_KEY = 7_346_311_150; // arbitrary, constant: "tijori partition upkeep"
const DAY_MS = 86_400_000;

export interface PartitionRound {
  /** false when another instance held the lock (nothing done). */
  ran: boolean;
  created: Record<string, number>;
  dropped: Record<string, string[]>;
  /** Per table: how far ahead of `now` its last partition ends (ms); inserts after that would fail. */
  aheadMs: Record<string, number>;
  /** Per table: its partitions after the round. */
  partitions: Record<string, number>;
  /** provider_event_keys rows deleted (their events' partitions are gone). */
  keysDeleted: number;
}

export interface PartitionBounds {
  name: string;
  /** null: MINVALUE (the legacy partition). */
  from: Date | null;
  to: Date;
  detachPending: boolean;
}


export async function partitionsOf(q: Queryable, parent: string): Promise<PartitionBounds[]> {
  const r = await q.query<{ name: string; bound: string; detach_pending: boolean }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detach_pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [parent],
  );
  return r.rows
    .map((row) => {
      const m = /FROM \((?:MINVALUE|'([^']+)')\) TO \('([^']+)'\)/.exec(row.bound);
      if (!m?.[2]) throw new Error(`partition ${row.name} of ${parent}: unexpected bound ${row.bound}`);
      return { name: row.name, from: m[1] ? new Date(m[1]) : null, to: new Date(m[2]), detachPending: row.detach_pending };
    })
    .sort((a, b) => a.to.getTime() - b.to.getTime());
}

/** Creates the missing weekly partitions of `table` until `upto`, one per statement (one short transaction each). */
async function createAhead(q: Queryable, table: string, upto: Date): Promise<number> {
  let made = 0;
  for (;;) {
    const r = await q.query<{ n: number }>('SELECT tijori_create_partitions($1, $2, 1) AS n', [table, upto]);
    if ((r.rows[0]?.n ?? 0) === 0) return made;
    made++;
  }
}

export interface PartitionRoundOptions {
  now: Date;
  /**
   * Days kept: partitions wholly older are detached and dropped. null: the start's step, which
   * only creates the partitions ahead (no drop, no report, the pool's own time limits).
   */
  retentionDays: number | null;
  aheadWeeks?: number;
  /** false: skip the creation ahead (the start made them moments ago; see PartitionUpkeep). */
  create?: boolean;
}

/**
 * One round under the advisory lock: per table, the partitions `aheadWeeks` ahead of `now`, then
 * (with a retention) the drop of those wholly older and what is left. The service runs it at start
 * with `retentionDays: null` (so inserts have somewhere to go before any traffic), and the
 * partition worker runs it whole, hourly.
 */
export async function maintainPartitions(db: Db, opts: PartitionRoundOptions): Promise<PartitionRound> {
  const round: PartitionRound = { ran: false, created: {}, dropped: {}, aheadMs: {}, partitions: {}, keysDeleted: 0 };
  const upto = new Date(opts.now.getTime() + (opts.aheadWeeks ?? 4) * 7 * DAY_MS);
  const retentionDays = opts.retentionDays;
  await db.withClient(async (session) => {
    const got = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
    // Another instance is at it (its start or its worker): it makes them.
    if (got.rows[0]?.ok !== true) return;
    round.ran = true;
    try {
      if (retentionDays === null) {
        for (const table of await partitionedTables(session)) round.created[table] = await createAhead(session, table, upto);
        return;
      }
      await dropRound(withLongStatements(session, 3_600_000), { ...opts, retentionDays, upto, create: opts.create ?? true }, round);
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    }
  });
  return round;
}

/** For test set-ups and the start: the partitions ahead only (maintainPartitions without a retention). */
export async function ensurePartitionsAhead(db: Db, opts: { now: Date; aheadWeeks?: number }): Promise<void> {
  await maintainPartitions(db, { ...opts, retentionDays: null });
}

async function partitionedTables(q: Queryable): Promise<string[]> {
  return (await q.query<{ table_name: string }>('SELECT table_name FROM partitioned_tables ORDER BY table_name')).rows.map((r) => r.table_name);
}

/** The worker's round (holding the lock): partitions ahead, then the drop of those wholly older than the retention. */
async function dropRound(client: Queryable, opts: { now: Date; retentionDays: number; upto: Date; create: boolean }, round: PartitionRound): Promise<void> {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * DAY_MS);
  try {
    // A lock wait (a long transaction on a parent) fails the step instead of queueing every
    // later query of that table behind it; the next round tries again (weeks of slack ahead).
    await client.query("SET lock_timeout = '2s'");
    // DETACH ... CONCURRENTLY waits for the transactions that started before it; deleting keys
    // may take a while after a large drop: not the pool's 10 s statement timeout.
    await client.query('SET statement_timeout = 0');
    for (const table of await partitionedTables(client)) {
      round.created[table] = opts.create ? await createAhead(client, table, opts.upto) : 0;
      round.dropped[table] = [];
      const parts = await partitionsOf(client, table);
      // Never the last partition: there is always somewhere for new rows to go.
      for (const p of parts.slice(0, -1)) {
        if (p.to.getTime() > cutoff.getTime()) break;
        // First recorded, then detached: requeueEvent does not aim an insert at a dropped range.
        await client.query('UPDATE partitioned_tables SET kept_from = $2 WHERE table_name = $1 AND (kept_from IS NULL OR kept_from < $2)', [table, p.to]);
        await client.query(`ALTER TABLE ${ident(table)} DETACH PARTITION ${ident(p.name)} ${p.detachPending ? 'FINALIZE' : 'CONCURRENTLY'}`);
        await client.query(`DROP TABLE ${ident(p.name)}`);
        round.dropped[table].push(p.name);
      }
      const left = await partitionsOf(client, table);
      round.partitions[table] = left.length;
      round.aheadMs[table] = (left.at(-1)?.to.getTime() ?? opts.now.getTime()) - opts.now.getTime();
    }
    // The de-duplication keys of provider events whose partitions are all gone.
    const kept = await client.query<{ kept_from: Date | null }>("SELECT kept_from FROM partitioned_tables WHERE table_name = 'provider_events'");
    const keptFrom = kept.rows[0]?.kept_from ?? null;
    if (keptFrom !== null) {
      for (;;) {
        const del = await client.query(
          `DELETE FROM provider_event_keys WHERE (provider, event_id) IN (
             SELECT provider, event_id FROM provider_event_keys WHERE received_at < $1 LIMIT 10000)`,
          [keptFrom],
        );
        round.keysDeleted += del.rowCount ?? 0;
        if ((del.rowCount ?? 0) < 10000) break;
      }
    }
  } finally {
    await client.query('RESET lock_timeout').catch(() => undefined);
    await client.query('RESET statement_timeout').catch(() => undefined);
  }
}

function ident(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected table name ${name}`);
  return `"${name}"`;
}
