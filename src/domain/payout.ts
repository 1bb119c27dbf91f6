/**
 * Payouts and their provider attempts (merchant API §3.2, operator contract §4, references.md).
 * A payout is what the merchant sees; attempts are our submissions to the provider. The rule that
 * shapes the attempt states: a transfer whose outcome we did not hear may have been executed, so
 * it is never re-sent; only a status inquiry decides it.
 */
import { AppError } from './errors.js';
import { isValidUtr, type PayoutMode } from './payout-rails.js';

export {
  PAYOUT_MODES, type PayoutMode, isPayoutMode, IMPS_MAX_PAISE, RTGS_MIN_PAISE, checkRailRules, isValidUtr, CLIENT_REFERENCE_MAX, REMARKS_MAX, BENEFICIARY_NAME_MAX,
  DECISION_NOTE_MAX,
} from './payout-rails.js';

/**
 * PENDING_APPROVAL and REJECTED belong to console payouts only (maker-checker, contract §6): a
 * payout made in the console waits for a checker who is not its maker, who approves it (it is
 * then submitted as any payout, PROCESSING) or rejects it (no money moves).
 * REVERSED: a SUCCESS the bank later undid (the amount came back); only ever reached from SUCCESS.
 * The DB CHECK lists these same states (migrations 0023, 0027; test/foundation/schema-sync.test.ts).
 */
