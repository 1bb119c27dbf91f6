/**
 * The one place where a payout or one of its attempts changes state. Every move is checked
 * against the transition tables of src/domain/payout.ts (planStateChange) and written with its
 * append-only history (payout_transitions) and, when the payout itself moves, its event in the
 * outbox, all in the caller's transaction (PayoutChanges.write). Callers lock the rows first
 * (payouts-repo lockAttempts / lockLatestAttempts).
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
import { type EventInput, recordEvents } from '../callbacks/events.js';
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

const NO_CHECK = { delay_ms: null, inquired: null, last_error: null, submitted: null } as const;
const NO_MOVE = { status: null, bank_reference: null, utr: null, failure_reason: null } as const;

/** Null keeps what is stored (the writes are `coalesce(new, stored)`), so a later write wins field by field. */
function merged<W extends object>(earlier: W | undefined, later: W): W {
  if (!earlier) return later;
  const out = { ...later };
  for (const key of Object.keys(earlier) as Array<keyof W>) {
    if (out[key] === null) out[key] = earlier[key];
  }
  return out;
}

/**
 * The writes of any number of state changes, for one transaction: one write per attempt and per
 * payout (successive moves of the same row merged, exactly as writing them one after another
 * would leave it), their history rows in order, and their events. Written with two statements.
 */
export class PayoutChanges {
  private readonly attempts = new Map<string, repo.AttemptWrite>();
  private readonly payouts = new Map<string, repo.PayoutWrite>();
  private readonly transitions: repo.TransitionRow[] = [];
  private readonly events: EventInput[] = [];

  constructor(readonly now = new Date()) {}

  moveAttempt(w: Pick<repo.AttemptWrite, 'id' | 'status' | 'bank_reference' | 'utr' | 'failure_reason'>, history: repo.TransitionRow): void {
    this.attempts.set(w.id, merged(this.attempts.get(w.id), { ...NO_CHECK, ...w }));
    this.transitions.push(history);
  }

  /** The attempt's next status inquiry (and the end of its holder's lease), written with its move if it has one. */
  scheduleCheck(c: repo.CheckSchedule): void {
    const w: repo.AttemptWrite = {
      ...NO_MOVE,
      id: c.id,
      delay_ms: c.delayMs,
      inquired: c.inquired,
      last_error: c.lastError,
      submitted: c.submitted ?? false,
    };
    this.attempts.set(c.id, merged(this.attempts.get(c.id), w));
  }

  movePayout(w: repo.PayoutWrite, history: repo.TransitionRow, event: EventInput | null): void {
    this.payouts.set(w.id, merged(this.payouts.get(w.id), w));
    this.transitions.push(history);
    if (event) this.events.push(event);
  }

  async write(tx: Queryable): Promise<void> {
    await repo.writeMoves(tx, { attempts: [...this.attempts.values()], payouts: [...this.payouts.values()], transitions: this.transitions });
    await recordEvents(tx, this.events, this.now);
  }
}

/**
 * Checks a change of a locked attempt (or its payout) against the transition tables and adds
 * what it takes to `changes`; the locked rows are updated in memory, so the next change of the
 * same payout is decided on this one. Writes nothing itself.
 */
export function planStateChange(changes: PayoutChanges, locked: Locked, reported: StateChange): ChangeResult {
  const { payout, attempt } = locked;
  // A reversal of a transfer we never saw succeed (RazorpayX `processing` → `reversed`, or its
  // `payout.reversed` webhook arriving before `payout.processed`) moved no money in the end: it is
  // the attempt's failure. Only a SUCCESS can become REVERSED.
  const change: StateChange =
    reported.kind === 'reversed' && attempt.status !== 'SUCCESS' && attempt.status !== 'REVERSED'
      ? { kind: 'failed', bankReference: reported.bankReference, reason: `reversed by the provider: ${reported.reason}` }
      : reported;
  const now = changes.now;
  if (change.kind === 'payout_failed') {
    if (payout.status === 'FAILED') return 'unchanged';
    const trigger = assertPayoutTransition(payout.status, 'FAILED');
    changes.movePayout(
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
  changes.moveAttempt(
    { id: attempt.id, status: to, bank_reference: bankReference, utr, failure_reason: reason },
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
    changes.movePayout(
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
