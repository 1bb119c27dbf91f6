/**
 * Idempotency key rows written in batches: many concurrent creates' keys in one statement (one
 * round trip, one commit). The single-row statements of the idempotency service (replay look-up,
 * takeover of an expired lease, completion in a transaction) stay in src/services/idempotency.ts.
 */
import { inLockOrder, prepared, type Queryable } from '../db.js';

/** A completed idempotency key row, written with the resource it answers for. */
export interface CompletedKeyValues {
  client_pk: string;
  key: string;
  fingerprint: string;
  response_status: number;
  response_body: string;
  resource_type: string;
}

/**
 * The completed key rows of batched creates (orders, payouts): each resource's statement reads a
 * JSON batch `v` whose records carry `id` (the resource), `client_pk` and the fields below, and
 * starts with one of the two `k` CTEs, which returns the ids of the resources whose key it wrote.
 * The resource rows are then written only FROM `v JOIN k`, so nothing goes in without its key.
 */
export const KEY_RECORD_COLUMNS = 'idempotency_key uuid, fingerprint text, response_status integer, response_body text, resource_type text';

/** The key fields of one create's JSON record (the columns of KEY_RECORD_COLUMNS). */
export function keyRecordFields(key: CompletedKeyValues) {
  return {
    idempotency_key: key.key,
    fingerprint: key.fingerprint,
    response_status: key.response_status,
    response_body: key.response_body,
    resource_type: key.resource_type,
  };
}

/** New keys, written completed (ON CONFLICT DO NOTHING: a key that exists, or appears twice in the batch, writes nothing). */
export const NEW_KEYS_CTE = `k AS (INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, response_status, response_body, resource_type, resource_id, completed_at)
         SELECT client_pk, idempotency_key, fingerprint, 'completed', response_status, response_body, resource_type, id, now() FROM v
         ON CONFLICT DO NOTHING RETURNING resource_id)`;

/**
 * Keys the creates hold (leased, or taken over when left in progress): each is completed only while
 * still in progress with the same fingerprint. A key another request completed meanwhile writes
 * nothing; one that two creates of the batch complete is written once.
 */
export const HELD_KEYS_CTE = `k AS (UPDATE idempotency_keys i SET state = 'completed', locked_until = NULL, response_status = v.response_status,
           response_body = v.response_body, resource_type = v.resource_type, resource_id = v.id, completed_at = now()
         FROM v WHERE i.client_pk = v.client_pk AND i.key = v.idempotency_key AND i.fingerprint = v.fingerprint AND i.state = 'in_progress'
         RETURNING v.id AS resource_id)`;

/** A key taken "in progress" for `lease_ms` by a leased create that will make `resource_id`. */
export interface NewLease {
  client_pk: string;
  key: string;
  fingerprint: string;
  lease_ms: number;
  resource_id: string;
}

/** Key rows of a batch in one order (client, key), so two batches never deadlock on them. */
export function byKeyOrder<T>(items: T[], keyOf: (item: T) => { client_pk: string; key: string }): T[] {
  return inLockOrder(items, (item) => {
    const k = keyOf(item);
    return `${k.client_pk}/${k.key.toLowerCase()}`;
  });
}

const INSERT_LEASES = prepared(`INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, locked_until, resource_id)
  SELECT client_pk, key, fingerprint, 'in_progress', now() + make_interval(secs => lease_ms / 1000), resource_id
    FROM json_to_recordset($1::json) AS v(client_pk uuid, key uuid, fingerprint text, lease_ms double precision, resource_id uuid)
  ON CONFLICT DO NOTHING RETURNING resource_id`);

/**
 * Takes the keys of a batch of leased creates; for each, whether it was taken (false: the key
 * exists, or appears earlier in the same batch; the caller then looks at the existing row). The
 * resource ids are unique per create, so they say which rows went in.
 */
export async function insertLeases(q: Queryable, leases: NewLease[]): Promise<boolean[]> {
  const r = await q.query<{ resource_id: string }>(INSERT_LEASES, [JSON.stringify(byKeyOrder(leases, (l) => l))]);
  const taken = new Set(r.rows.map((row) => row.resource_id));
  return leases.map((l) => taken.has(l.resource_id));
}

/** Completes the idempotency key this request holds (leased), in the transaction that writes its resource (a refund, a console payout). */
export async function completeHeldKey(q: Queryable, key: CompletedKeyValues, resourceId: string): Promise<boolean> {
  const r = await q.query(
    `UPDATE idempotency_keys SET state = 'completed', locked_until = NULL, response_status = $4, response_body = $5, resource_type = $6,
            resource_id = $7, completed_at = now()
      WHERE client_pk = $1 AND key = $2 AND fingerprint = $3 AND state = 'in_progress' RETURNING 1`,
    [key.client_pk, key.key, key.fingerprint, key.response_status, key.response_body, key.resource_type, resourceId],
  );
  return r.rowCount === 1;
}
