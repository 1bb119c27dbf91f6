/**
 * SQL of the sandbox bank (contract §3). Only the sandbox calls this: it is "another company"
 * that happens to keep its tables in the same database, and it never touches the service's tables.
 */
import { batched } from '../../store/batched.js';
import { inLockOrder, prepared, type Queryable } from '../../store/db.js';

export interface TransferRow {
  id: string;
  reference: string;
  bank_reference: string;
  amount_paise: number;
  mode: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  outcome: 'EXECUTE' | 'ACCOUNT_CLOSED';
  utr: string | null;
  reason: string | null;
  processed_at: Date | null;
  callback_attempts: number;
}

export interface NewTransfer {
  id: string;
  reference: string;
  bankReference: string;
  amountPaise: number;
  mode: string;
  beneficiaryName: string;
  accountLast4: string;
  ifsc: string;
  outcome: TransferRow['outcome'];
  executeAfterMs: number;
}

const COLUMNS = 'id, reference, bank_reference, amount_paise, mode, status, outcome, utr, reason, processed_at, callback_attempts';

/** Inserts the transfer unless the reference exists; either way returns the stored row. */
export async function insertTransfer(q: Queryable, t: NewTransfer): Promise<{ row: TransferRow; created: boolean }> {
  const r = await q.query<TransferRow>(
    `INSERT INTO sandbox_bank_transfers
       (id, reference, bank_reference, amount_paise, mode, beneficiary_name, account_last4, ifsc, status, outcome, execute_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9, now() + make_interval(secs => $10::double precision / 1000))
     ON CONFLICT (reference) DO NOTHING RETURNING ${COLUMNS}`,
    [t.id, t.reference, t.bankReference, t.amountPaise, t.mode, t.beneficiaryName, t.accountLast4, t.ifsc, t.outcome, t.executeAfterMs],
  );
  if (r.rows[0]) return { row: r.rows[0], created: true };
  const existing = await findTransfer(q, t.reference);
  if (!existing) throw new Error('sandbox transfer vanished after a reference conflict');
  return { row: existing, created: false };
}

/** A submit the bank accepts: the transfer, and the submission log entry if it is new. */
export interface TransferSubmit {
  transfer: NewTransfer;
  answer: string;
}

const ACCEPT_TRANSFERS = prepared(`WITH v AS MATERIALIZED (
     SELECT * FROM json_to_recordset($1::json) AS v(id uuid, reference text, bank_reference text, amount_paise bigint, mode text,
       beneficiary_name text, account_last4 text, ifsc text, outcome text, execute_after_ms double precision, answer text)),
   t AS (
     INSERT INTO sandbox_bank_transfers
       (id, reference, bank_reference, amount_paise, mode, beneficiary_name, account_last4, ifsc, status, outcome, execute_at)
     SELECT id, reference, bank_reference, amount_paise, mode, beneficiary_name, account_last4, ifsc, 'PENDING', outcome,
            now() + make_interval(secs => execute_after_ms / 1000) FROM v
     ON CONFLICT (reference) DO NOTHING RETURNING ${COLUMNS}),
   s AS (INSERT INTO sandbox_bank_submissions (reference, answer)
         SELECT v.reference, CASE WHEN t.id IS NULL THEN 'DUPLICATE' ELSE v.answer END FROM v LEFT JOIN t ON t.id = v.id)
   SELECT * FROM t`);

/**
 * The usual submits of a batch in one statement: each transfer is inserted unless its reference
 * exists (or came earlier in the batch) and its submission is logged (`answer` for a new
 * transfer, DUPLICATE otherwise). Returns each stored transfer and whether this submit created it.
 */
export async function acceptTransfers(q: Queryable, submits: TransferSubmit[]): Promise<Array<{ row: TransferRow; created: boolean }>> {
  const records = inLockOrder(submits, (s) => s.transfer.reference).map(({ transfer: t, answer }) => ({
    id: t.id, reference: t.reference, bank_reference: t.bankReference, amount_paise: t.amountPaise, mode: t.mode,
    beneficiary_name: t.beneficiaryName, account_last4: t.accountLast4, ifsc: t.ifsc, outcome: t.outcome, execute_after_ms: t.executeAfterMs, answer,
  }));
  const r = await q.query<TransferRow>(ACCEPT_TRANSFERS, [JSON.stringify(records)]);
  const byReference = new Map(r.rows.map((row) => [row.reference, row]));
  const out: Array<{ row: TransferRow; created: boolean }> = [];
  for (const { transfer } of submits) {
    const row = byReference.get(transfer.reference) ?? (await findTransfer(q, transfer.reference));
    if (!row) throw new Error('sandbox transfer vanished after a reference conflict');
    out.push({ row, created: row.id === transfer.id });
  }
  return out;
}

export async function findTransfer(q: Queryable, reference: string): Promise<TransferRow | null> {
  const r = await q.query<TransferRow>(`SELECT ${COLUMNS} FROM sandbox_bank_transfers WHERE reference = $1`, [reference]);
  return r.rows[0] ?? null;
}

export async function recordSubmission(q: Queryable, reference: string, answer: string): Promise<void> {
  await q.query('INSERT INTO sandbox_bank_submissions (reference, answer) VALUES ($1, $2)', [reference, answer]);
}

export async function countSubmissions(q: Queryable, reference: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_bank_submissions WHERE reference = $1', [reference]);
  return r.rows[0]?.n ?? 0;
}

