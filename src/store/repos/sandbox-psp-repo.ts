/**
 * SQL of the sandbox PSP (its own sandbox_* tables; the sandbox never touches the service's).
 */
import { inLockOrder, prepared, type Queryable } from '../db.js';

export interface SandboxCollectionRow {
  reference: string;
  provider_reference: string;
  amount_paise: number;
  note: string;
  payee_name: string;
  merchant_category: string | null;
  expires_at: Date;
  upi_uri: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  utr: string | null;
  paid_at: Date | null;
  failure_reason: string | null;
}

const COLUMNS = `reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri,
  status, utr, paid_at, failure_reason`;

export type NewSandboxCollection = Omit<SandboxCollectionRow, 'status' | 'utr' | 'paid_at' | 'failure_reason'>;

const INSERT_COLLECTIONS = prepared(`INSERT INTO sandbox_collections (reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri)
  SELECT reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri
    FROM json_to_recordset($1::json) AS v(reference text, provider_reference text, amount_paise bigint, note text, payee_name text,
      merchant_category text, expires_at timestamptz, upi_uri text)
  ON CONFLICT (reference) DO NOTHING RETURNING ${COLUMNS}`);

/**
 * Inserts the new collections of a batch in one statement (sorted by reference, so two batches
 * never deadlock); for each, its row, or null when the reference already exists or comes earlier
 * in the batch (the caller compares). Provider references are unique per request: they say which
 * rows went in.
 */
export async function insertCollections(q: Queryable, cs: NewSandboxCollection[]): Promise<Array<SandboxCollectionRow | null>> {
  const r = await q.query<SandboxCollectionRow>(INSERT_COLLECTIONS, [JSON.stringify(inLockOrder(cs, (c) => c.reference))]);
  const byProviderRef = new Map(r.rows.map((row) => [row.provider_reference, row]));
  return cs.map((c) => byProviderRef.get(c.provider_reference) ?? null);
}

export async function findCollection(q: Queryable, reference: string): Promise<SandboxCollectionRow | null> {
  const r = await q.query<SandboxCollectionRow>(`SELECT ${COLUMNS} FROM sandbox_collections WHERE reference = $1`, [reference]);
  return r.rows[0] ?? null;
}

/** The status API: counts the inquiry (known reference or not) and reads, in one statement. */
export async function inquireCollection(q: Queryable, reference: string): Promise<SandboxCollectionRow | null> {
  const r = await q.query<SandboxCollectionRow>(
    `WITH counted AS (
       INSERT INTO sandbox_collection_status_checks (reference, checks) VALUES ($1, 1)
       ON CONFLICT (reference) DO UPDATE SET checks = sandbox_collection_status_checks.checks + 1, last_at = now()
     )
     SELECT ${COLUMNS} FROM sandbox_collections WHERE reference = $1`,
    [reference],
  );
  return r.rows[0] ?? null;
}

/** PENDING -> SUCCESS or FAILED; null when the collection was not pending any more. */
export async function decideCollection(
  q: Queryable,
  reference: string,
  outcome: { status: 'SUCCESS'; utr: string } | { status: 'FAILED'; reason: string },
): Promise<SandboxCollectionRow | null> {
  const r = await q.query<SandboxCollectionRow>(
    `UPDATE sandbox_collections
        SET status = $2, utr = $3, paid_at = CASE WHEN $2 = 'SUCCESS' THEN now() END, failure_reason = $4, updated_at = now()
      WHERE reference = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
    [reference, outcome.status, outcome.status === 'SUCCESS' ? outcome.utr : null, outcome.status === 'FAILED' ? outcome.reason : null],
  );
  return r.rows[0] ?? null;
}

export async function statusCheckCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<{ reference: string; checks: number }>('SELECT reference, checks FROM sandbox_collection_status_checks ORDER BY reference');
  return Object.fromEntries(r.rows.map((row) => [row.reference, row.checks]));
}
