/**
 * Every statement that changes a payout row: its create (one INSERT for the three channels: API,
 * console, bulk row), the locks a change takes, a change with its history rows, and a new attempt.
 * Used only by the payout writer (services/payouts/payout-writer.ts), which decides what to write.
 */
import type { PayoutAttemptStatus, PayoutMode, PayoutStatus } from '../../domain/payout.js';
import { coalesced, coalescedLookup } from '../shared-transactions.js';
import { type PreparedStatement, prepared, type Queryable } from '../db.js';
import { type CompletedKeyValues, keyedCreateStatements, writeKeyedCreates } from './idempotency-keys-repo.js';
import { APPROVAL_COLUMNS, type ApprovalRow } from './payout-approvals-repo.js';
import { type AttemptRow, PAYOUT_COLUMNS, type PayoutRow } from './payouts-repo.js';

/** A payout to create, whatever its channel (the writer fills status and approval from the channel). */
export interface NewPayout {
  id: string;
  /** Its first attempt (PENDING_SUBMIT, held by the creating request for `leaseMs`); null: none yet (waiting for approval). */
  attemptId: string | null;
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
  leaseMs: number;
  status: PayoutStatus;
  approvalRequired: boolean;
  makerUserId: string | null;
  /** Set at create only for a bulk row, whose file a checker approved as a whole (stamps decided_at). */
  checkerUserId: string | null;
  /** The bulk file row this payout is made for; unique, so a row is never made twice. */
  bulk: { fileId: string; line: number } | null;
}

/** A payout to create with the completed idempotency key row that answers for it. */
export interface PayoutCreate {
  payout: NewPayout;
  key: CompletedKeyValues;
}

const NEW_PAYOUT_COLUMNS = `id uuid, attempt_id uuid, transaction_id text, org_id uuid, client_pk uuid,
       bank_connection_id uuid, beneficiary_id uuid, beneficiary_name text, beneficiary_last4 text, beneficiary_ifsc text,
       beneficiary_bank_name text, amount_paise bigint, mode text, client_reference text, remarks text, livemode boolean,
       status text, approval_required boolean, maker_user_id uuid, checker_user_id uuid, bulk_file_id uuid, bulk_line integer,
       created_at timestamptz, lease_ms double precision`;

/**
 * The one INSERT of payouts: from the records `source` yields, the payouts (`p`), the first attempt
 * of those that have one (`a`), and their history rows (`h`: the payouts' first, then the attempts').
 */
function insertPayoutsCtes(source: string, onConflict = ''): string {
  return `p AS (INSERT INTO payouts (id, transaction_id, org_id, client_pk, bank_connection_id, beneficiary_id, beneficiary_name,
           beneficiary_last4, beneficiary_ifsc, beneficiary_bank_name, amount_paise, mode, client_reference, remarks, livemode, status,
           approval_required, maker_user_id, checker_user_id, decided_at, bulk_file_id, bulk_line, created_at)
         SELECT v.id, v.transaction_id, v.org_id, v.client_pk, v.bank_connection_id, v.beneficiary_id, v.beneficiary_name,
           v.beneficiary_last4, v.beneficiary_ifsc, v.beneficiary_bank_name, v.amount_paise, v.mode, v.client_reference, v.remarks,
           v.livemode, v.status, v.approval_required, v.maker_user_id, v.checker_user_id,
           CASE WHEN v.checker_user_id IS NULL THEN NULL ELSE now() END, v.bulk_file_id, v.bulk_line, v.created_at
           FROM ${source} ${onConflict} RETURNING id, status),
   a AS (INSERT INTO payout_attempts (id, payout_id, attempt_no, status, next_check_at, locked_until)
         SELECT v.attempt_id, v.id, 1, 'PENDING_SUBMIT', v.created_at + make_interval(secs => v.lease_ms / 1000),
                v.created_at + make_interval(secs => v.lease_ms / 1000)
           FROM v JOIN p ON p.id = v.id WHERE v.attempt_id IS NOT NULL RETURNING id, payout_id),
   h AS (INSERT INTO payout_transitions (payout_id, attempt_id, entity, from_status, to_status, trigger)
         SELECT id, NULL, 'payout', NULL, status, 'created' FROM p
         UNION ALL SELECT payout_id, id, 'attempt', NULL, 'PENDING_SUBMIT', 'created' FROM a)`;
}

function recordOf(p: NewPayout) {
  return {
    id: p.id, attempt_id: p.attemptId, transaction_id: p.transactionId, org_id: p.orgId, client_pk: p.clientPk,
    bank_connection_id: p.bankConnectionId, beneficiary_id: p.beneficiary.id, beneficiary_name: p.beneficiary.name,
    beneficiary_last4: p.beneficiary.last4, beneficiary_ifsc: p.beneficiary.ifsc, beneficiary_bank_name: p.beneficiary.bankName,
    amount_paise: p.amountPaise, mode: p.mode, client_reference: p.clientReference, remarks: p.remarks, livemode: p.livemode,
    status: p.status, approval_required: p.approvalRequired, maker_user_id: p.makerUserId, checker_user_id: p.checkerUserId,
    bulk_file_id: p.bulk?.fileId ?? null, bulk_line: p.bulk?.line ?? null, created_at: p.createdAt, lease_ms: p.leaseMs,
  };
}

