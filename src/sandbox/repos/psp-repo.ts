/**
 * SQL of the sandbox PSP (its own sandbox_* tables; the sandbox never touches the service's).
 */
import { batched } from '../../store/batched.js';
import { inLockOrder, prepared, type Queryable } from '../../store/db.js';

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
  /** What the payer actually paid, when it differs from amount_paise (sandbox `pay --amount`). */
  paid_amount_paise: number | null;
  /** The collecting merchant (the service's organization), whose settlement covers it; null before it was sent. */
  merchant: string | null;
}

const COLUMNS = `reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri,
  status, utr, paid_at, failure_reason, paid_amount_paise, merchant`;

export type NewSandboxCollection = Omit<SandboxCollectionRow, 'status' | 'utr' | 'paid_at' | 'failure_reason' | 'paid_amount_paise' | 'merchant'> & { merchant?: string | null };

const INSERT_COLLECTIONS = prepared(`INSERT INTO sandbox_collections (reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri, merchant)
  SELECT reference, provider_reference, amount_paise, note, payee_name, merchant_category, expires_at, upi_uri, merchant
    FROM json_to_recordset($1::json) AS v(reference text, provider_reference text, amount_paise bigint, note text, payee_name text,
      merchant_category text, expires_at timestamptz, upi_uri text, merchant text)
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
  outcome: { status: 'SUCCESS'; utr: string; paidAmountPaise?: number | undefined } | { status: 'FAILED'; reason: string },
): Promise<SandboxCollectionRow | null> {
  const r = await q.query<SandboxCollectionRow>(
    `UPDATE sandbox_collections
        SET status = $2, utr = $3, paid_at = CASE WHEN $2 = 'SUCCESS' THEN now() END, failure_reason = $4, paid_amount_paise = $5,
            updated_at = now()
      WHERE reference = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
    [
      reference,
      outcome.status,
      outcome.status === 'SUCCESS' ? outcome.utr : null,
      outcome.status === 'FAILED' ? outcome.reason : null,
      outcome.status === 'SUCCESS' ? (outcome.paidAmountPaise ?? null) : null,
    ],
  );
  return r.rows[0] ?? null;
}

export async function statusCheckCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<{ reference: string; checks: number }>('SELECT reference, checks FROM sandbox_collection_status_checks ORDER BY reference');
  return Object.fromEntries(r.rows.map((row) => [row.reference, row.checks]));
}

export interface SandboxRefundRow {
  reference: string;
  provider_reference: string;
  collection_reference: string;
  amount_paise: number;
  status: 'COMPLETED' | 'FAILED';
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const REFUND_COLUMNS = 'reference, provider_reference, collection_reference, amount_paise, status, failure_reason, created_at, completed_at';

/**
 * Executes a refund once per reference: the refund row and, when it completes, its ledger row, in
 * one statement. Null when the reference exists already (the caller reads and compares).
 */
export async function executeRefund(
  q: Queryable,
  r: { reference: string; providerReference: string; collectionReference: string; amountPaise: number; failureReason: string | null },
): Promise<SandboxRefundRow | null> {
  const res = await q.query<SandboxRefundRow>(
    `WITH ins AS (
       INSERT INTO sandbox_refunds (reference, provider_reference, collection_reference, amount_paise, status, failure_reason, completed_at)
       VALUES ($1, $2, $3, $4, CASE WHEN $5::text IS NULL THEN 'COMPLETED' ELSE 'FAILED' END, $5::text,
               CASE WHEN $5::text IS NULL THEN now() END)
       ON CONFLICT (reference) DO NOTHING RETURNING ${REFUND_COLUMNS}),
     led AS (INSERT INTO sandbox_refund_ledger (reference, amount_paise) SELECT reference, amount_paise FROM ins WHERE status = 'COMPLETED')
     SELECT ${REFUND_COLUMNS} FROM ins`,
    [r.reference, r.providerReference, r.collectionReference, r.amountPaise, r.failureReason],
  );
  return res.rows[0] ?? null;
}

export async function findRefund(q: Queryable, reference: string): Promise<SandboxRefundRow | null> {
  const r = await q.query<SandboxRefundRow>(`SELECT ${REFUND_COLUMNS} FROM sandbox_refunds WHERE reference = $1`, [reference]);
  return r.rows[0] ?? null;
}

/** What was already refunded of a collection (completed refunds). */
export async function refundedOfCollection(q: Queryable, collectionReference: string): Promise<number> {
  const r = await q.query<{ n: string }>(`SELECT coalesce(sum(amount_paise), 0)::text AS n FROM sandbox_refunds WHERE collection_reference = $1 AND status = 'COMPLETED'`, [
    collectionReference,
  ]);
  return Number(r.rows[0]!.n);
}

/** Executions per refund reference, from the ledger (`tijori sandbox stats`). */
export async function refundExecutionCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<{ reference: string; n: number }>('SELECT reference, count(*)::int AS n FROM sandbox_refund_ledger GROUP BY reference ORDER BY reference');
  return Object.fromEntries(r.rows.map((row) => [row.reference, row.n]));
}

/** One new collection (insertCollections), in a statement shared with those requested together. */
export const insertCollection = batched('sandboxCollections', insertCollections);
