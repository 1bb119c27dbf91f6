/**
 * SQL that reads payouts and their provider attempts, and the payout worker's claims and schedule.
 * Every change of a payout row (create, decision, move) is in payout-writes-repo.ts, used only by
 * the one writer, services/payouts/payout-writer.ts.
 */
import { type PayoutAttemptStatus, type PayoutMode, type PayoutStatus, UNRESOLVED_ATTEMPT_STATUSES } from '../../domain/payout.js';
import { prepared, type Queryable } from '../db.js';
import { LIST_KEY_COLUMN, type ListFilter, listTail, listWhere } from './list-keyset.js';

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
  currency: 'INR';
  mode: PayoutMode;
  client_reference: string | null;
  remarks: string | null;
  status: PayoutStatus;
  failure_reason: string | null;
  bank_reference: string | null;
  utr: string | null;
  processed_at: Date | null;
  /** Fixed at create from the provider's `livemode` (false: sandbox, no real money). */
  livemode: boolean;
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

export const PAYOUT_COLUMNS = `p.id, p.transaction_id, p.org_id, p.client_pk, p.beneficiary_id, p.beneficiary_name, p.beneficiary_last4,
  p.beneficiary_ifsc, p.beneficiary_bank_name, p.amount_paise, p.currency, p.mode, p.client_reference, p.remarks, p.status,
  p.failure_reason, p.bank_reference, p.utr, p.processed_at, p.livemode, p.created_at`;

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

export interface CheckSchedule {
  id: string;
  delayMs: number;
  inquired: boolean;
  lastError: string | null;
  submitted?: boolean;
}

const SCHEDULE_CHECKS = prepared(
  `UPDATE payout_attempts t SET locked_until = NULL, next_check_at = now() + make_interval(secs => s.delay_ms / 1000),
          inquiry_count = t.inquiry_count + CASE WHEN s.inquired THEN 1 ELSE 0 END, last_error = coalesce(s.last_error, t.last_error),
          submitted_at = CASE WHEN s.submitted THEN now() ELSE t.submitted_at END
     FROM json_to_recordset($1::json) AS s(id uuid, delay_ms double precision, inquired boolean, last_error text, submitted boolean)
    WHERE t.id = s.id AND t.id = ANY($2::uuid[])`,
);

/**
 * Releases each attempt's lease and sets when it is due for its next status inquiry, in one
 * statement (each attempt at most once). `submitted`: a submit call just ended; `submitted_at` is
 * stamped now, after the call, so the not-found grace period is counted from a moment no earlier
 * than the request could have reached the bank.
 */
export async function scheduleChecks(q: Queryable, checks: CheckSchedule[]): Promise<void> {
  if (checks.length === 0) return;
  await q.query(SCHEDULE_CHECKS, [
    JSON.stringify(checks.map((c) => ({ id: c.id, delay_ms: c.delayMs, inquired: c.inquired, last_error: c.lastError, submitted: c.submitted ?? false }))),
    checks.map((c) => c.id),
  ]);
}

export interface ClaimedAttempt {
  id: string;
  status: PayoutAttemptStatus;
  transaction_id: string;
  inquiry_count: number;
  submitted_at: Date | null;
  /** The payout's bank connection: its provider account answers the inquiry. */
  bank_connection_id: string;
}

/** Claims unresolved attempts that are due, with a lease (several instances may run workers). */
export async function claimDueAttempts(q: Queryable, limit: number, leaseMs: number): Promise<ClaimedAttempt[]> {
  const r = await q.query<ClaimedAttempt>(
    `UPDATE payout_attempts a SET locked_until = now() + make_interval(secs => $2::double precision / 1000)
       FROM payouts p
      WHERE p.id = a.payout_id AND a.id IN (
            SELECT id FROM payout_attempts
             WHERE status = ANY($3::text[]) AND next_check_at <= now()
               AND (locked_until IS NULL OR locked_until <= now())
             ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING a.id, a.status, p.transaction_id, a.inquiry_count, a.submitted_at, p.bank_connection_id`,
    [limit, leaseMs, UNRESOLVED_ATTEMPT_STATUSES],
  );
  return r.rows;
}

/** What a submit needs: the payout, and the beneficiary's encrypted account number. */
export async function loadSubmission(q: Queryable, attemptId: string): Promise<(PayoutRow & { account_number_enc: Buffer; bank_connection_id: string }) | null> {
  const r = await q.query<PayoutRow & { account_number_enc: Buffer; bank_connection_id: string }>(
    `SELECT ${PAYOUT_COLUMNS}, b.account_number_enc, p.bank_connection_id
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
       FROM payout_attempts WHERE status = ANY($1::text[]) GROUP BY status`,
    [UNRESOLVED_ATTEMPT_STATUSES],
  );
  return r.rows;
}

/** One page of a client's payouts with their attempts, newest first (the merchant list, contract §7): limit + 1 rows. */
export async function listForClient(q: Queryable, f: ListFilter): Promise<Array<{ id: string; payout: PayoutRow; attempts: AttemptRow[]; list_key_us: string }>> {
  const w = listWhere(f, 'p');
  const r = await q.query<PayoutRow & { attempts: AttemptRow[]; list_key_us: string }>(
    prepared(`SELECT ${PAYOUT_COLUMNS}, ${LIST_KEY_COLUMN('p')},
            (SELECT coalesce(json_agg(json_build_object('status', a.status, 'bank_reference', a.bank_reference, 'utr', a.utr) ORDER BY a.attempt_no), '[]')
               FROM payout_attempts a WHERE a.payout_id = p.id) AS attempts
       FROM payouts p WHERE ${w.where} ${listTail('p', f, w.params)}`),
    w.params,
  );
  return r.rows.map(({ attempts, list_key_us, ...payout }) => ({ id: payout.id, payout, attempts, list_key_us }));
}
