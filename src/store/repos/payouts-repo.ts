/** SQL for payouts, their provider attempts and the append-only transition history. */
import { type PayoutAttemptStatus, type PayoutMode, type PayoutStatus, UNRESOLVED_ATTEMPT_STATUSES } from '../../domain/payout.js';
import { coalesced, coalescedLookup } from '../coalesced.js';
import { type PreparedStatement, prepared, type Queryable } from '../db.js';
import { LIST_KEY_COLUMN, type ListFilter, listTail, listWhere } from './list-keyset.js';
import { type CompletedKeyValues, keyedCreateStatements, writeKeyedCreates } from './idempotency-keys-repo.js';

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

export interface NewPayout {
  id: string;
  attemptId: string;
  transactionId: string;
  orgId: string;
  clientPk: string;
  bankConnectionId: string;
  beneficiary: { id: string; name: string; last4: string; ifsc: string; bankName: string };
  amountPaise: number;
  mode: PayoutMode;
  clientReference: string | null;
  remarks: string | null;
  livemode: boolean;
  createdAt: Date;
  /** The creating request holds the attempt this long (it submits right after commit). */
  leaseMs: number;
}

/** A payout to create with the completed idempotency key row that answers for it. */
export interface PayoutCreate {
  payout: NewPayout;
  key: CompletedKeyValues;
}

/**
 * Many payout creates in ONE statement: for each, its completed idempotency key (the CTE `k`
 * returns the ids of the payouts whose key row was written, see idempotency-keys-repo
 * keyedCreateStatements), and only then the payout, its first attempt (PENDING_SUBMIT, held by the
 * creating request for `lease_ms`) and both history rows.
 */
const CREATES = keyedCreateStatements(
  `id uuid, attempt_id uuid, transaction_id text, org_id uuid, client_pk uuid,
       bank_connection_id uuid, beneficiary_id uuid, beneficiary_name text, beneficiary_last4 text, beneficiary_ifsc text,
       beneficiary_bank_name text, amount_paise bigint, mode text, client_reference text, remarks text, livemode boolean,
       created_at timestamptz, lease_ms double precision`,
  `p AS (INSERT INTO payouts (id, transaction_id, org_id, client_pk, bank_connection_id, beneficiary_id, beneficiary_name,
           beneficiary_last4, beneficiary_ifsc, beneficiary_bank_name, amount_paise, mode, client_reference, remarks, livemode, status,
           created_at)
         SELECT v.id, v.transaction_id, v.org_id, v.client_pk, v.bank_connection_id, v.beneficiary_id, v.beneficiary_name,
           v.beneficiary_last4, v.beneficiary_ifsc, v.beneficiary_bank_name, v.amount_paise, v.mode, v.client_reference, v.remarks,
           v.livemode, 'PROCESSING', v.created_at
           FROM v JOIN k ON k.resource_id = v.id RETURNING id),
   a AS (INSERT INTO payout_attempts (id, payout_id, attempt_no, status, next_check_at, locked_until)
         SELECT v.attempt_id, v.id, 1, 'PENDING_SUBMIT', v.created_at + make_interval(secs => v.lease_ms / 1000),
                v.created_at + make_interval(secs => v.lease_ms / 1000)
           FROM v JOIN p ON p.id = v.id RETURNING id, payout_id),
   h AS (INSERT INTO payout_transitions (payout_id, attempt_id, entity, from_status, to_status, trigger)
         SELECT payout_id, NULL, 'payout', NULL, 'PROCESSING', 'created' FROM a
         UNION ALL SELECT payout_id, id, 'attempt', NULL, 'PENDING_SUBMIT', 'created' FROM a)
  SELECT payout_id AS id FROM a`,
);

function writeCreates(q: Queryable, statement: PreparedStatement, creates: PayoutCreate[]): Promise<boolean[]> {
  return writeKeyedCreates(q, statement, creates, ({ payout: p }) => ({
    id: p.id, attempt_id: p.attemptId, transaction_id: p.transactionId, org_id: p.orgId, client_pk: p.clientPk,
    bank_connection_id: p.bankConnectionId, beneficiary_id: p.beneficiary.id, beneficiary_name: p.beneficiary.name,
    beneficiary_last4: p.beneficiary.last4, beneficiary_ifsc: p.beneficiary.ifsc, beneficiary_bank_name: p.beneficiary.bankName,
    amount_paise: p.amountPaise, mode: p.mode, client_reference: p.clientReference, remarks: p.remarks, livemode: p.livemode,
    created_at: p.createdAt, lease_ms: p.leaseMs,
  }));
}

