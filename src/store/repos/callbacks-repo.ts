/** SQL for the event outbox, deliveries and delivery attempts (the destinations: callback-destinations-repo.ts). */
import { batched } from '../batched.js';
import type { DeliveryStatus } from '../../callbacks/outcome.js';
import type { SigningScheme } from '../../callbacks/signature.js';
import { coalesced } from '../shared-transactions.js';
import { prepared, type Queryable } from '../db.js';

/** The channel on which committed deliveries wake the delivery workers of every instance. */
export const DELIVERIES_CHANNEL = 'tijori_callback_deliveries';

export type DestinationKind = 'payin' | 'payout';
export type DeliveryTarget = DestinationKind | 'order';
export type { DeliveryStatus } from '../../callbacks/outcome.js';

export interface OutboxInsert {
  id: string;
  orgId: string;
  kind: string;
  aggregateType: string;
  aggregateId: string;
  body: string;
  createdAt: Date;
  /** The organization destination this event goes to. */
  target: DestinationKind;
  /** A payment order's own callback destination, when it has one. */
  extra: { url: string; secretEnc: Buffer; secretContext: string } | undefined;
}


/**
 * One statement for any number of events: the event rows, for each a delivery to the organization's
 * destination of its `target` (when one is configured) and one to its extra destination, and, if
 * `notifyOtherInstances` (costly: see delivery-signal.ts), one notification that PostgreSQL sends
 * only when the surrounding transaction commits.
 * Returns the number of deliveries created for each event, in the order given.
 */
export async function insertEventsWithDeliveries(q: Queryable, events: OutboxInsert[], notifyOtherInstances: boolean): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = events.map((e) => ({
    id: e.id,
    org_id: e.orgId,
    kind: e.kind,
    aggregate_type: e.aggregateType,
    aggregate_id: e.aggregateId,
    body: e.body,
    created_at: e.createdAt.toISOString(),
    target: e.target,
    extra_url: e.extra?.url ?? null,
    // bytea travels as base64 inside the JSON text
    extra_secret_enc: e.extra ? e.extra.secretEnc.toString('base64') : null,
    extra_secret_context: e.extra?.secretContext ?? null,
  }));
  const r = await q.query<{ id: string; deliveries: number }>(INSERT_EVENTS_WITH_DELIVERIES, [JSON.stringify(rows), notifyOtherInstances]);
  const counts = new Map(r.rows.map((row) => [row.id, row.deliveries]));
  return events.map((e) => counts.get(e.id) ?? 0);
}

/**
 * insertEventsWithDeliveries for one event; the events of a shared transaction take one statement
 * (`notifyOtherInstances` is the process's, the same for all of them).
 */
export const insertEventWithDeliveries = coalesced<{ event: OutboxInsert; notifyOtherInstances: boolean }, number>((q, items) =>
  insertEventsWithDeliveries(q, items.map((i) => i.event), items.some((i) => i.notifyOtherInstances)),
);

/** On the path of every event: prepared (parsed and planned once per connection). */
const INSERT_EVENTS_WITH_DELIVERIES = prepared(
    `WITH v AS MATERIALIZED (
       SELECT * FROM json_to_recordset($1::json) AS v(id uuid, org_id uuid, kind text, aggregate_type text, aggregate_id uuid,
         body text, created_at timestamptz, target text, extra_url text, extra_secret_enc text, extra_secret_context text)
     ), ev AS (
       INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body, created_at)
       SELECT id, org_id, kind, aggregate_type, aggregate_id, body, created_at FROM v
     ), org_dest AS (
       INSERT INTO callback_deliveries (id, event_id, org_id, target, status, next_attempt_at, created_at)
       SELECT uuid_v7(), v.id, c.org_id, c.kind, CASE WHEN c.status = 'disabled' THEN 'parked' ELSE 'pending' END, now(), v.created_at
         FROM v JOIN callback_destinations c ON c.org_id = v.org_id AND c.kind = v.target AND v.kind = ANY (c.events)
       RETURNING event_id
     ), extra_dest AS (
       INSERT INTO callback_deliveries (id, event_id, org_id, target, url, secret_enc, secret_context, next_attempt_at, created_at)
       SELECT uuid_v7(), v.id, v.org_id, 'order', v.extra_url, decode(v.extra_secret_enc, 'base64'), v.extra_secret_context, now(), v.created_at
         FROM v WHERE v.extra_url IS NOT NULL
       RETURNING event_id
     ), created AS (
       SELECT event_id, count(*)::int AS n FROM (SELECT event_id FROM org_dest UNION ALL SELECT event_id FROM extra_dest) x GROUP BY event_id
     ), notified AS (
       SELECT pg_notify('${DELIVERIES_CHANNEL}', '') FROM (SELECT 1 FROM created LIMIT 1) any_created WHERE $2::boolean
     )
     SELECT created.event_id AS id, created.n AS deliveries, (SELECT count(*) FROM notified) AS notified FROM created`,
);

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  org_id: string;
  target: DeliveryTarget;
  attempts: number;
  schedule_step: number;
  claim_token: string;
  /** null only if the organization's destination has disappeared. */
  url: string | null;
  secret_enc: Buffer | null;
  /** null for organization destinations (the service derives their context). */
  secret_context: string | null;
  /** The organization destination's scheme; null for a payment order's own callback_url (tijori-v1). */
  scheme: SigningScheme | null;
  body: string;
}

