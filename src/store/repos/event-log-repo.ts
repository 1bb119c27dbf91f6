/**
 * SQL for the event log (contract §7): an organization's events with their delivery state, replay
 * of failed deliveries in a time range, a destination's delivery log, subscriptions, and the
 * disabling and re-enabling of failing destinations.
 */
import { FAILED_DELIVERY_STATUSES, WAITING_DELIVERY_STATUSES } from '../../callbacks/outcome.js';
import type { Queryable } from '../db.js';
import { DELIVERIES_CHANNEL, type DeliveryTarget, type DestinationKind, requeueSet } from './callbacks-repo.js';

/**
 * An event's delivery state, from its deliveries: `failed` if one stopped without success
 * (exhausted or gone), else `pending` if one still waits (pending or parked), else `delivered` if
 * one was delivered, else `none` (no destination applied).
 */
export type DeliveryState = 'failed' | 'pending' | 'delivered' | 'none';

// $8: FAILED_DELIVERY_STATUSES, $9: WAITING_DELIVERY_STATUSES (the list query's last parameters).
const STATE_SQL = `CASE
    WHEN EXISTS (SELECT 1 FROM callback_deliveries d WHERE d.event_id = e.id AND d.status = ANY($8::text[])) THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM callback_deliveries d WHERE d.event_id = e.id AND d.status = ANY($9::text[])) THEN 'pending'
    WHEN EXISTS (SELECT 1 FROM callback_deliveries d WHERE d.event_id = e.id AND d.status = 'delivered') THEN 'delivered'
    ELSE 'none' END`;

export interface EventListRow {
  id: string;
  kind: string;
  aggregate_type: string;
  aggregate_id: string;
  created_at: Date;
  delivery_state: DeliveryState;
  deliveries: number;
  /** The order's order_id, the payout's transaction_id or the settlement's UTR (issue #32 item 6: the Events page names them). */
  reference: string | null;
}

export interface EventListFilter {
  orgId: string;
  kind?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  state?: Exclude<DeliveryState, 'none'> | undefined;
  /** Keyset: only events with an id below this one (ids are time-ordered). */
  beforeId?: string | undefined;
  limit: number;
}

/** Newest first. The delivery state is computed per row; filtering by it walks the org's index. */
export async function listEvents(q: Queryable, f: EventListFilter): Promise<EventListRow[]> {
  const r = await q.query<EventListRow>(
    `SELECT * FROM (
       SELECT e.id, e.kind, e.aggregate_type, e.aggregate_id, e.created_at, ${STATE_SQL} AS delivery_state,
              (SELECT count(*)::int FROM callback_deliveries d WHERE d.event_id = e.id) AS deliveries,
              CASE e.aggregate_type
                WHEN 'payment_order' THEN (SELECT o.order_id FROM payment_orders o WHERE o.id = e.aggregate_id AND o.org_id = e.org_id)
                WHEN 'payout' THEN (SELECT p.transaction_id FROM payouts p WHERE p.id = e.aggregate_id AND p.org_id = e.org_id)
                WHEN 'settlement' THEN (SELECT COALESCE(s.utr, s.provider_settlement_id) FROM settlements s WHERE s.id = e.aggregate_id AND s.org_id = e.org_id)
              END AS reference
         FROM events e
        WHERE e.org_id = $1
          AND ($2::text IS NULL OR e.kind = $2)
          AND ($3::timestamptz IS NULL OR e.created_at >= $3)
          AND ($4::timestamptz IS NULL OR e.created_at < $4)
          AND ($5::uuid IS NULL OR e.id < $5)
        ORDER BY e.id DESC
     ) x
     WHERE $6::text IS NULL OR x.delivery_state = $6
     ORDER BY x.id DESC
     LIMIT $7`,
    [f.orgId, f.kind ?? null, f.from ?? null, f.to ?? null, f.beforeId ?? null, f.state ?? null, f.limit, FAILED_DELIVERY_STATUSES, WAITING_DELIVERY_STATUSES],
  );
  return r.rows;
}

/**
 * Re-queues every failed (exhausted or gone) delivery of the organization's events created in
 * [from, to), with a fresh schedule; one to a disabled destination is parked instead.
 */
export async function requeueFailed(q: Queryable, f: { orgId: string; from: Date; to: Date }): Promise<{ deliveries: number; events: number }> {
  const r = await q.query<{ deliveries: number; events: number }>(
    `WITH reset AS (
       UPDATE callback_deliveries d
          SET ${requeueSet('d')}
         FROM events e
        WHERE e.id = d.event_id AND d.org_id = $1 AND d.status = ANY($4::text[])
          AND e.org_id = $1 AND e.created_at >= $2 AND e.created_at < $3
       RETURNING d.event_id
     )
     SELECT (SELECT count(*) FROM reset)::int AS deliveries, (SELECT count(DISTINCT event_id) FROM reset)::int AS events,
            pg_notify('${DELIVERIES_CHANNEL}', '') AS notified`,
    [f.orgId, f.from, f.to, FAILED_DELIVERY_STATUSES],
  );
  return { deliveries: r.rows[0]?.deliveries ?? 0, events: r.rows[0]?.events ?? 0 };
}

export interface DestinationLogRow {
  delivery_id: string;
  event_id: string;
  kind: string;
  status: string;
  created_at: Date;
  attempt_log: Array<{ attempt_no: number; status_code: number | null; latency_ms: number; error: string | null; response_snippet: string | null; attempted_at: string }>;
}

