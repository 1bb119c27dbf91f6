/**
 * The one place where a payout or one of its attempts changes state. Every move is checked
 * against the transition tables of src/domain/payout.ts (planStateChange) and written with its
 * append-only history (payout_transitions) and, when the payout itself moves, its event in the
 * outbox, all in the caller's transaction (PayoutMove.write). Callers lock the rows first
 * (payouts-repo lockAttempt / lockLatestAttempt). One PayoutMove is one piece of news about one
 * payout. Units of work with the same key run one after the other (store/side-by-side.ts: the
 * intake keys a payout's callbacks by its reference, so each decides on what the one before
 * wrote); held attempts are keyed by attempt, and a payout row met twice in one coalesced write
 * fails it, so that every unit runs again alone (payouts-repo writeMove).
 */
import {
  assertAttemptTransition,
  assertPayoutTransition,
  canTransitionAttempt,
  isValidUtr,
  type PayoutAttemptStatus,
  payoutStatusForAttempt,
} from '../../domain/payout.js';
import type { Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/payouts-repo.js';
import { type EventInput, recordEvent } from '../callbacks/events.js';
import { failedEventData, reversedEventData, successEventData } from './payout-view.js';

/** What we learnt about an attempt, from a submit answer, a status inquiry or a callback. */
export type AttemptUpdate =
  | { kind: 'accepted'; bankReference: string }
  | { kind: 'succeeded'; bankReference: string; utr: string; processedAt: Date }
  | { kind: 'failed'; bankReference: string | null; reason: string }
  /** The provider undid the transfer: SUCCESS → REVERSED; before any success it counts as 'failed'. */
  | { kind: 'reversed'; bankReference: string; reason: string; reversedAt: Date }
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
  reversed: 'REVERSED',
  unknown: 'UNKNOWN',
  not_executed: 'NOT_EXECUTED',
};

export type Locked = repo.LockedAttempt;

function detailOf(change: StateChange): string | null {
  switch (change.kind) {
    case 'unknown':
      return change.error;
    case 'not_executed':
      return change.detail;
    case 'failed':
    case 'reversed':
    case 'payout_failed':
      return change.reason;
    default:
      return null;
  }
}

/**
 * What one piece of news does to one locked payout, for one transaction: at most one move of the
 * attempt (with, for a holder, its next inquiry in the same row write), at most one move of the
 * payout (with its event), and their history rows in order. A second move of the same row would
 * be a second piece of news, which is a unit of its own; it is refused here, not merged.
 */
export class PayoutMove {
  private attemptMove: Pick<repo.AttemptWrite, 'status' | 'bank_reference' | 'utr' | 'failure_reason'> | null = null;
  private check: Pick<repo.AttemptWrite, 'delay_ms' | 'inquired' | 'last_error' | 'submitted'> | null = null;
  private payoutMove: repo.PayoutWrite | null = null;
  private event: EventInput | null = null;
  private readonly transitions: repo.TransitionRow[] = [];

  constructor(
    readonly locked: Locked,
    readonly now = new Date(),
  ) {}

  moveAttempt(w: Pick<repo.AttemptWrite, 'status' | 'bank_reference' | 'utr' | 'failure_reason'>, history: repo.TransitionRow): void {
    if (this.attemptMove) throw new Error(`attempt ${this.locked.attempt.id} moved twice by one piece of news`);
    this.attemptMove = w;
    this.transitions.push(history);
  }

  /** The attempt's next status inquiry (and the end of its holder's lease), written with its move if it has one. */
  scheduleCheck(c: Omit<repo.CheckSchedule, 'id'>): void {
    this.check = { delay_ms: c.delayMs, inquired: c.inquired, last_error: c.lastError, submitted: c.submitted ?? false };
  }

  movePayout(w: repo.PayoutWrite, history: repo.TransitionRow, event: EventInput | null): void {
    if (this.payoutMove) throw new Error(`payout ${this.locked.payout.id} moved twice by one piece of news`);
    this.payoutMove = w;
    this.transitions.push(history);
    this.event = event;
  }

  /** The attempt's row write: its move and its next inquiry, each null where it has none. */
  private attemptWrite(): repo.AttemptWrite | null {
    if (!this.attemptMove && !this.check) return null;
    return {
      id: this.locked.attempt.id,
      ...(this.attemptMove ?? { status: null, bank_reference: null, utr: null, failure_reason: null }),
      ...(this.check ?? { delay_ms: null, inquired: null, last_error: null, submitted: null }),
    };
  }

  /** One coalesced row write, then the event (the units of a shared transaction share both statements). */
  async write(tx: Queryable): Promise<void> {
    const attempt = this.attemptWrite();
    if (!attempt && !this.payoutMove) return;
    await repo.writeMove(tx, { attempt, payout: this.payoutMove, transitions: this.transitions });
    if (this.event) await recordEvent(tx, this.event, this.now);
  }
}