/**
 * Claims up to `limit` due deliveries for this worker: a single-table `FOR UPDATE SKIP LOCKED`, so
 * concurrent workers never claim the same row. The claim moves next_attempt_at `leaseSeconds`
 * ahead: if this worker dies, the delivery becomes due again then and another worker takes it.
 */
export async function claimDueDeliveries(q: Queryable, c: { limit: number; leaseSeconds: number; claimToken: string }): Promise<ClaimedDelivery[]> {
  const r = await q.query<ClaimedDelivery>(
    prepared(`WITH due AS (
       SELECT id, created_at FROM callback_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE callback_deliveries d
        SET claim_token = $3, next_attempt_at = now() + make_interval(secs => $2), updated_at = now()
       FROM due
      WHERE d.id = due.id AND d.created_at = due.created_at
     RETURNING d.id, d.event_id, d.org_id, d.target, d.attempts, d.schedule_step, d.claim_token, d.secret_context,
       COALESCE(d.url, (SELECT c.url FROM callback_destinations c WHERE c.org_id = d.org_id AND c.kind = d.target)) AS url,
       COALESCE(d.secret_enc, (SELECT CASE WHEN c.next_secret_active_from <= now() THEN c.next_secret_enc ELSE c.secret_enc END
                                 FROM callback_destinations c WHERE c.org_id = d.org_id AND c.kind = d.target)) AS secret_enc,
       CASE WHEN d.secret_enc IS NULL THEN (SELECT c.scheme FROM callback_destinations c WHERE c.org_id = d.org_id AND c.kind = d.target) END AS scheme,
       (SELECT e.body FROM events e WHERE e.id = d.event_id) AS body`),
    [c.limit, c.leaseSeconds, c.claimToken],
  );
  return r.rows;
}

export interface AttemptRecord {
  deliveryId: string;
  claimToken: string;
  attemptNo: number;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string | null;
  next: { status: DeliveryStatus; delayMs: number | null };
}

/**
 * Records attempts and, where the worker still holds the claim, each delivery's new state: one
 * statement for the whole batch, so one round trip and one commit. An attempt row is written even
 * when the claim was lost (the request did go out), but then the delivery is left to the worker that
 * holds it now.
 */