export const PAYOUT_STATUSES = ['PENDING_APPROVAL', 'PROCESSING', 'SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** What a merchant API client can see: its payouts are never waiting for approval (API §5). */
export const API_PAYOUT_STATUSES = ['PROCESSING', 'SUCCESS', 'FAILED', 'REVERSED'] as const satisfies readonly PayoutStatus[];

/**
 * - PENDING_SUBMIT: persisted before the provider call; if we crash here we cannot know whether
 *   the request left, so recovery moves it to UNKNOWN, never back to a resend.
 * - PROCESSING: the provider acknowledged it; the bank has not decided yet.
 * - UNKNOWN: timeout, 5xx or lost answer; only a status inquiry by our reference may move it.
 * - SUCCESS: executed, with a UTR.  FAILED: the bank or provider definitively refused it.
 * - NOT_EXECUTED: proven not executed (the request never left, or the provider's status API
 *   reports no transaction under our reference); the only state from which a new attempt is safe.
 * - REVERSED: a SUCCESS that the provider later reports undone (RazorpayX `processed` → `reversed`,
 *   within T+3 working days); the amount is credited back. A reversal reported before any success
 *   is a failure (FAILED), never this state.
 */
export const PAYOUT_ATTEMPT_STATUSES = [
  'PENDING_SUBMIT',
  'PROCESSING',
  'UNKNOWN',
  'SUCCESS',
  'FAILED',
  'NOT_EXECUTED',
  'REVERSED',
] as const;
export type PayoutAttemptStatus = (typeof PAYOUT_ATTEMPT_STATUSES)[number];

/** Attempts whose outcome is not settled: the payout worker submits or inquires them. */
export const UNRESOLVED_ATTEMPT_STATUSES = ['PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN'] as const satisfies readonly PayoutAttemptStatus[];

export type AttemptTrigger = 'provider_accepted' | 'provider_succeeded' | 'provider_failed' | 'outcome_unknown' | 'not_executed' | 'provider_reversed';
export type PayoutTrigger = 'approved' | 'rejected' | 'attempt_succeeded' | 'attempt_failed' | 'attempt_reversed';

export interface Transition<S extends string, T extends string> {
  from: S;
  to: S;
  trigger: T;
}

export const PAYOUT_TRANSITIONS: readonly Transition<PayoutStatus, PayoutTrigger>[] = Object.freeze([
  { from: 'PENDING_APPROVAL', to: 'PROCESSING', trigger: 'approved' },
  { from: 'PENDING_APPROVAL', to: 'REJECTED', trigger: 'rejected' },
  { from: 'PROCESSING', to: 'SUCCESS', trigger: 'attempt_succeeded' },
  { from: 'PROCESSING', to: 'FAILED', trigger: 'attempt_failed' },
  { from: 'SUCCESS', to: 'REVERSED', trigger: 'attempt_reversed' },
]);

/** UNKNOWN has every way out except a resend; PROCESSING may no longer become NOT_EXECUTED. */
export const ATTEMPT_TRANSITIONS: readonly Transition<PayoutAttemptStatus, AttemptTrigger>[] = Object.freeze([
  { from: 'PENDING_SUBMIT', to: 'PROCESSING', trigger: 'provider_accepted' },
  { from: 'PENDING_SUBMIT', to: 'SUCCESS', trigger: 'provider_succeeded' },
  { from: 'PENDING_SUBMIT', to: 'FAILED', trigger: 'provider_failed' },
  { from: 'PENDING_SUBMIT', to: 'UNKNOWN', trigger: 'outcome_unknown' },
  { from: 'PENDING_SUBMIT', to: 'NOT_EXECUTED', trigger: 'not_executed' },
  { from: 'PROCESSING', to: 'SUCCESS', trigger: 'provider_succeeded' },
  { from: 'PROCESSING', to: 'FAILED', trigger: 'provider_failed' },
  { from: 'UNKNOWN', to: 'PROCESSING', trigger: 'provider_accepted' },
  { from: 'UNKNOWN', to: 'SUCCESS', trigger: 'provider_succeeded' },
  { from: 'UNKNOWN', to: 'FAILED', trigger: 'provider_failed' },
  { from: 'UNKNOWN', to: 'NOT_EXECUTED', trigger: 'not_executed' },
  { from: 'SUCCESS', to: 'REVERSED', trigger: 'provider_reversed' },
]);

function findTrigger<S extends string, T extends string>(table: readonly Transition<S, T>[], from: S, to: S): T | undefined {
  return table.find((t) => t.from === from && t.to === to)?.trigger;
}

export function canTransitionPayout(from: PayoutStatus, to: PayoutStatus): boolean {
  return findTrigger(PAYOUT_TRANSITIONS, from, to) !== undefined;
}

export function canTransitionAttempt(from: PayoutAttemptStatus, to: PayoutAttemptStatus): boolean {
  return findTrigger(ATTEMPT_TRANSITIONS, from, to) !== undefined;
}

/** Throws INVALID_STATE (409) for a move not in PAYOUT_TRANSITIONS. */
export function assertPayoutTransition(from: PayoutStatus, to: PayoutStatus): PayoutTrigger {
  const trigger = findTrigger(PAYOUT_TRANSITIONS, from, to);
  if (trigger === undefined) throw new AppError('INVALID_STATE', `A payout in status ${from} cannot move to ${to}.`);
  return trigger;
}

/** Throws INVALID_STATE for a move not in ATTEMPT_TRANSITIONS. */
export function assertAttemptTransition(from: PayoutAttemptStatus, to: PayoutAttemptStatus): AttemptTrigger {
  const trigger = findTrigger(ATTEMPT_TRANSITIONS, from, to);
  if (trigger === undefined) {
    throw new AppError('INVALID_STATE', `A payout attempt in status ${from} cannot move to ${to}.`);
  }
  return trigger;
}

/**
 * What the payout shows while this is its latest attempt. NOT_EXECUTED does not decide the payout:
 * the service either starts a new attempt or fails the payout explicitly, with a failure_reason.
 */
export function payoutStatusForAttempt(status: PayoutAttemptStatus): PayoutStatus {
  switch (status) {
    case 'PENDING_SUBMIT':
    case 'PROCESSING':
    case 'UNKNOWN':
    case 'NOT_EXECUTED':
      return 'PROCESSING';
    case 'SUCCESS':
      return 'SUCCESS';
    case 'FAILED':
      return 'FAILED';
    case 'REVERSED':
      return 'REVERSED';
    default:
      return unreachable(status);
  }
}

/** A new attempt may be submitted only when the previous one provably moved no money. */
export function isRetryableAttempt(status: PayoutAttemptStatus): boolean {
  return status === 'NOT_EXECUTED';
}

/** Attempts the inquiry worker must chase with the provider's status API. */
export function needsStatusInquiry(status: PayoutAttemptStatus): boolean {
  return status === 'UNKNOWN' || status === 'PROCESSING';
}

/** What we learnt about an attempt, from a submit answer, a status inquiry or a bank callback. */
export type AttemptNews =
  | { kind: 'accepted'; bankReference: string }
  | { kind: 'succeeded'; bankReference: string; utr: string; processedAt: Date }
  | { kind: 'failed'; bankReference: string | null; reason: string }
  /** The provider undid the transfer: SUCCESS → REVERSED; before any success it counts as 'failed'. */
  | { kind: 'reversed'; bankReference: string; reason: string; reversedAt: Date }
  | { kind: 'unknown'; error: string }
  | { kind: 'not_executed'; detail: string };

/** The attempt status each piece of news asks for (decide says whether the move is made). One rule for the writer and the inquiry log. */
export const ATTEMPT_STATUS_OF: Readonly<Record<AttemptNews['kind'], PayoutAttemptStatus>> = Object.freeze({
  accepted: 'PROCESSING',
  succeeded: 'SUCCESS',
  failed: 'FAILED',
  reversed: 'REVERSED',
  unknown: 'UNKNOWN',
  not_executed: 'NOT_EXECUTED',
});

/**
 * Everything that may change a payout row after its create: a checker's decision (console
 * payouts), news about its live attempt, and giving up after proven non-executions.
 */
export type PayoutCommand =
  | AttemptNews
  | { kind: 'payout_failed'; reason: string }
  | { kind: 'approve' }
  | { kind: 'reject'; note: string };

/** What decide needs to know of a payout: its status and mode, and its live attempt if it has one. */
export interface PayoutState {
  status: PayoutStatus;
  mode: PayoutMode;
  attempt: { status: PayoutAttemptStatus } | null;
}

export type PayoutEventKind = 'payout.created' | 'payout.success' | 'payout.failed' | 'payout.reversed' | 'payout.rejected';

/**
 * - applied: the state moves (the decision lists every row change).
 * - unchanged: already in that state (a duplicate callback, a repeated inquiry answer).
 * - stale: the move is not in the tables from the current state (a late "unknown" after
 *   "accepted", anything after a final state, a decision on a payout already decided).
 * - invalid_utr: a success without a UTR of the mode's shape is never recorded as success.
 */
export type DecisionResult = 'applied' | 'unchanged' | 'stale' | 'invalid_utr';

/** One row change of a decision; `from: null` opens a new attempt. Null fields keep what is stored. */
export interface RowMove<S extends string> {
  from: S | null;
  to: S;
  trigger: string;
  detail: string | null;
  bankReference: string | null;
  utr: string | null;
  failureReason: string | null;
}

export type PayoutDecision =
  | { result: Exclude<DecisionResult, 'applied'> }
  | {
      result: 'applied';
      /** The live attempt's move, or a first attempt (approve). */
      attempt: RowMove<PayoutAttemptStatus> | null;
      payout: (RowMove<PayoutStatus> & { processedAt: Date | null }) | null;
      /** The event the payout's move announces, if any. */
      event: PayoutEventKind | null;
    };

const NO_FIELDS = { bankReference: null, utr: null, failureReason: null } as const;

/**
 * The one rule of every payout change after its create, pure: what `command` does to a payout in
 * `state`. The writer (services/payouts/payout-writer.ts) locks the rows, calls this, and writes
 * exactly what it returns with its history and event.
 */
export function decide(state: PayoutState, command: PayoutCommand): PayoutDecision {
  switch (command.kind) {
    case 'approve':
    case 'reject': {
      const to = command.kind === 'approve' ? 'PROCESSING' : 'REJECTED';
      const trigger = findTrigger(PAYOUT_TRANSITIONS, state.status, to);
      if (trigger === undefined) return { result: 'stale' };
      const note = command.kind === 'reject' ? command.note : null;
      return {
        result: 'applied',
        attempt: command.kind === 'approve' ? { from: null, to: 'PENDING_SUBMIT', trigger: 'created', detail: null, ...NO_FIELDS } : null,
        payout: { from: state.status, to, trigger, detail: note, ...NO_FIELDS, processedAt: null },
        event: command.kind === 'approve' ? 'payout.created' : 'payout.rejected',
      };
    }
    case 'payout_failed': {
      if (state.status === 'FAILED') return { result: 'unchanged' };
      const trigger = findTrigger(PAYOUT_TRANSITIONS, state.status, 'FAILED');
      if (trigger === undefined) return { result: 'stale' };
      return {
        result: 'applied',
        attempt: null,
        payout: { from: state.status, to: 'FAILED', trigger, detail: command.reason, bankReference: null, utr: null, failureReason: command.reason, processedAt: null },
        event: 'payout.failed',
      };
    }
    default:
      return decideNews(state, command);
  }
}

function decideNews(state: PayoutState, reported: AttemptNews): PayoutDecision {
  const attempt = state.attempt;
  if (!attempt) return { result: 'stale' };
  // A reversal of a transfer we never saw succeed (RazorpayX `processing` → `reversed`, or its
  // `payout.reversed` webhook arriving before `payout.processed`) moved no money in the end: it is
  // the attempt's failure. Only a SUCCESS can become REVERSED.
  const news: AttemptNews =
    reported.kind === 'reversed' && attempt.status !== 'SUCCESS' && attempt.status !== 'REVERSED'
      ? { kind: 'failed', bankReference: reported.bankReference, reason: `reversed by the provider: ${reported.reason}` }
      : reported;
  const to = ATTEMPT_STATUS_OF[news.kind];
  if (attempt.status === to) return { result: 'unchanged' };
  const trigger = findTrigger(ATTEMPT_TRANSITIONS, attempt.status, to);
  if (trigger === undefined) return { result: 'stale' };
  if (news.kind === 'succeeded' && !isValidUtr(state.mode, news.utr)) return { result: 'invalid_utr' };
  const fields = {
    bankReference: news.kind === 'accepted' || news.kind === 'succeeded' || news.kind === 'failed' || news.kind === 'reversed' ? news.bankReference : null,
    utr: news.kind === 'succeeded' ? news.utr : null,
    failureReason: news.kind === 'failed' || news.kind === 'reversed' ? news.reason : null,
  };
  const detail = news.kind === 'unknown' ? news.error : news.kind === 'not_executed' ? news.detail : fields.failureReason;
  const payoutTo = payoutStatusForAttempt(to);
  if (payoutTo === state.status) return { result: 'applied', attempt: { from: attempt.status, to, trigger, detail, ...fields }, payout: null, event: null };
  const payoutTrigger = findTrigger(PAYOUT_TRANSITIONS, state.status, payoutTo);
  if (payoutTrigger === undefined) throw new AppError('INVALID_STATE', `A payout in status ${state.status} cannot move to ${payoutTo}.`);
  return {
    result: 'applied',
    attempt: { from: attempt.status, to, trigger, detail, ...fields },
    payout: { from: state.status, to: payoutTo, trigger: payoutTrigger, detail: null, ...fields, processedAt: news.kind === 'succeeded' ? news.processedAt : null },
    event: news.kind === 'succeeded' ? 'payout.success' : news.kind === 'failed' ? 'payout.failed' : news.kind === 'reversed' ? 'payout.reversed' : null,
  };
}

/** How a payout starts, by the channel that makes it: a console payout waits for its checker; a bulk row's file was approved as a whole. */
export type PayoutChannel = 'api' | 'console' | 'bulk';

export function initialState(channel: PayoutChannel): { status: PayoutStatus; firstAttempt: boolean; approvalRequired: boolean; event: PayoutEventKind | null } {
  return channel === 'console'
    ? { status: 'PENDING_APPROVAL', firstAttempt: false, approvalRequired: true, event: null }
    : { status: 'PROCESSING', firstAttempt: true, approvalRequired: channel === 'bulk', event: 'payout.created' };
}

function unreachable(value: never): never {
  throw new Error(`unhandled payout attempt status ${String(value)}`);
}
