/**
 * The console's Overview (issue #19 item 3): an organization's collections and payouts of one
 * month, per day of a given time zone, aggregated in SQL. The month's bounds are instants computed
 * by PostgreSQL from the zone (`timestamp AT TIME ZONE zone`), so a range scan of the
 * (org_id, created_at DESC, id DESC) indexes of migration 0017 serves each statement.
 */
import type { Queryable } from '../db.js';

export interface DayAggregate {
  /** The calendar day in the zone, YYYY-MM-DD. */
  day: string;
  count: number;
  succeeded: number;
  failed: number;
  /** Sum of the succeeded ones' amounts, in paise. */
  amount_paise: number;
  /** Sum of the failed ones' amounts (issue #32 item 6). */
  failed_amount_paise: number;
  /** Sum of those still open (neither succeeded, failed nor closed without money: a payout rejected by its checker). */
  pending_amount_paise: number;
}

interface RawDay {
  day: string;
  count: string;
  succeeded: string;
  failed: string;
  amount_paise: string;
  failed_amount_paise: string;
  pending_amount_paise: string;
}

/** Which statuses count as succeeded and as failed (finished without money moving); the rest are still open. */
export interface StatusClasses {
  succeeded: readonly string[];
  failed: readonly string[];
  /** Finished with no money moved and not a failure (a rejected payout): neither failed nor pending. */
  closed?: readonly string[];
}

/**
 * Rows of `table` created in the month holding `day` (a date in `zone`), grouped by their day in
 * `zone`. `month_start` and `month_end` are the instants that month begins and ends there.
 */
function monthSql(table: 'payment_orders' | 'payouts'): string {
  return `SELECT to_char((created_at AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS day,
                 count(*) AS count,
                 count(*) FILTER (WHERE status = ANY ($4::text[])) AS succeeded,
                 count(*) FILTER (WHERE status = ANY ($5::text[])) AS failed,
                 coalesce(sum(amount_paise) FILTER (WHERE status = ANY ($4::text[])), 0) AS amount_paise,
                 coalesce(sum(amount_paise) FILTER (WHERE status = ANY ($5::text[])), 0) AS failed_amount_paise,
                 coalesce(sum(amount_paise) FILTER (WHERE NOT (status = ANY ($4::text[]) OR status = ANY ($5::text[]) OR status = ANY ($6::text[]))), 0) AS pending_amount_paise
            FROM ${table}
           WHERE org_id = $1
             AND created_at >= (date_trunc('month', $2::date::timestamp) AT TIME ZONE $3)
             AND created_at <  ((date_trunc('month', $2::date::timestamp) + interval '1 month') AT TIME ZONE $3)
           GROUP BY 1 ORDER BY 1`;
}

export async function monthByDay(q: Queryable, table: 'payment_orders' | 'payouts', orgId: string, day: string, zone: string, classes: StatusClasses): Promise<DayAggregate[]> {
  const r = await q.query<RawDay>(monthSql(table), [orgId, day, zone, classes.succeeded, classes.failed, classes.closed ?? []]);
  return r.rows.map((d) => ({
    day: d.day,
    count: Number(d.count),
    succeeded: Number(d.succeeded),
    failed: Number(d.failed),
    amount_paise: Number(d.amount_paise),
    failed_amount_paise: Number(d.failed_amount_paise),
    pending_amount_paise: Number(d.pending_amount_paise),
  }));
}

/**
 * Refunds completed in the month holding `day`, per day of their completion in `zone` (paise): what
 * the Overview takes off collections for the net figure (issue #32 item 6).
 */
export async function refundsByDay(q: Queryable, orgId: string, day: string, zone: string): Promise<Map<string, number>> {
  const r = await q.query<{ day: string; amount_paise: string }>(
    `SELECT to_char((completed_at AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS day, sum(amount_paise) AS amount_paise
       FROM refunds
      WHERE org_id = $1 AND status = 'COMPLETED'
        AND completed_at >= (date_trunc('month', $2::date::timestamp) AT TIME ZONE $3)
        AND completed_at <  ((date_trunc('month', $2::date::timestamp) + interval '1 month') AT TIME ZONE $3)
      GROUP BY 1`,
    [orgId, day, zone],
  );
  return new Map(r.rows.map((x) => [x.day, Number(x.amount_paise)]));
}

/** Today's date in `zone` as PostgreSQL's clock and zone data say (the same data the month query uses). */
export async function todayIn(q: Queryable, zone: string): Promise<string> {
  const r = await q.query<{ day: string }>(`SELECT to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS day`, [zone]);
  return (r.rows[0] as { day: string }).day;
}

/** The statement the Overview runs, for EXPLAIN in tests. */
export const OVERVIEW_SQL_FOR_TESTS = monthSql;
