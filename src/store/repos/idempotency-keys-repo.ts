/**
 * Idempotency key rows written in batches: many concurrent creates' keys in one statement (one
 * round trip, one commit), and the keyed-create statements that write a resource with its key.
 * The single-row statements of the idempotency service (replay look-up, takeover of an expired
 * lease) stay in src/services/shared/idempotency.ts.
 */
import { batched } from '../batched.js';
import { inLockOrder, prepared, type PreparedStatement, type Queryable } from '../db.js';

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
 * The completed key row a create writes with its resource, and how: `held` false inserts it (a new
 * key; the create's first try), true completes the row this request holds (a leased create, or a
 * takeover of a key left in progress). Made by the idempotency service (src/services/shared/idempotency.ts).
 */
export interface CreateKey extends CompletedKeyValues {
  held: boolean;
}

/** The key columns every record of a keyed create carries (besides the resource's `id` and `client_pk`). */
const KEY_RECORD_COLUMNS = 'idempotency_key uuid, fingerprint text, response_status integer, response_body text, resource_type text';

function keyRecordFields(key: CompletedKeyValues) {
  return {
    idempotency_key: key.key,
    fingerprint: key.fingerprint,
    response_status: key.response_status,
    response_body: key.response_body,
    resource_type: key.resource_type,
  };
}

/** New keys, written completed (ON CONFLICT DO NOTHING: a key that exists, or appears twice in the batch, writes nothing). */
const NEW_KEYS_CTE = `k AS (INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, response_status, response_body, resource_type, resource_id, completed_at)
         SELECT client_pk, idempotency_key, fingerprint, 'completed', response_status, response_body, resource_type, id, now() FROM v
         ON CONFLICT DO NOTHING RETURNING resource_id)`;

/**
 * Keys the creates hold (leased, or taken over when left in progress): each is completed only while
 * still in progress with the same fingerprint. A key another request completed meanwhile writes
 * nothing; one that two creates of the batch complete is written once.
 */
const HELD_KEYS_CTE = `k AS (UPDATE idempotency_keys i SET state = 'completed', locked_until = NULL, response_status = v.response_status,
           response_body = v.response_body, resource_type = v.resource_type, resource_id = v.id, completed_at = now()
         FROM v WHERE i.client_pk = v.client_pk AND i.key = v.idempotency_key AND i.fingerprint = v.fingerprint AND i.state = 'in_progress'
         RETURNING v.id AS resource_id)`;

/** The two statements of a keyed create (see keyedCreateStatements). */
export interface KeyedCreateStatements {
  newKey: PreparedStatement;
  heldKey: PreparedStatement;
}

/**
 * Statements that write many creates (orders, payouts) in ONE statement each with their completed
 * key rows: the statement reads a JSON batch `v` whose records carry `id` (the resource),
 * `client_pk`, the resource's `columns` and the key's fields; `k` writes the keys (newKey: inserts
 * them, heldKey: completes the rows the creates hold) and returns the ids of the resources whose key
 * it wrote; `resource` (the resource's CTEs and a final `SELECT ... AS id` of what it wrote) writes
 * only FROM `v JOIN k ON k.resource_id = v.id`, so nothing goes in without its key.
 */
export function keyedCreateStatements(columns: string, resource: string): KeyedCreateStatements {
  const statement = (k: string) =>
    prepared(`WITH v AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS v(${columns}, ${KEY_RECORD_COLUMNS})),
     ${k},
     ${resource}`);
  return { newKey: statement(NEW_KEYS_CTE), heldKey: statement(HELD_KEYS_CTE) };
}

/**
 * Writes a batch of keyed creates with one of their statements; for each, whether it was written
 * (false: newKey, its key already existed or came twice; heldKey, its key was no longer held).
 * Records go in sorted by key, so two batches that share keys wait for each other in the same
 * order instead of deadlocking.
 */
export async function writeKeyedCreates<C extends { key: CompletedKeyValues }>(
  q: Queryable,
  statement: PreparedStatement,
  creates: C[],
  recordOf: (c: C) => { id: string } & Record<string, unknown>,
): Promise<boolean[]> {
  const records = creates.map((c) => ({ ...recordOf(c), ...keyRecordFields(c.key) }));
  const inKeyOrder = byKeyOrder(
    records.map((record, i) => ({ record, key: creates[i]!.key })),
    (r) => r.key,
  ).map((r) => r.record);
  const r = await q.query<{ id: string }>(statement, [JSON.stringify(inKeyOrder)]);
  const written = new Set(r.rows.map((row) => row.id));
  return records.map((rec) => written.has(rec.id));
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
function byKeyOrder<T>(items: T[], keyOf: (item: T) => { client_pk: string; key: string }): T[] {
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

/** Takes one leased create's key, in a statement shared with the leases taken together (see insertLeases). */
export const insertLease = batched('idempotencyLeases', insertLeases);

/** A key row as a repeat of its request reads it (`locked`: its holder's lease has not run out). */
export interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  locked: boolean;
  response_status: number | null;
  response_body: string | null;
  resource_id: string | null;
}

export async function findKey(q: Queryable, clientPk: string, key: string): Promise<KeyRow | null> {
  const r = await q.query<KeyRow>(
    `SELECT fingerprint, state, locked_until > now() AS locked, response_status, response_body, resource_id
       FROM idempotency_keys WHERE client_pk = $1 AND key = $2`,
    [clientPk, key],
  );
  return r.rows[0] ?? null;
}

/** Takes over a key whose holder's lease ran out, with a lease of `leaseMs`; false when another request has it. */
export async function takeOverExpiredLease(q: Queryable, clientPk: string, key: string, leaseMs: number): Promise<boolean> {
  const r = await q.query(
    `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3::double precision / 1000)
      WHERE client_pk = $1 AND key = $2 AND state = 'in_progress' AND locked_until <= now() RETURNING 1`,
    [clientPk, key, leaseMs],
  );
  return r.rowCount === 1;
}

/** Ends the lease of a key still in progress (a try that failed): a retry takes it over at once. */
export async function endLease(q: Queryable, clientPk: string, key: string): Promise<void> {
  await q.query(`UPDATE idempotency_keys SET locked_until = now() WHERE client_pk = $1 AND key = $2 AND state = 'in_progress'`, [clientPk, key]);
}