/** Locks due PENDING transfers (several sandbox instances may run); call inside a transaction. */
export async function lockDueTransfers(q: Queryable, limit: number): Promise<TransferRow[]> {
  const r = await q.query<TransferRow>(
    `SELECT ${COLUMNS} FROM sandbox_bank_transfers
      WHERE status = 'PENDING' AND execute_at <= now()
      ORDER BY execute_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return r.rows;
}

export interface TransferDecision {
  id: string;
  status: 'SUCCESS' | 'FAILED';
  utr: string | null;
  reason: string | null;
}

/**
 * Decides PENDING transfers, books a ledger entry for each that succeeded, and claims their first
 * callback (a lease of `callbackLeaseMs`, as claimDueCallbacks would), in one statement. The
 * status guard makes a second decision of a transfer a no-op (no second ledger entry). Returns the
 * decided transfers, for their callbacks.
 */
export async function decideTransfers(q: Queryable, decisions: TransferDecision[], callbackLeaseMs: number): Promise<TransferRow[]> {
  if (decisions.length === 0) return [];
  const r = await q.query<TransferRow>(
    `WITH d AS (SELECT * FROM json_to_recordset($1::json) AS d(id uuid, status text, utr text, reason text)),
     decided AS (
       UPDATE sandbox_bank_transfers t
          SET status = d.status, utr = d.utr, reason = d.reason, processed_at = now(),
              callback_due_at = now() + make_interval(secs => $3::double precision / 1000), callback_attempts = t.callback_attempts + 1
         FROM d WHERE t.id = d.id AND t.id = ANY($2::uuid[]) AND t.status = 'PENDING'
       RETURNING ${COLUMNS.split(', ').map((c) => `t.${c}`).join(', ')}),
     booked AS (
       INSERT INTO sandbox_bank_ledger (reference, amount_paise, utr)
       SELECT reference, amount_paise, utr FROM decided WHERE status = 'SUCCESS')
     SELECT * FROM decided`,
    // ids again as an array: the planner then uses the primary key instead of scanning the table.
    [JSON.stringify(decisions), decisions.map((d) => d.id), callbackLeaseMs],
  );
  return r.rows;
}

/**
 * Whether any transfer is due for execution, or any callback for sending: the earliest due time of
 * each, read off the first entry of its partial index, without a transaction, for the executor's
 * idle ticks. Written as min() rather than EXISTS (... <= now()): with statistics that count many
 * PENDING rows (this table is never analyzed where autovacuum is off, as on CI's PostgreSQL) the
 * planner answered the EXISTS with a sequential scan of every transfer ever made, 40 times a
 * second while idle (issue #36: 0.9 ms a call after 2,500 payouts, 4.7 ms after 15,000); a min()
 * over an index's leading column is always its first entry.
 */
export async function dueWork(q: Queryable): Promise<{ transfers: boolean; callbacks: boolean }> {
  const r = await q.query<{ transfers: boolean; callbacks: boolean }>(
    `SELECT coalesce((SELECT min(execute_at) FROM sandbox_bank_transfers WHERE status = 'PENDING') <= now(), false) AS transfers,
            coalesce((SELECT min(callback_due_at) FROM sandbox_bank_transfers WHERE callback_due_at IS NOT NULL) <= now(), false) AS callbacks`,
  );
  const row = r.rows[0];
  return { transfers: row?.transfers === true, callbacks: row?.callbacks === true };
}

/** Claims decided transfers whose callback is due, pushing their next try out (a lease). */
export async function claimDueCallbacks(q: Queryable, limit: number, leaseMs: number): Promise<TransferRow[]> {
  const r = await q.query<TransferRow>(
    `UPDATE sandbox_bank_transfers
        SET callback_due_at = now() + make_interval(secs => $2::double precision / 1000), callback_attempts = callback_attempts + 1
      WHERE id IN (SELECT id FROM sandbox_bank_transfers WHERE callback_due_at <= now()
                    ORDER BY callback_due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    [limit, leaseMs],
  );
  return r.rows;
}

/** Delivered, or given up: no further callback tries. */
export async function finishCallbacks(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('UPDATE sandbox_bank_transfers SET callback_due_at = NULL WHERE id = ANY($1::uuid[])', [ids]);
}

/** Schedules each transfer's next callback try after its own delay. */
export async function rescheduleCallbacks(q: Queryable, retries: Array<{ id: string; delayMs: number }>): Promise<void> {
  if (retries.length === 0) return;
  await q.query(
    `UPDATE sandbox_bank_transfers t SET callback_due_at = now() + make_interval(secs => r.delay_ms::double precision / 1000)
       FROM unnest($1::uuid[], $2::int[]) AS r(id, delay_ms) WHERE t.id = r.id`,
    [retries.map((r) => r.id), retries.map((r) => r.delayMs)],
  );
}

/** `tijori sandbox stats` payout side: executions per reference (the service's transaction_id). */
export async function executionCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<{ reference: string; n: number }>('SELECT reference, count(*)::int AS n FROM sandbox_bank_ledger GROUP BY reference');
  return Object.fromEntries(r.rows.map((row) => [row.reference, row.n]));
}

/** One submit (acceptTransfers), in a statement shared with the submits that arrive together. */
export const acceptTransfer = batched('sandboxTransfers', acceptTransfers);
