/**
 * SQL of the sandbox bank (contract §3). Only the sandbox calls this: it is "another company"
 * that happens to keep its tables in the same database, and it never touches the service's tables.
 */
import type { Queryable } from '../db.js';

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

/** Decides a PENDING transfer; the status guard makes a second decision a no-op. */
export async function decideTransfer(
  q: Queryable,
  d: { id: string; status: 'SUCCESS' | 'FAILED'; utr: string | null; reason: string | null },
): Promise<boolean> {
  const r = await q.query(
    `UPDATE sandbox_bank_transfers
        SET status = $2, utr = $3, reason = $4, processed_at = now(), callback_due_at = now()
      WHERE id = $1 AND status = 'PENDING'`,
    [d.id, d.status, d.utr, d.reason],
  );
  return r.rowCount === 1;
}

export async function insertLedgerEntry(q: Queryable, e: { reference: string; amountPaise: number; utr: string }): Promise<void> {
  await q.query('INSERT INTO sandbox_bank_ledger (reference, amount_paise, utr) VALUES ($1, $2, $3)', [e.reference, e.amountPaise, e.utr]);
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
export async function finishCallback(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE sandbox_bank_transfers SET callback_due_at = NULL WHERE id = $1', [id]);
}

export async function rescheduleCallback(q: Queryable, id: string, delayMs: number): Promise<void> {
  await q.query(
    `UPDATE sandbox_bank_transfers SET callback_due_at = now() + make_interval(secs => $2::double precision / 1000) WHERE id = $1`,
    [id, delayMs],
  );
}

/** `tijori sandbox stats` payout side: executions per reference (the service's transaction_id). */
export async function executionCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<{ reference: string; n: number }>('SELECT reference, count(*)::int AS n FROM sandbox_bank_ledger GROUP BY reference');
  return Object.fromEntries(r.rows.map((row) => [row.reference, row.n]));
}
