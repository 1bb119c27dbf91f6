/** SQL of the provider callback intake (provider_events). */
import { batched } from '../batched.js';
import { accountsOfSubjects, type CallbackSubject, type ResourceAccount, subjectKey } from './provider-accounts-repo.js';
import { prepared, type Queryable } from '../db.js';

export interface ProviderEventRow {
  id: string;
  provider: string;
  event_id: string;
  kind: string;
  reference: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** The provider account that verified it; null for the built-in sandbox intake (and rows of older releases). */
  provider_account_id: string | null;
}

export interface NewProviderEvent {
  id: string;
  provider: string;
  /** Qualified by the verifying account (see accountEventId). */
  eventId: string;
  providerAccountId: string | null;
  kind: string;
  reference: string;
  payload: unknown;
  rawBody: string;
}

/**
 * The stored event id: the provider's own id qualified by the account that verified it, so one
 * account's events never de-duplicate another's under the unique (provider, event_id) (migration
 * 0036; since 0150 that key lives in provider_event_keys).
 */
export function accountEventId(providerAccountId: string | null, eventId: string): string {
  return providerAccountId === null ? eventId : `${providerAccountId}:${eventId}`;
}

const INSERT_EVENTS = prepared(`INSERT INTO provider_events (id, provider, event_id, provider_account_id, kind, reference, payload, raw_body)
  SELECT id, provider, event_id, provider_account_id, kind, reference, payload, raw_body
    FROM json_to_recordset($1::json) AS v(id uuid, provider text, event_id text, provider_account_id uuid, kind text, reference text, payload jsonb, raw_body text)
  RETURNING id`);

/**
 * Stores callbacks that arrived together in one statement (one commit). For each: true when stored
 * now, false when its (provider, event_id) was already stored, or repeats an earlier one of the batch.
 * provider_events is partitioned by received_at, so (provider, event_id) cannot be unique there:
 * the trigger provider_event_first (migration 0150) records the key in provider_event_keys and
 * skips the row of a key already recorded, so RETURNING leaves it out.
 */
export async function insertEvents(q: Queryable, events: NewProviderEvent[]): Promise<boolean[]> {
  const records = events.map((e) => ({
    id: e.id,
    provider: e.provider,
    event_id: e.eventId,
    provider_account_id: e.providerAccountId,
    kind: e.kind,
    reference: e.reference,
    payload: e.payload,
    raw_body: e.rawBody,
  }));
  const r = await q.query<{ id: string }>(INSERT_EVENTS, [JSON.stringify(records)]);
  const stored = new Set(r.rows.map((row) => row.id));
  return events.map((e) => stored.has(e.id));
}

/**
 * Claims up to `limit` of the longest-due events for the rest of the transaction; other
 * transactions and instances skip them. Ordered by next_attempt_at (= received_at until a retry),
 * the pending index's own order: ordering by received_at sorted the whole backlog on every claim,
 * which made a burst of callbacks quadratic. Returned in the order their handlers should lock what
 * they touch: by kind and reference, so two transactions applying several events each take their
 * row locks in the same order.
 */
export async function claimDue(q: Queryable, limit: number): Promise<ProviderEventRow[]> {
  const r = await q.query<ProviderEventRow>(CLAIM_DUE, [limit]);
  return r.rows.sort((a, b) => (a.kind === b.kind ? (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0) : a.kind < b.kind ? -1 : 1));
}

const CLAIM_DUE = prepared(`SELECT id, provider, event_id, kind, reference, payload, attempts, provider_account_id FROM provider_events
  WHERE state = 'pending' AND next_attempt_at <= now()
  ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED`);

const MARK_PROCESSED = prepared(`UPDATE provider_events p
    SET state = 'processed', processed_at = now(), attempts = p.attempts + 1, outcome = u.outcome
   FROM unnest($1::uuid[], $2::text[]) AS u (id, outcome)
  WHERE p.id = u.id`);

