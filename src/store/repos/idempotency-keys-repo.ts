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