export async function recordAttempts(q: Queryable, batch: AttemptRecord[]): Promise<void> {
  const col = <K extends keyof AttemptRecord>(k: K) => batch.map((a) => a[k]);
  await q.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::bigint[])
         AS t (delivery_id, claim_token, attempt_no, url, status_code, latency_ms, error, response_snippet, next_status, delay_ms)
     ), attempt AS (
       INSERT INTO callback_delivery_attempts (delivery_id, attempt_no, url, status_code, latency_ms, error, response_snippet)
       SELECT delivery_id, attempt_no, url, status_code, latency_ms, error, response_snippet FROM r
     ), health AS (
       -- A destination's failing_since (the disabling rule of destinations.ts): set by its first
       -- failed attempt, cleared by a delivered one. Written only when it changes, so the row of a
       -- busy healthy destination is not updated by every batch.
       UPDATE callback_destinations c
          SET failing_since = CASE WHEN h.ok THEN NULL ELSE now() END
         FROM (SELECT d.org_id, d.target, bool_or(r.next_status = 'delivered') AS ok
                 FROM r JOIN callback_deliveries d ON d.id = r.delivery_id
                WHERE d.target <> 'order' GROUP BY d.org_id, d.target) h
        WHERE c.org_id = h.org_id AND c.kind = h.target
          AND ((h.ok AND c.failing_since IS NOT NULL) OR (NOT h.ok AND c.failing_since IS NULL))
     )
     UPDATE callback_deliveries d
        SET status = r.next_status, attempts = d.attempts + 1, schedule_step = d.schedule_step + 1, claim_token = NULL,
            next_attempt_at = CASE WHEN r.delay_ms IS NULL THEN d.next_attempt_at ELSE now() + make_interval(secs => r.delay_ms / 1000.0) END,
            last_status_code = r.status_code, last_error = r.error,
            delivered_at = CASE WHEN r.next_status = 'delivered' THEN now() ELSE d.delivered_at END,
            updated_at = now()
       FROM r
      WHERE d.id = r.delivery_id AND d.claim_token = r.claim_token`,
    [
      col('deliveryId'),
      col('claimToken'),
      col('attemptNo'),
      col('url'),
      col('statusCode'),
      col('latencyMs'),
      col('error'),
      col('responseSnippet'),
      batch.map((a) => a.next.status),
      batch.map((a) => a.next.delayMs),
    ],
  );
}

export async function findEvent(q: Queryable, eventId: string): Promise<{ id: string; org_id: string; kind: string; body: string } | null> {
  const r = await q.query<{ id: string; org_id: string; kind: string; body: string }>('SELECT id, org_id, kind, body FROM events WHERE id = $1', [eventId]);
  return r.rows[0] ?? null;
}

/**
 * The one way a delivery is queued again (a replay, a bulk re-queue, a destination enabled again):
 * due now with a fresh schedule and no claim; parked instead while its destination is disabled,
 * unless `status` is given (the statement that enables the destination sees it still disabled).
 * `d` is the alias of callback_deliveries in the UPDATE.
 */
export function requeueSet(d: string, status?: 'pending'): string {
  const to =
    status === undefined
      ? `CASE WHEN ${d}.target <> 'order' AND EXISTS (
           SELECT 1 FROM callback_destinations c WHERE c.org_id = ${d}.org_id AND c.kind = ${d}.target AND c.status = 'disabled'
         ) THEN 'parked' ELSE 'pending' END`
      : `'${status}'`;
  return `status = ${to}, schedule_step = 0, next_attempt_at = now(), claim_token = NULL, updated_at = now()`;
}

/**
 * Makes the event's deliveries (all, or the one to `only`) due now with a fresh schedule, and adds
 * a delivery for the organization's destination of `target` if the event has none yet (a
 * destination configured or subscribed after the event). A delivery to a disabled destination is
 * parked instead. A delivery in flight (claimed by a worker) is not touched. The body is the event's,
 * untouched. Returns how many deliveries are now queued (the one in flight is not counted).
 */
export async function requeueEvent(q: Queryable, e: { eventId: string; orgId: string; kind: string; target: DestinationKind | null; only?: DeliveryTarget | undefined }): Promise<number> {
  const r = await q.query<{ requeued: number }>(
    `WITH added AS (
       -- A delivery's created_at is its event's (the partition key: docs/scaling.md "Partitions and
       -- retention"), so (event_id, target, created_at) is unique per (event_id, target). A delivery
       -- written before partitioning may carry another created_at: NOT EXISTS finds it. An event
       -- older than the oldest kept partition gets no new delivery (its time has no partition).
       INSERT INTO callback_deliveries (id, event_id, org_id, target, status, next_attempt_at, created_at)
       SELECT uuid_v7(), $1, c.org_id, c.kind, CASE WHEN c.status = 'disabled' THEN 'parked' ELSE 'pending' END, now(), e.created_at
         FROM callback_destinations c JOIN events e ON e.id = $1
        WHERE c.org_id = $2 AND c.kind = $3 AND $4 = ANY (c.events) AND ($5::text IS NULL OR $5 = c.kind)
          AND NOT EXISTS (SELECT 1 FROM callback_deliveries x WHERE x.event_id = $1 AND x.target = c.kind)
          AND e.created_at >= COALESCE((SELECT kept_from FROM partitioned_tables WHERE table_name = 'callback_deliveries'), '-infinity')
       ON CONFLICT (event_id, target, created_at) DO NOTHING
       RETURNING 1
     ), reset AS (
       UPDATE callback_deliveries d
          SET ${requeueSet('d')}
        WHERE d.event_id = $1 AND ($5::text IS NULL OR d.target = $5)
          -- A delivery a worker holds (claimed, its lease running: the request may be on the wire) is
          -- left alone: resetting it would free it for a second claim and send the webhook twice.
          -- Its attempt is recorded by that worker; a claim whose worker died is due again and reset.
          AND NOT (d.status = 'pending' AND d.claim_token IS NOT NULL AND d.next_attempt_at > now())
       RETURNING 1
     )
     SELECT ((SELECT count(*) FROM added) + (SELECT count(*) FROM reset))::int AS requeued,
            pg_notify('${DELIVERIES_CHANNEL}', '') AS notified`,
    [e.eventId, e.orgId, e.target, e.kind, e.only ?? null],
  );
  return r.rows[0]?.requeued ?? 0;
}

export interface DeliveryView {
  id: string;
  target: DeliveryTarget;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

export interface AttemptView {
  delivery_id: string;
  attempt_no: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_snippet: string | null;
  attempted_at: Date;
}

export async function deliveriesOfEvent(q: Queryable, eventId: string): Promise<{ deliveries: DeliveryView[]; attempts: AttemptView[] }> {
  const d = await q.query<DeliveryView>(
    `SELECT id, target, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at
       FROM callback_deliveries WHERE event_id = $1 ORDER BY target`,
    [eventId],
  );
  const a = await q.query<AttemptView>(
    `SELECT a.delivery_id, a.attempt_no, a.url, a.status_code, a.latency_ms, a.error, a.response_snippet, a.attempted_at
       FROM callback_delivery_attempts a JOIN callback_deliveries d ON d.id = a.delivery_id
      WHERE d.event_id = $1 ORDER BY a.id`,
    [eventId],
  );
  return { deliveries: d.rows, attempts: a.rows };
}

/** Records one delivery attempt (recordAttempts), in a statement shared with the attempts that finish together. */
export const recordAttempt = batched('deliveryAttempts', recordAttempts);
