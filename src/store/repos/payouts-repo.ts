/** SQL for payouts, their provider attempts and the append-only transition history. */
import type { PayoutAttemptStatus, PayoutMode, PayoutStatus } from '../../domain/payout.js';
import type { Queryable } from '../db.js';

export interface PayoutRow {
  id: string;
  transaction_id: string;
  org_id: string;
  client_pk: string;
  beneficiary_id: string;
  beneficiary_name: string;
  beneficiary_last4: string;
  beneficiary_ifsc: string;
  beneficiary_bank_name: string;
  amount_paise: number;
  currency: string;
  mode: PayoutMode;
  client_reference: string | null;
  remarks: string | null;
  status: PayoutStatus;
  failure_reason: string | null;
  bank_reference: string | null;
  utr: string | null;
  processed_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  id: string;
  payout_id: string;
  attempt_no: number;
  status: PayoutAttemptStatus;
  bank_reference: string | null;
  utr: string | null;
  failure_reason: string | null;
  submitted_at: Date | null;
  inquiry_count: number;
}

const PAYOUT_COLUMNS = `p.id, p.transaction_id, p.org_id, p.client_pk, p.beneficiary_id, p.beneficiary_name, p.beneficiary_last4,
  p.beneficiary_ifsc, p.beneficiary_bank_name, p.amount_paise, p.currency, p.mode, p.client_reference, p.remarks, p.status,
  p.failure_reason, p.bank_reference, p.utr, p.processed_at, p.created_at`;

export interface NewPayout {
  id: string;
  attemptId: string;
  transactionId: string;
  orgId: string;
  clientPk: string;
  routeId: string;
  beneficiary: { id: string; name: string; last4: string; ifsc: string; bankName: string };
  amountPaise: number;
  mode: PayoutMode;
  clientReference: string | null;
  remarks: string | null;
  createdAt: Date;
  /** The creating request holds the attempt this long (it submits right after commit). */
  leaseMs: number;
}

/** Payout, first attempt (PENDING_SUBMIT) and both history rows in one statement. */
export async function insertPayoutWithAttempt(q: Queryable, p: NewPayout): Promise<void> {
  await q.query(
    `WITH payout AS (
       INSERT INTO payouts (id, transaction_id, org_id, client_pk, bank_connection_id, beneficiary_id, beneficiary_name,
         beneficiary_last4, beneficiary_ifsc, beneficiary_bank_name, amount_paise, mode, client_reference, remarks, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'PROCESSING', $15) RETURNING id),
     attempt AS (
       INSERT INTO payout_attempts (id, payout_id, attempt_no, status, next_check_at, locked_until)
       SELECT $16, id, 1, 'PENDING_SUBMIT', $15::timestamptz + make_interval(secs => $17::double precision / 1000),
              $15::timestamptz + make_interval(secs => $17::double precision / 1000)
         FROM payout RETURNING id, payout_id)
     INSERT INTO payout_transitions (payout_id, attempt_id, entity, from_status, to_status, trigger)
     SELECT payout_id, NULL, 'payout', NULL, 'PROCESSING', 'created' FROM attempt
     UNION ALL SELECT payout_id, id, 'attempt', NULL, 'PENDING_SUBMIT', 'created' FROM attempt`,
    [
      p.id, p.transactionId, p.orgId, p.clientPk, p.routeId, p.beneficiary.id, p.beneficiary.name, p.beneficiary.last4,
      p.beneficiary.ifsc, p.beneficiary.bankName, p.amountPaise, p.mode, p.clientReference, p.remarks, p.createdAt,
      p.attemptId, p.leaseMs,
    ],
  );
}

/** A new attempt after a proven non-execution, held by the caller who will submit it. */
export async function insertAttempt(q: Queryable, a: { id: string; payoutId: string; attemptNo: number; leaseMs: number }): Promise<void> {
  await q.query(
    `INSERT INTO payout_attempts (id, payout_id, attempt_no, status, next_check_at, locked_until)
     VALUES ($1, $2, $3, 'PENDING_SUBMIT', now() + make_interval(secs => $4::double precision / 1000),
             now() + make_interval(secs => $4::double precision / 1000))`,
    [a.id, a.payoutId, a.attemptNo, a.leaseMs],
  );
}

/** The payout as its creating client may see it, with attempts in order. */
export async function findPayoutForClient(
  q: Queryable,
  clientPk: string,
  key: { id: string } | { transactionId: string },
): Promise<{ payout: PayoutRow; attempts: AttemptRow[] } | null> {
  const byId = 'id' in key;
  const r = await q.query<PayoutRow & { attempts: AttemptRow[] }>(
    `SELECT ${PAYOUT_COLUMNS},
            (SELECT coalesce(json_agg(json_build_object('id', a.id, 'attempt_no', a.attempt_no, 'status', a.status,
                     'bank_reference', a.bank_reference, 'utr', a.utr, 'failure_reason', a.failure_reason) ORDER BY a.attempt_no), '[]')
               FROM payout_attempts a WHERE a.payout_id = p.id) AS attempts
       FROM payouts p WHERE p.client_pk = $1 AND ${byId ? 'p.id = $2' : 'p.transaction_id = $2'}`,
    [clientPk, byId ? key.id : key.transactionId],
  );
  const row = r.rows[0];
  if (!row) return null;
  const { attempts, ...payout } = row;
  return { payout, attempts };
}