/** Keyed creates (API): each with its completed idempotency key; only those whose key row was written go in. */
const KEYED = keyedCreateStatements(NEW_PAYOUT_COLUMNS, `${insertPayoutsCtes('v JOIN k ON k.resource_id = v.id')} SELECT id FROM p`);

const PLAIN = prepared(`WITH v AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS v(${NEW_PAYOUT_COLUMNS})),
     ${insertPayoutsCtes('v')} SELECT id FROM p`);

// A bulk row's payout is made at most once (unique by file and line); the row is linked to it.
const BULK_ROW = prepared(`WITH v AS MATERIALIZED (SELECT * FROM json_to_recordset($1::json) AS v(${NEW_PAYOUT_COLUMNS})),
     ${insertPayoutsCtes('v', 'ON CONFLICT (bulk_file_id, bulk_line) WHERE bulk_file_id IS NOT NULL DO NOTHING')},
     r AS (UPDATE bulk_payout_rows b SET payout_id = p.id FROM p JOIN v ON v.id = p.id
            WHERE b.file_id = v.bulk_file_id AND b.line = v.bulk_line RETURNING b.payout_id)
   SELECT payout_id AS id FROM r`);

function writeKeyed(q: Queryable, statement: PreparedStatement, creates: PayoutCreate[]): Promise<boolean[]> {
  return writeKeyedCreates(q, statement, creates, ({ payout }) => recordOf(payout));
}

/**
 * Writes a keyed create (payout, first attempt, history and its completed key); whether it was
 * written (false: its key already existed). The creates of a shared transaction take one statement.
 */
export const insertKeyedCreate = coalesced<PayoutCreate, boolean>((q, creates) => writeKeyed(q, KEYED.newKey, creates));

/** insertKeyedCreate for a create whose key it holds (taken over when left in progress); false: the key was no longer held. */
export async function insertHeldKeyedCreate(q: Queryable, c: PayoutCreate): Promise<boolean> {
  const [written] = await writeKeyed(q, KEYED.heldKey, [c]);
  return written === true;
}

/** A payout without a key of its own (the console's, whose key the caller completes); whether it was written. */
export async function insertPayout(q: Queryable, p: NewPayout): Promise<boolean> {
  const r = await q.query<{ id: string }>(p.bulk ? BULK_ROW : PLAIN, [JSON.stringify([recordOf(p)])]);
  return r.rows.length === 1;
}

/** A new attempt (after a proven non-execution, or at approval), held by the caller who will submit it. */
export async function insertAttempt(q: Queryable, a: { id: string; payoutId: string; attemptNo: number; leaseMs: number }): Promise<void> {
  await q.query(
    `INSERT INTO payout_attempts (id, payout_id, attempt_no, status, next_check_at, locked_until)
     VALUES ($1, $2, $3, 'PENDING_SUBMIT', now() + make_interval(secs => $4::double precision / 1000),
             now() + make_interval(secs => $4::double precision / 1000))`,
    [a.id, a.payoutId, a.attemptNo, a.leaseMs],
  );
}

/** Locks one payout of the organization for a checker's decision (two checkers at once: the second waits, then sees the first's decision). */
export async function lockOrgPayout(q: Queryable, orgId: string, id: string): Promise<ApprovalRow | null> {
  const r = await q.query<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM payouts p WHERE p.id = $1 AND p.org_id = $2 FOR UPDATE`, [id, orgId]);
  return r.rows[0] ?? null;
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
  /** A checker's decision (console payouts): who, and the rejection note; stamps decided_at. */
  checker_user_id: string | null;
  decision_note: string | null;
}

export interface TransitionRow {
  payoutId: string;
  attemptId: string | null;
  entity: 'payout' | 'attempt';
  /** null: the row was opened by this change. */
  from: string | null;
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
                 AS x(id uuid, status text, bank_reference text, utr text, processed_at timestamptz, failure_reason text,
                      checker_user_id uuid, decision_note text)),
        up AS (UPDATE payouts t SET status = pw.status, bank_reference = coalesce(pw.bank_reference, t.bank_reference),
                      utr = coalesce(pw.utr, t.utr), processed_at = coalesce(pw.processed_at, t.processed_at),
                      failure_reason = coalesce(pw.failure_reason, t.failure_reason), checker_user_id = coalesce(pw.checker_user_id, t.checker_user_id),
                      decided_at = CASE WHEN pw.checker_user_id IS NULL THEN t.decided_at ELSE now() END,
                      decision_note = coalesce(pw.decision_note, t.decision_note), updated_at = now()
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
 * row may be in at most one of them (shared-transactions.ts runs units with the same key one after the
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