/** An applied event and what its handler reported. */
export interface ProcessedEvent {
  id: string;
  outcome: string | null;
}

export async function markProcessed(q: Queryable, done: ProcessedEvent[]): Promise<void> {
  if (done.length === 0) return;
  await q.query(MARK_PROCESSED, [done.map((d) => d.id), done.map((d) => d.outcome)]);
}

export async function markRetry(q: Queryable, id: string, error: string, delayMs: number): Promise<void> {
  await q.query(
    `UPDATE provider_events SET attempts = attempts + 1, last_error = $2,
            next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
      WHERE id = $1`,
    [id, error.slice(0, 500), delayMs],
  );
}

/**
 * Of claimed events verified by a provider account, those whose order or payout belongs to another
 * account (or to none): the news of one account never moves another's money, whenever the resource
 * came to exist. One statement for the batch.
 */
export async function foreignEvents(q: Queryable, events: ProviderEventRow[], orderPk: (orderId: string) => string | null): Promise<Set<string>> {
  const mine = events.filter((e) => e.provider_account_id !== null && (e.kind === 'collection' || e.kind === 'payout'));
  if (mine.length === 0) return new Set();
  const r = await q.query<{ id: string }>(
    `SELECT v.id FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::uuid[]) AS v(id, kind, reference, account_id, order_pk)
      WHERE (v.kind = 'collection' AND EXISTS (
               SELECT 1 FROM payment_orders o WHERE o.id = v.order_pk AND o.provider_account_id IS DISTINCT FROM v.account_id))
         OR (v.kind = 'payout' AND EXISTS (
               SELECT 1 FROM payouts p JOIN bank_connections b ON b.id = p.bank_connection_id
                WHERE p.transaction_id = v.reference AND b.provider_account_id IS DISTINCT FROM v.account_id))`,
    [
      mine.map((e) => e.id),
      mine.map((e) => e.kind),
      mine.map((e) => e.reference),
      mine.map((e) => e.provider_account_id),
      mine.map((e) => (e.kind === 'collection' ? orderPk(e.reference) : null)),
    ],
  );
  return new Set(r.rows.map((row) => row.id));
}

export async function findByEventId(q: Queryable, provider: string, eventId: string) {
  const r = await q.query<{ state: string; attempts: number; last_error: string | null; outcome: string | null; kind: string }>(
    'SELECT state, attempts, last_error, outcome, kind FROM provider_events WHERE provider = $1 AND event_id = $2',
    [provider, eventId],
  );
  return r.rows[0] ?? null;
}

/**
 * A verified callback to store, with what it names and the intake's rule for whether the account
 * that verified it may speak of that (`speaksFor`; undefined: nothing has that reference yet).
 */
export interface CallbackToStore {
  event: NewProviderEvent;
  subject: CallbackSubject | null;
  speaksFor: (owner: ResourceAccount | undefined) => boolean;
}

/**
 * Callbacks that arrive together: the accounts of everything they name in one statement, then the
 * ones whose account may speak of it stored in one statement (one commit). Per callback: 'stored',
 * 'duplicate' (already stored, or repeats an earlier one of the batch) or 'foreign' (it names
 * another account's order or payout: nothing stored).
 */
export const storeCallback = batched('providerEvents', async (db, items: CallbackToStore[]): Promise<Array<'stored' | 'duplicate' | 'foreign'>> => {
  const subjects = items.flatMap((i) => (i.subject ? [i.subject] : []));
  const owners = await accountsOfSubjects(db, subjects);
  const allowed = items.map((i) => i.speaksFor(i.subject ? owners.get(subjectKey(i.subject)) : undefined));
  const toStore = items.filter((_, k) => allowed[k]).map((i) => i.event);
  const stored = toStore.length > 0 ? await insertEvents(db, toStore) : [];
  let n = 0;
  return items.map((_, k) => (allowed[k] ? (stored[n++] ? 'stored' : 'duplicate') : 'foreign'));
});