/** The deliveries to one of the organization's destinations, newest first, each with its attempts. */
export async function destinationLog(q: Queryable, f: { orgId: string; kind: DestinationKind; beforeId?: string | undefined; limit: number }): Promise<DestinationLogRow[]> {
  const r = await q.query<DestinationLogRow>(
    `SELECT d.id AS delivery_id, d.event_id, e.kind, d.status, d.created_at,
            (SELECT coalesce(json_agg(json_build_object('attempt_no', a.attempt_no, 'status_code', a.status_code, 'latency_ms', a.latency_ms,
                     'error', a.error, 'response_snippet', a.response_snippet, 'attempted_at', a.attempted_at) ORDER BY a.id), '[]')
               FROM callback_delivery_attempts a WHERE a.delivery_id = d.id) AS attempt_log
       FROM callback_deliveries d JOIN events e ON e.id = d.event_id
      WHERE d.org_id = $1 AND d.target = $2 AND ($3::uuid IS NULL OR d.id < $3)
      ORDER BY d.id DESC
      LIMIT $4`,
    [f.orgId, f.kind, f.beforeId ?? null, f.limit],
  );
  return r.rows;
}

/** The event types a destination subscribes to; null when it does not exist. Returns before and after. */
export async function setDestinationEvents(q: Queryable, d: { orgId: string; kind: DestinationKind; events: string[] }): Promise<{ before: string[]; after: string[] } | null> {
  const r = await q.query<{ before: string[]; after: string[] }>(
    `UPDATE callback_destinations c SET events = $3, updated_at = now()
       FROM (SELECT events FROM callback_destinations WHERE org_id = $1 AND kind = $2 FOR UPDATE) old
      WHERE c.org_id = $1 AND c.kind = $2
      RETURNING old.events AS before, c.events AS after`,
    [d.orgId, d.kind, d.events],
  );
  return r.rows[0] ?? null;
}

/**
 * Disables every enabled destination failing since `cutoff` or earlier and parks its waiting
 * deliveries (a claimed one loses its claim, so an attempt in flight does not re-queue it).
 */
export async function disableFailingDestinations(q: Queryable, f: { cutoff: Date; now: Date }): Promise<Array<{ org_id: string; kind: DestinationKind; url: string; failing_since: Date; parked: number }>> {
  const r = await q.query<{ org_id: string; kind: DestinationKind; url: string; failing_since: Date; parked: number }>(
    `WITH off AS (
       UPDATE callback_destinations SET status = 'disabled', disabled_at = $2, updated_at = now()
        WHERE status = 'enabled' AND failing_since <= $1
       RETURNING org_id, kind, url, failing_since
     ), parked AS (
       UPDATE callback_deliveries d SET status = 'parked', claim_token = NULL, updated_at = now()
         FROM off WHERE d.org_id = off.org_id AND d.target = off.kind AND d.status = 'pending'
       RETURNING d.org_id, d.target
     )
     SELECT off.org_id, off.kind, off.url, off.failing_since,
            (SELECT count(*) FROM parked p WHERE p.org_id = off.org_id AND p.target = off.kind)::int AS parked
       FROM off`,
    [f.cutoff, f.now],
  );
  return r.rows;
}

/**
 * Re-enables a destination and makes its parked deliveries due now with a fresh schedule. null when
 * the destination does not exist; `was` its status before.
 */
export async function enableDestination(q: Queryable, d: { orgId: string; kind: DestinationKind }): Promise<{ was: string; resumed: number } | null> {
  const r = await q.query<{ was: string; resumed: number }>(
    `WITH old AS (
       SELECT status FROM callback_destinations WHERE org_id = $1 AND kind = $2 FOR UPDATE
     ), on_ AS (
       UPDATE callback_destinations SET status = 'enabled', disabled_at = NULL, failing_since = NULL, updated_at = now()
        WHERE org_id = $1 AND kind = $2 AND EXISTS (SELECT 1 FROM old)
       RETURNING 1
     ), resumed AS (
       UPDATE callback_deliveries d SET ${requeueSet('d', 'pending')}
        WHERE org_id = $1 AND target = $2 AND status = 'parked' AND EXISTS (SELECT 1 FROM on_)
       RETURNING 1
     )
     SELECT old.status AS was, (SELECT count(*) FROM resumed)::int AS resumed, pg_notify('${DELIVERIES_CHANNEL}', '') AS notified FROM old`,
    [d.orgId, d.kind],
  );
  return r.rows[0] ?? null;
}

/** Records a test event and its one delivery to the destination (pending even when disabled: it is a check). */
export async function insertTestEvent(q: Queryable, e: { id: string; orgId: string; kind: DestinationKind; body: string; createdAt: Date }): Promise<boolean> {
  const r = await q.query<{ n: number }>(
    `WITH dest AS (
       SELECT org_id, kind FROM callback_destinations WHERE org_id = $2 AND kind = $3
     ), ev AS (
       INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body, created_at)
       SELECT $1, $2, 'test', 'destination', $2, $4, $5 FROM dest
       RETURNING id
     ), del AS (
       INSERT INTO callback_deliveries (id, event_id, org_id, target, next_attempt_at, created_at)
       SELECT uuid_v7(), ev.id, $2, $3, now(), $5 FROM ev
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM del)::int AS n, pg_notify('${DELIVERIES_CHANNEL}', '') AS notified`,
    [e.id, e.orgId, e.kind, e.body, e.createdAt],
  );
  return (r.rows[0]?.n ?? 0) > 0;
}

export type { DeliveryTarget };
