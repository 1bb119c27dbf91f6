/** SQL of the provider callback intake (provider_events). */
import type { Queryable } from '../db.js';

export interface ProviderEventRow {
  id: string;
  provider: string;
  event_id: string;
  kind: string;
  reference: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** true when stored now, false when this (provider, event_id) was already stored. */
export async function insertEvent(
  q: Queryable,
  e: { id: string; provider: string; eventId: string; kind: string; reference: string; payload: unknown; rawBody: string },
): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (provider, event_id) DO NOTHING RETURNING 1`,
    [e.id, e.provider, e.eventId, e.kind, e.reference, JSON.stringify(e.payload), e.rawBody],
  );
  return r.rowCount === 1;
}

/**
 * Claims the longest-due event for the rest of the transaction; other instances skip it. Ordered by
 * next_attempt_at (= received_at until a retry), the pending index's own order: ordering by
 * received_at sorted the whole backlog on every claim, which made a burst of callbacks quadratic.
 */
export async function claimNext(q: Queryable): Promise<ProviderEventRow | null> {
  const r = await q.query<ProviderEventRow>(
    `SELECT id, provider, event_id, kind, reference, payload, attempts FROM provider_events
      WHERE state = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  return r.rows[0] ?? null;
}

export async function markProcessed(q: Queryable, id: string, outcome: string | null): Promise<void> {
  await q.query(`UPDATE provider_events SET state = 'processed', processed_at = now(), attempts = attempts + 1, outcome = $2 WHERE id = $1`, [id, outcome]);
}

export async function markRetry(q: Queryable, id: string, error: string, delayMs: number): Promise<void> {
  await q.query(
    `UPDATE provider_events SET attempts = attempts + 1, last_error = $2,
            next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
      WHERE id = $1`,
    [id, error.slice(0, 500), delayMs],
  );
}

export async function findByEventId(q: Queryable, provider: string, eventId: string) {
  const r = await q.query<{ state: string; attempts: number; last_error: string | null; outcome: string | null; kind: string }>(
    'SELECT state, attempts, last_error, outcome, kind FROM provider_events WHERE provider = $1 AND event_id = $2',
    [provider, eventId],
  );
  return r.rows[0] ?? null;
}
