/**
 * The console's Overview (issue #19 item 3): today's and this month's collections and payouts of
 * an organization (count, succeeded amount, success rate) and the month's daily series.
 *
 * Days are calendar days of one IANA time zone: the viewer's (the app sends it), Asia/Kolkata when
 * none is given. "Today" is that zone's date now, or a given date (to look at an earlier month).
 * Success rate = succeeded / (succeeded + failed): rows still open (an order awaiting its payer,
 * a payout processing) are left out until they finish; null when none has finished.
 */
import { validationError } from '../../domain/errors.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/console-overview-repo.js';

export const DEFAULT_ZONE = 'Asia/Kolkata';

/** A paid order stays a collection when it is refunded later: the refund is its own record. */
export const COLLECTION_CLASSES: repo.StatusClasses = { succeeded: ['PAID', 'MANUALLY_CONFIRMED', 'REFUNDED'], failed: ['FAILED', 'EXPIRED', 'CANCELLED'] };
/** A reversed payout's money came back: a failure. A rejected one never went to the bank (counted, neither). */
export const PAYOUT_CLASSES: repo.StatusClasses = { succeeded: ['SUCCESS'], failed: ['FAILED', 'REVERSED'], closed: ['REJECTED'] };

export interface Totals {
  count: number;
  succeeded: number;
  failed: number;
  amount_paise: number;
  /** succeeded / (succeeded + failed), 0..1 with 4 decimals; null when nothing has finished. */
  success_rate: number | null;
  failed_amount_paise: number;
  pending_amount_paise: number;
  /** Collections only: refunds completed in the period, and amount_paise less them (issue #32 item 6). */
  refunded_paise?: number;
  net_paise?: number;
}

export interface Flow {
  today: Totals;
  month: Totals;
  /** Every day of the month up to and including today, zero-filled. */
  daily: Array<{ date: string } & Omit<Totals, 'success_rate' | 'refunded_paise' | 'net_paise'>>;
}

export interface Overview {
  time_zone: string;
  today: string;
  month: string;
  collections: Flow;
  payouts: Flow;
}

/** IANA names only ("Asia/Kolkata", "UTC", "Etc/GMT-5"): PostgreSQL also takes POSIX strings such as "UTC+5", whose sign is the reverse of ISO's. */
const ZONE_RE = /^(UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

export function checkZone(zone: string): string {
  let ok = ZONE_RE.test(zone);
  if (ok) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      ok = false;
    }
  }
  if (!ok) throw validationError([{ field: 'tz', issue: 'must be an IANA time zone name such as Asia/Kolkata' }]);
  return zone;
}

function checkDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date || d.getUTCFullYear() < 2000) {
    throw validationError([{ field: 'date', issue: 'must be a calendar date YYYY-MM-DD from 2000 on' }]);
  }
  return date;
}

function totals(days: repo.DayAggregate[], refunds?: Map<string, number>, inPeriod?: (day: string) => boolean): Totals {
  const t = days.reduce(
    (a, d) => ({
      count: a.count + d.count,
      succeeded: a.succeeded + d.succeeded,
      failed: a.failed + d.failed,
      amount_paise: a.amount_paise + d.amount_paise,
      failed_amount_paise: a.failed_amount_paise + d.failed_amount_paise,
      pending_amount_paise: a.pending_amount_paise + d.pending_amount_paise,
    }),
    { count: 0, succeeded: 0, failed: 0, amount_paise: 0, failed_amount_paise: 0, pending_amount_paise: 0 },
  );
  const finished = t.succeeded + t.failed;
  const out: Totals = { ...t, success_rate: finished === 0 ? null : Math.round((t.succeeded / finished) * 10_000) / 10_000 };
  if (refunds && inPeriod) {
    const refunded = [...refunds].filter(([day]) => inPeriod(day)).reduce((s, [, v]) => s + v, 0);
    out.refunded_paise = refunded;
    out.net_paise = t.amount_paise - refunded;
  }
  return out;
}

function flow(rows: repo.DayAggregate[], today: string, refunds?: Map<string, number>): Flow {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const daily: Flow['daily'] = [];
  const lastDay = Number(today.slice(8, 10));
  for (let d = 1; d <= lastDay; d++) {
    const date = `${today.slice(0, 8)}${String(d).padStart(2, '0')}`;
    const r = byDay.get(date);
    daily.push({
      date,
      count: r?.count ?? 0,
      succeeded: r?.succeeded ?? 0,
      failed: r?.failed ?? 0,
      amount_paise: r?.amount_paise ?? 0,
      failed_amount_paise: r?.failed_amount_paise ?? 0,
      pending_amount_paise: r?.pending_amount_paise ?? 0,
    });
  }
  // Rows dated after `today` (a past date was asked for) are not part of "this month so far".
  const upToToday = rows.filter((r) => r.day <= today);
  return {
    today: totals(rows.filter((r) => r.day === today), refunds, (d) => d === today),
    month: totals(upToToday, refunds, (d) => d <= today),
    daily,
  };
}

/** A zone Node knows but this PostgreSQL's zone data does not (22023): the caller's input, not a fault. */
export async function unknownZoneIsInvalid<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as { code?: unknown }).code === '22023') throw validationError([{ field: 'tz', issue: 'is not a time zone this database knows' }]);
    throw err;
  }
}

export class ConsoleOverview {
  constructor(private readonly db: Db) {}

  async overview(orgId: string, opts: { zone?: string | undefined; date?: string | undefined } = {}): Promise<Overview> {
    const zone = checkZone(opts.zone ?? DEFAULT_ZONE);
    const date = opts.date !== undefined ? checkDate(opts.date) : undefined;
    // Read from the standby while its lag allows (DATABASE_REPLICA_URL, docs/scaling.md).
    const [today, orders, payouts, refunds] = await unknownZoneIsInvalid(() =>
      this.db.replicaReads.read(async (q) => {
        const day = date ?? (await repo.todayIn(q, zone));
        return [
          day,
          ...(await Promise.all([
            repo.monthByDay(q, 'payment_orders', orgId, day, zone, COLLECTION_CLASSES),
            repo.monthByDay(q, 'payouts', orgId, day, zone, PAYOUT_CLASSES),
            repo.refundsByDay(q, orgId, day, zone),
          ])),
        ] as const;
      }),
    );
    return { time_zone: zone, today, month: today.slice(0, 7), collections: flow(orders, today, refunds), payouts: flow(payouts, today) };
  }
}