/** Locks an attempt and its payout for a state change. */
export async function lockAttempt(q: Queryable, attemptId: string): Promise<{ payout: PayoutRow; attempt: AttemptRow } | null> {
  const r = await q.query<PayoutRow & { attempt: AttemptRow }>(
    `SELECT ${PAYOUT_COLUMNS},
            json_build_object('id', a.id, 'payout_id', a.payout_id, 'attempt_no', a.attempt_no, 'status', a.status,
              'bank_reference', a.bank_reference, 'utr', a.utr, 'failure_reason', a.failure_reason,
              'submitted_at', a.submitted_at, 'inquiry_count', a.inquiry_count) AS attempt
       FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id
      WHERE a.id = $1 FOR UPDATE OF a, p`,
    [attemptId],
  );
  const row = r.rows[0];
  if (!row) return null;
  const { attempt, ...payout } = row;
  return { payout, attempt: { ...attempt, submitted_at: attempt.submitted_at ? new Date(attempt.submitted_at) : null } };
}

/** The live (latest) attempt of a payout by its transaction_id, the provider reference. */
export async function latestAttemptId(q: Queryable, transactionId: string): Promise<string | null> {
  const r = await q.query<{ id: string }>(
    `SELECT a.id FROM payouts p JOIN payout_attempts a ON a.payout_id = p.id
      WHERE p.transaction_id = $1 ORDER BY a.attempt_no DESC LIMIT 1`,
    [transactionId],
  );
  return r.rows[0]?.id ?? null;
}

export async function updateAttempt(
  q: Queryable,
  u: { id: string; status: PayoutAttemptStatus; bankReference: string | null; utr: string | null; failureReason: string | null },
): Promise<void> {
  await q.query(
    `UPDATE payout_attempts SET status = $2, bank_reference = coalesce($3, bank_reference), utr = coalesce($4, utr),
            failure_reason = coalesce($5, failure_reason), updated_at = now() WHERE id = $1`,
    [u.id, u.status, u.bankReference, u.utr, u.failureReason],
  );
}

export async function updatePayout(
  q: Queryable,
  u: { id: string; status: PayoutStatus; bankReference: string | null; utr: string | null; processedAt: Date | null; failureReason: string | null },
): Promise<void> {
  await q.query(
    `UPDATE payouts SET status = $2, bank_reference = coalesce($3, bank_reference), utr = coalesce($4, utr),
            processed_at = coalesce($5, processed_at), failure_reason = coalesce($6, failure_reason), updated_at = now()
      WHERE id = $1`,
    [u.id, u.status, u.bankReference, u.utr, u.processedAt, u.failureReason],
  );
}

export interface TransitionRow {
  payoutId: string;
  attemptId: string | null;
  entity: 'payout' | 'attempt';
  from: string;
  to: string;
  trigger: string;
  detail: string | null;
}

export async function insertTransitions(q: Queryable, rows: TransitionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO payout_transitions (payout_id, attempt_id, entity, from_status, to_status, trigger, detail)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
    [
      rows.map((r) => r.payoutId), rows.map((r) => r.attemptId), rows.map((r) => r.entity), rows.map((r) => r.from),
      rows.map((r) => r.to), rows.map((r) => r.trigger), rows.map((r) => r.detail),
    ],
  );
}

/**
 * Releases the lease and sets when the attempt is due for its next status inquiry. `submitted`:
 * a submit call just ended; `submitted_at` is stamped now, after the call, so the not-found grace
 * period is counted from a moment no earlier than the request could have reached the bank.
 */
export async function scheduleCheck(
  q: Queryable,
  s: { id: string; delayMs: number; inquired: boolean; lastError: string | null; submitted?: boolean },
): Promise<void> {
  await q.query(
    `UPDATE payout_attempts SET locked_until = NULL, next_check_at = now() + make_interval(secs => $2::double precision / 1000),
            inquiry_count = inquiry_count + CASE WHEN $3 THEN 1 ELSE 0 END, last_error = coalesce($4, last_error),
            submitted_at = CASE WHEN $5 THEN now() ELSE submitted_at END
      WHERE id = $1`,
    [s.id, s.delayMs, s.inquired, s.lastError, s.submitted ?? false],
  );
}

export interface ClaimedAttempt {
  id: string;
  status: PayoutAttemptStatus;
  transaction_id: string;
  inquiry_count: number;
  submitted_at: Date | null;
}

/** Claims unresolved attempts that are due, with a lease (several instances may run workers). */
export async function claimDueAttempts(q: Queryable, limit: number, leaseMs: number): Promise<ClaimedAttempt[]> {
  const r = await q.query<ClaimedAttempt>(
    `UPDATE payout_attempts a SET locked_until = now() + make_interval(secs => $2::double precision / 1000)
       FROM payouts p
      WHERE p.id = a.payout_id AND a.id IN (
            SELECT id FROM payout_attempts
             WHERE status IN ('PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN') AND next_check_at <= now()
               AND (locked_until IS NULL OR locked_until <= now())
             ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING a.id, a.status, p.transaction_id, a.inquiry_count, a.submitted_at`,
    [limit, leaseMs],
  );
  return r.rows;
}

/** What a submit needs: the payout, and the beneficiary's encrypted account number. */
export async function loadSubmission(q: Queryable, attemptId: string): Promise<(PayoutRow & { account_number_enc: Buffer }) | null> {
  const r = await q.query<PayoutRow & { account_number_enc: Buffer }>(
    `SELECT ${PAYOUT_COLUMNS}, b.account_number_enc
       FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id JOIN beneficiaries b ON b.id = p.beneficiary_id
      WHERE a.id = $1`,
    [attemptId],
  );
  return r.rows[0] ?? null;
}

/** Unresolved attempts by status, and the age of the oldest UNKNOWN one, for metrics. */
export async function unresolvedSummary(q: Queryable): Promise<{ status: string; n: number; oldest_s: number }[]> {
  const r = await q.query<{ status: string; n: number; oldest_s: number }>(
    `SELECT status, count(*)::int AS n, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_s
       FROM payout_attempts WHERE status IN ('PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN') GROUP BY status`,
  );
  return r.rows;
}
