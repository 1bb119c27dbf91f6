/**
 * The provider checks log (migration 0029): one row per status call the service made with a
 * provider about a payment order or a payout attempt, and the console's read of one subject's rows.
 */
import type { Queryable } from '../db.js';
import { newRowId } from '../row-id.js';

export type CheckAnswer = 'NOT_FOUND' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'REVERSED' | 'NO_ANSWER';

export interface CheckFacts {
  reason: string;
  provider: string;
  reference: string;
  answer: CheckAnswer;
  detail: Record<string, unknown> | null;
  outcome: string;
  durationMs: number;
}

/** A check of a payment order (live check, expiry worker's final check); its organization comes from the order. */
export async function insertOrderCheck(q: Queryable, orderId: string, c: CheckFacts): Promise<void> {
  await q.query(
    `INSERT INTO provider_checks (id, org_id, subject_type, subject_id, reason, provider, reference, answer, detail, outcome, duration_ms)
     SELECT $1, o.org_id, 'payment_order', o.id, $3, $4, $5, $6, $7, $8, $9 FROM payment_orders o WHERE o.id = $2`,
    [newRowId(), orderId, c.reason, c.provider, c.reference, c.answer, c.detail, c.outcome, Math.round(c.durationMs)],
  );
}

/** An inquiry of a payout attempt; the payout, its organization and the attempt's number come from the attempt. */
export async function insertAttemptInquiry(q: Queryable, attemptId: string, c: CheckFacts): Promise<void> {
  await q.query(
    `INSERT INTO provider_checks (id, org_id, subject_type, subject_id, attempt_id, attempt_no, reason, provider, reference, answer, detail, outcome, duration_ms)
     SELECT $1, p.org_id, 'payout', p.id, a.id, a.attempt_no, $3, $4, $5, $6, $7, $8, $9
       FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id WHERE a.id = $2`,
    [newRowId(), attemptId, c.reason, c.provider, c.reference, c.answer, c.detail, c.outcome, Math.round(c.durationMs)],
  );
}

export interface CheckRow {
  id: string;
  attempt_no: number | null;
  reason: string;
  provider: string;
  reference: string;
  answer: CheckAnswer;
  detail: Record<string, unknown> | null;
  outcome: string;
  duration_ms: number;
  checked_at: Date;
}

/** One subject's newest checks, newest first (the organization is part of the key: another's are never read). */
export async function checksOf(q: Queryable, orgId: string, subjectType: 'payment_order' | 'payout', subjectId: string, limit = 500): Promise<CheckRow[]> {
  const r = await q.query<CheckRow>(
    `SELECT id, attempt_no, reason, provider, reference, answer, detail, outcome, duration_ms, checked_at
       FROM provider_checks WHERE subject_id = $1 AND org_id = $2 AND subject_type = $3
      ORDER BY checked_at DESC, id DESC LIMIT $4`,
    [subjectId, orgId, subjectType, limit],
  );
  return r.rows;
}