/**
 * Checks a change of the locked attempt (or its payout) against the transition tables and adds
 * what it takes to `move`. The locked rows are updated in memory to what the write will leave, so
 * that a decision of the same piece of news that follows (a payout failed after the attempt's
 * last non-execution) is taken on this one. Writes nothing itself.
 */
export function planStateChange(move: PayoutMove, reported: StateChange): ChangeResult {
  const { payout, attempt } = move.locked;
  // A reversal of a transfer we never saw succeed (RazorpayX `processing` → `reversed`, or its
  // `payout.reversed` webhook arriving before `payout.processed`) moved no money in the end: it is
  // the attempt's failure. Only a SUCCESS can become REVERSED.
  const change: StateChange =
    reported.kind === 'reversed' && attempt.status !== 'SUCCESS' && attempt.status !== 'REVERSED'
      ? { kind: 'failed', bankReference: reported.bankReference, reason: `reversed by the provider: ${reported.reason}` }
      : reported;
  const now = move.now;
  if (change.kind === 'payout_failed') {
    if (payout.status === 'FAILED') return 'unchanged';
    const trigger = assertPayoutTransition(payout.status, 'FAILED');
    move.movePayout(
      { id: payout.id, status: 'FAILED', bank_reference: null, utr: null, processed_at: null, failure_reason: change.reason },
      { payoutId: payout.id, attemptId: null, entity: 'payout', from: payout.status, to: 'FAILED', trigger, detail: change.reason },
      {
        orgId: payout.org_id, kind: 'payout.failed', aggregateType: 'payout', aggregateId: payout.id,
        data: failedEventData(payout, { reason: change.reason, bankReference: payout.bank_reference, failedAt: now }),
      },
    );
    payout.status = 'FAILED';
    payout.failure_reason = change.reason;
    return 'applied';
  }

  const to = TARGET[change.kind];
  if (attempt.status === to) return 'unchanged';
  if (!canTransitionAttempt(attempt.status, to)) return 'stale';
  if (change.kind === 'succeeded' && !isValidUtr(payout.mode, change.utr)) return 'invalid_utr';
  const trigger = assertAttemptTransition(attempt.status, to);

  const bankReference =
    change.kind === 'accepted' || change.kind === 'succeeded' || change.kind === 'failed' || change.kind === 'reversed' ? change.bankReference : null;
  const utr = change.kind === 'succeeded' ? change.utr : null;
  const reason = change.kind === 'failed' || change.kind === 'reversed' ? change.reason : null;
  move.moveAttempt(
    { status: to, bank_reference: bankReference, utr, failure_reason: reason },
    { payoutId: payout.id, attemptId: attempt.id, entity: 'attempt', from: attempt.status, to, trigger, detail: detailOf(change) },
  );
  attempt.status = to;
  attempt.bank_reference = bankReference ?? attempt.bank_reference;
  attempt.utr = utr ?? attempt.utr;
  attempt.failure_reason = reason ?? attempt.failure_reason;

  const payoutTo = payoutStatusForAttempt(to);
  if (payoutTo !== payout.status) {
    const payoutTrigger = assertPayoutTransition(payout.status, payoutTo);
    const processedAt = change.kind === 'succeeded' ? change.processedAt : null;
    const event: EventInput | null =
      change.kind === 'succeeded'
        ? { orgId: payout.org_id, kind: 'payout.success', aggregateType: 'payout', aggregateId: payout.id, data: successEventData(payout, change) }
        : change.kind === 'failed'
          ? {
              orgId: payout.org_id, kind: 'payout.failed', aggregateType: 'payout', aggregateId: payout.id,
              data: failedEventData(payout, { reason: change.reason, bankReference: change.bankReference, failedAt: now }),
            }
          : change.kind === 'reversed'
            ? {
                orgId: payout.org_id, kind: 'payout.reversed', aggregateType: 'payout', aggregateId: payout.id,
                data: reversedEventData(payout, {
                  reason: change.reason, bankReference: change.bankReference ?? payout.bank_reference, utr: payout.utr, processedAt: payout.processed_at, reversedAt: change.reversedAt,
                }),
              }
            : null;
    move.movePayout(
      { id: payout.id, status: payoutTo, bank_reference: bankReference, utr, processed_at: processedAt, failure_reason: reason },
      { payoutId: payout.id, attemptId: attempt.id, entity: 'payout', from: payout.status, to: payoutTo, trigger: payoutTrigger, detail: null },
      event,
    );
    payout.status = payoutTo;
    payout.bank_reference = bankReference ?? payout.bank_reference;
    payout.utr = utr ?? payout.utr;
    payout.processed_at = processedAt ?? payout.processed_at;
    payout.failure_reason = reason ?? payout.failure_reason;
  }
  return 'applied';
}
