/**
 * The one place where a payout or one of its attempts changes state. Every move is checked
 * against the transition tables of src/domain/payout.ts, written to the append-only history
 * (payout_transitions) and, when the payout itself moves, to the event outbox, all in the caller's
 * transaction. Callers lock the rows first (payouts-repo lockAttempt).
 */
import {
  assertAttemptTransition,
  assertPayoutTransition,
  canTransitionAttempt,
  isValidUtr,
  type PayoutAttemptStatus,
  payoutStatusForAttempt,
} from '../domain/payout.js';
import type { Queryable } from '../store/db.js';
import * as repo from '../store/repos/payouts-repo.js';
import { recordEvent } from './events.js';
import { failedEventData, successEventData } from './payout-view.js';

/** What we learnt about an attempt, from a submit answer, a status inquiry or a callback. */
export type AttemptUpdate =
  | { kind: 'accepted'; bankReference: string }
  | { kind: 'succeeded'; bankReference: string; utr: string; processedAt: Date }
  | { kind: 'failed'; bankReference: string | null; reason: string }
  | { kind: 'unknown'; error: string }
  | { kind: 'not_executed'; detail: string };

/** A payout decision that no attempt makes: giving up after proven non-executions. */
export type PayoutChange = { kind: 'payout_failed'; reason: string };

export type StateChange = AttemptUpdate | PayoutChange;

/**
 * - applied: the state moved.
 * - unchanged: already in that state (a duplicate callback, a repeated inquiry answer).
 * - stale: the move is not in the table from the current state (e.g. a late "unknown" after a
 *   callback already said "accepted", or anything after a final state); nothing is written.
 * - invalid_utr: a success without a UTR of the mode's shape is never recorded as success.
 */
export type ChangeResult = 'applied' | 'unchanged' | 'stale' | 'invalid_utr';

const TARGET: Record<AttemptUpdate['kind'], PayoutAttemptStatus> = {
  accepted: 'PROCESSING',
  succeeded: 'SUCCESS',
  failed: 'FAILED',
  unknown: 'UNKNOWN',
  not_executed: 'NOT_EXECUTED',
};

export interface Locked {
  payout: repo.PayoutRow;
  attempt: repo.AttemptRow;
}

function detailOf(change: StateChange): string | null {
  switch (change.kind) {
    case 'unknown':
      return change.error;
    case 'not_executed':
      return change.detail;
    case 'failed':
    case 'payout_failed':
      return change.reason;
    default:
      return null;
  }
}

export async function applyStateChange(tx: Queryable, locked: Locked, change: StateChange, now = new Date()): Promise<ChangeResult> {
  const { payout, attempt } = locked;
  if (change.kind === 'payout_failed') {
    if (payout.status === 'FAILED') return 'unchanged';
    const trigger = assertPayoutTransition(payout.status, 'FAILED');
    await repo.updatePayout(tx, { id: payout.id, status: 'FAILED', bankReference: null, utr: null, processedAt: null, failureReason: change.reason });
    await repo.insertTransitions(tx, [
      { payoutId: payout.id, attemptId: null, entity: 'payout', from: payout.status, to: 'FAILED', trigger, detail: change.reason },
    ]);
    await recordEvent(tx, {
      orgId: payout.org_id, kind: 'payout.failed', aggregateType: 'payout', aggregateId: payout.id,
      data: failedEventData(payout, { reason: change.reason, bankReference: payout.bank_reference, failedAt: now }),
    }, now);
    payout.status = 'FAILED';
    return 'applied';
  }

  const to = TARGET[change.kind];
  if (attempt.status === to) return 'unchanged';
  if (!canTransitionAttempt(attempt.status, to)) return 'stale';
  if (change.kind === 'succeeded' && !isValidUtr(payout.mode, change.utr)) return 'invalid_utr';
  const trigger = assertAttemptTransition(attempt.status, to);

  const bankReference = change.kind === 'accepted' || change.kind === 'succeeded' || change.kind === 'failed' ? change.bankReference : null;
  const utr = change.kind === 'succeeded' ? change.utr : null;
  const reason = change.kind === 'failed' ? change.reason : null;
  await repo.updateAttempt(tx, { id: attempt.id, status: to, bankReference, utr, failureReason: reason });
  const history: repo.TransitionRow[] = [
    { payoutId: payout.id, attemptId: attempt.id, entity: 'attempt', from: attempt.status, to, trigger, detail: detailOf(change) },
  ];
  attempt.status = to;

  const payoutTo = payoutStatusForAttempt(to);
  if (payoutTo !== payout.status) {
    const payoutTrigger = assertPayoutTransition(payout.status, payoutTo);
    const processedAt = change.kind === 'succeeded' ? change.processedAt : null;
    await repo.updatePayout(tx, { id: payout.id, status: payoutTo, bankReference, utr, processedAt, failureReason: reason });
    history.push({ payoutId: payout.id, attemptId: attempt.id, entity: 'payout', from: payout.status, to: payoutTo, trigger: payoutTrigger, detail: null });
    if (change.kind === 'succeeded') {
      await recordEvent(tx, {
        orgId: payout.org_id, kind: 'payout.success', aggregateType: 'payout', aggregateId: payout.id,
        data: successEventData(payout, change),
      }, now);
    } else if (change.kind === 'failed') {
      await recordEvent(tx, {
        orgId: payout.org_id, kind: 'payout.failed', aggregateType: 'payout', aggregateId: payout.id,
        data: failedEventData(payout, { reason: change.reason, bankReference: change.bankReference, failedAt: now }),
      }, now);
    }
    payout.status = payoutTo;
  }
  await repo.insertTransitions(tx, history);
  return 'applied';
}
