/**
 * Payouts and their provider attempts (merchant API §3.2, operator contract §4, references.md).
 * A payout is what the merchant sees; attempts are our submissions to the provider. The rule that
 * shapes the attempt states: a transfer whose outcome we did not hear may have been executed, so
 * it is never re-sent; only a status inquiry decides it.
 */
import { AppError } from './errors.js';
import type { FieldIssue } from './errors.js';
import { formatInr } from './money.js';

export const PAYOUT_MODES = ['IMPS', 'NEFT', 'RTGS'] as const;
export type PayoutMode = (typeof PAYOUT_MODES)[number];

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

function findTrigger<S extends string, T extends string>(
  table: readonly Transition<S, T>[],
  from: S,
  to: S,
): T | undefined {
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

export function isPayoutMode(value: unknown): value is PayoutMode {
  return typeof value === 'string' && (PAYOUT_MODES as readonly string[]).includes(value);
}

/** RBI limits per transaction: IMPS at most ₹5,00,000 (Oct 2021), RTGS at least ₹2,00,000. */
export const IMPS_MAX_PAISE = 50_000_000;
export const RTGS_MIN_PAISE = 20_000_000;

/** Amount rules of the rail, as validation issues on `amount_paise`; NEFT has none. */
export function checkRailRules(mode: PayoutMode, amountPaise: number): FieldIssue[] {
  if (mode === 'IMPS' && amountPaise > IMPS_MAX_PAISE) {
    return [{ field: 'amount_paise', issue: `IMPS allows at most ${formatInr(IMPS_MAX_PAISE)} (${IMPS_MAX_PAISE} paise)` }];
  }
  if (mode === 'RTGS' && amountPaise < RTGS_MIN_PAISE) {
    return [{ field: 'amount_paise', issue: `RTGS needs at least ${formatInr(RTGS_MIN_PAISE)} (${RTGS_MIN_PAISE} paise)` }];
  }
  return [];
}

/** IMPS: 12-digit RRN. NEFT: 16 characters, or the 22 some banks now issue. RTGS: 22. */
const UTR_SHAPES: Record<PayoutMode, RegExp> = {
  IMPS: /^[0-9]{12}$/,
  NEFT: /^(?:[A-Za-z0-9]{16}|[A-Za-z0-9]{22})$/,
  RTGS: /^[A-Za-z0-9]{22}$/,
};

export function isValidUtr(mode: PayoutMode, utr: string): boolean {
  return UTR_SHAPES[mode].test(utr);
}

function unreachable(value: never): never {
  throw new Error(`unhandled payout attempt status ${String(value)}`);
}