/**
 * Writes a create (payout, first attempt, history and its completed key); whether it was written
 * (false: its key already existed). The creates of a shared transaction take one statement.
 */
export const insertCreate = coalesced<PayoutCreate, boolean>((q, creates) => writeCreates(q, CREATES.newKey, creates));

/** insertCreate for a create whose key it holds (taken over when left in progress); false: the key was no longer held. */
export async function insertHeldCreate(q: Queryable, c: PayoutCreate): Promise<boolean> {
  const [written] = await writeCreates(q, CREATES.heldKey, [c]);
  return written === true;
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

export interface LockedAttempt {
  payout: PayoutRow;
  attempt: AttemptRow;
}

const LOCK_COLUMNS = `${PAYOUT_COLUMNS},
  json_build_object('id', a.id, 'payout_id', a.payout_id, 'attempt_no', a.attempt_no, 'status', a.status,
    'bank_reference', a.bank_reference, 'utr', a.utr, 'failure_reason', a.failure_reason,
    'submitted_at', a.submitted_at, 'inquiry_count', a.inquiry_count) AS attempt`;

// (Every statement that joins a JSON batch to a table also filters the table by `id = ANY(ids)`:
// the planner guesses 100 rows for any json_to_recordset and would scan the whole table.)

// Rows are locked in attempt id order (ORDER BY sorts below the row locks), so two batches that
// share attempts never wait on each other in a cycle.
const LOCK_BY_ATTEMPT = prepared(
  `SELECT ${LOCK_COLUMNS}
     FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id
    WHERE a.id = ANY($1::uuid[]) ORDER BY a.id FOR UPDATE OF a, p`,
);

// The live (latest) attempt of each payout named by its transaction_id, the provider reference.
const LOCK_LATEST_BY_REFERENCE = prepared(
  `SELECT ${LOCK_COLUMNS}
     FROM payouts p JOIN LATERAL (SELECT * FROM payout_attempts x WHERE x.payout_id = p.id ORDER BY x.attempt_no DESC LIMIT 1) a ON true
    WHERE p.transaction_id = ANY($1::text[]) ORDER BY a.id FOR UPDATE OF a, p`,
);

function asLocked(row: PayoutRow & { attempt: AttemptRow }): LockedAttempt {
  const { attempt, ...payout } = row;
  return { payout, attempt: { ...attempt, submitted_at: attempt.submitted_at ? new Date(attempt.submitted_at) : null } };
}

/**
 * Locks an attempt and its payout for a state change, by attempt id; undefined when there is none.
 * The locks of a shared transaction take one statement.
 */
export const lockAttempt = coalescedLookup<PayoutRow & { attempt: AttemptRow }, LockedAttempt>(LOCK_BY_ATTEMPT, (row) => row.attempt.id, asLocked);

/** Locks the latest attempt (and the payout) of a payout, by transaction_id; undefined when there is none. */
export const lockLatestAttempt = coalescedLookup<PayoutRow & { attempt: AttemptRow }, LockedAttempt>(LOCK_LATEST_BY_REFERENCE, (row) => row.transaction_id, asLocked);

/**
 * New values of an attempt; null fields keep what is stored. `delay_ms` (with `inquired`,
 * `last_error`, `submitted`) also schedules its next inquiry and releases its lease, as
 * scheduleChecks does, in the same row update.
 */
export interface AttemptWrite {
  id: string;
  status: PayoutAttemptStatus | null;
  bank_reference: string | null;
  utr: string | null;
  failure_reason: string | null;
  delay_ms: number | null;
  inquired: boolean | null;
  last_error: string | null;
  submitted: boolean | null;
}

/** New values of a payout; null fields keep what is stored. */
export interface PayoutWrite {
  id: string;
  status: PayoutStatus;
  bank_reference: string | null;
  utr: string | null;
  processed_at: Date | null;
  failure_reason: string | null;
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

const WRITE_MOVES = prepared(
  `WITH aw AS (SELECT * FROM json_to_recordset($1::json)
                 AS x(id uuid, status text, bank_reference text, utr text, failure_reason text,
                      delay_ms double precision, inquired boolean, last_error text, submitted boolean)),
        ua AS (UPDATE payout_attempts t SET status = coalesce(aw.status, t.status), bank_reference = coalesce(aw.bank_reference, t.bank_reference),
                      utr = coalesce(aw.utr, t.utr), failure_reason = coalesce(aw.failure_reason, t.failure_reason),
                      updated_at = CASE WHEN aw.status IS NULL THEN t.updated_at ELSE now() END,
                      locked_until = CASE WHEN aw.delay_ms IS NULL THEN t.locked_until END,
                      next_check_at = CASE WHEN aw.delay_ms IS NULL THEN t.next_check_at ELSE now() + make_interval(secs => aw.delay_ms / 1000) END,
                      inquiry_count = t.inquiry_count + CASE WHEN aw.inquired THEN 1 ELSE 0 END, last_error = coalesce(aw.last_error, t.last_error),
                      submitted_at = CASE WHEN aw.submitted THEN now() ELSE t.submitted_at END
                 FROM aw WHERE t.id = aw.id AND t.id = ANY($4::uuid[]) RETURNING 1),
        pw AS (SELECT * FROM json_to_recordset($2::json)
                 AS x(id uuid, status text, bank_reference text, utr text, processed_at timestamptz, failure_reason text)),
        up AS (UPDATE payouts t SET status = pw.status, bank_reference = coalesce(pw.bank_reference, t.bank_reference),
                      utr = coalesce(pw.utr, t.utr), processed_at = coalesce(pw.processed_at, t.processed_at),
                      failure_reason = coalesce(pw.failure_reason, t.failure_reason), updated_at = now()
                 FROM pw WHERE t.id = pw.id AND t.id = ANY($5::uuid[]) RETURNING 1),
        tr AS (INSERT INTO payout_transitions (payout_id, attempt_id, entity, from_status, to_status, trigger, detail)
               SELECT payout_id, attempt_id, entity, from_status, to_status, trigger, detail
                 FROM ROWS FROM (json_to_recordset($3::json)
                        AS (payout_id uuid, attempt_id uuid, entity text, from_status text, to_status text, trigger text, detail text))
                      WITH ORDINALITY AS x(payout_id, attempt_id, entity, from_status, to_status, trigger, detail, n)
                ORDER BY n RETURNING 1)
   SELECT (SELECT count(*) FROM ua)::int AS attempts, (SELECT count(*) FROM up)::int AS payouts`,
);

/** The writes of one payout's state change: its attempt's, its own, and their history rows in order. */
export interface PayoutMoveWrite {
  attempt: AttemptWrite | null;
  payout: PayoutWrite | null;
  transitions: TransitionRow[];
}

/**
 * Writes a payout's state change with its history rows and its attempt's next inquiry; the rows
 * must be locked by the caller. The moves of a shared transaction take one statement, so each
 * row may be in at most one of them (side-by-side.ts runs units with the same key one after the
 * other); a row met twice fails the statement (the count check below), and the shared
 * transaction's units then run again one by one.
 */
export const writeMove = coalesced<PayoutMoveWrite>(async (q, moves) => {
  const attempts = moves.flatMap((m) => (m.attempt ? [m.attempt] : []));
  const payouts = moves.flatMap((m) => (m.payout ? [m.payout] : []));
  const transitions = moves.flatMap((m) => m.transitions).map((t) => ({
    payout_id: t.payoutId, attempt_id: t.attemptId, entity: t.entity, from_status: t.from, to_status: t.to, trigger: t.trigger, detail: t.detail,
  }));
  const r = await q.query<{ attempts: number; payouts: number }>(WRITE_MOVES, [
    JSON.stringify(attempts), JSON.stringify(payouts), JSON.stringify(transitions), attempts.map((a) => a.id), payouts.map((p) => p.id),
  ]);
  const done = r.rows[0]!;
  if (done.attempts !== attempts.length || done.payouts !== payouts.length) {
    throw new Error(`payout moves not all written (attempts ${done.attempts}/${attempts.length}, payouts ${done.payouts}/${payouts.length})`);
  }
});

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
