/**
 * Refunds of confirmed payments (contract §6). The statuses, the one transition table and the
 * amount rule; the service applies them under the order's row lock, in one transaction with the
 * events they cause.
 */
import { AppError } from './errors.js';

export const REFUND_STATUSES = ['PENDING_REVIEW', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Refunds in these statuses no longer count against the order's amount. */
export const RELEASED_REFUND_STATUSES = ['REJECTED', 'FAILED'] as const;

export type RefundTrigger = 'approved' | 'rejected' | 'provider_completed' | 'provider_failed';

export interface RefundTransition {
  from: RefundStatus;
  to: RefundStatus;
  trigger: RefundTrigger;
}

/** Every legal move of a refund; a refund is created PENDING_REVIEW, or PROCESSING when its organization skips review. */
export const REFUND_TRANSITIONS: readonly RefundTransition[] = Object.freeze([
  { from: 'PENDING_REVIEW', to: 'PROCESSING', trigger: 'approved' },
  { from: 'PENDING_REVIEW', to: 'REJECTED', trigger: 'rejected' },
  { from: 'PROCESSING', to: 'COMPLETED', trigger: 'provider_completed' },
  { from: 'PROCESSING', to: 'FAILED', trigger: 'provider_failed' },
]);

export function canTransitionRefund(from: RefundStatus, to: RefundStatus): boolean {
  return REFUND_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

export function assertRefundTransition(from: RefundStatus, to: RefundStatus): void {
  if (!canTransitionRefund(from, to)) throw new AppError('INVALID_STATE', `A refund in status ${from} cannot move to ${to}.`);
}

export type RefundReview = 'none' | 'required';

export function initialRefundStatus(review: RefundReview): RefundStatus {
  return review === 'none' ? 'PROCESSING' : 'PENDING_REVIEW';
}

export const REFUND_REASON_MAX = 255;

/**
 * The amount of a new refund: the one asked for, or what is left to refund. Throws
 * REFUND_EXCEEDS_AMOUNT (422) when it would take the refunds (not REJECTED/FAILED) past the order's
 * amount. `committed` is the sum of those refunds, read under the order's lock.
 */
export function refundAmount(orderAmountPaise: number, committedPaise: number, requested: number | undefined): number {
  const left = orderAmountPaise - committedPaise;
  const amount = requested ?? left;
  if (amount <= 0 || amount > left) {
    throw new AppError('REFUND_EXCEEDS_AMOUNT', `The refunds of this payment order would exceed its amount: ${Math.max(left, 0)} paise are left to refund.`, {
      details: [{ field: 'amount_paise', issue: `at most ${Math.max(left, 0)} paise are left to refund` }],
    });
  }
  return amount;
}

/** The order is fully refunded when its completed refunds add up to its amount. */
export function fullyRefunded(orderAmountPaise: number, completedPaise: number): boolean {
  return completedPaise >= orderAmountPaise;
}

/** Everything that may change a refund after its create: a reviewer's decision, the provider's answer. */
export type RefundCommand =
  | { kind: 'approve' }
  | { kind: 'reject' }
  | { kind: 'completed'; providerReference: string; completedAt: Date }
  | { kind: 'failed'; reason: string }
  /** No usable answer: the refund stays PROCESSING, its submission UNKNOWN, until an inquiry decides it. */
  | { kind: 'unknown'; error: string };

/**
 * - applied: `to` is the refund's new status (null: it stays, only its submission is UNKNOWN).
 * - stale: not a move from the current status (a decision on a refund already reviewed, an
 *   answer about a refund no longer PROCESSING); nothing is written.
 */
export type RefundDecision = { result: 'stale' } | { result: 'applied'; to: RefundStatus | null; trigger: RefundTrigger | null; event: 'collection.refund.completed' | null };

/**
 * The one rule of every refund change after its create, pure: what `command` does to a refund in
 * `status`. The writer (services/refunds/refund-writer.ts) locks the refund, calls this and writes
 * what it returns with its event.
 */
export function decideRefund(status: RefundStatus, command: RefundCommand): RefundDecision {
  const to: RefundStatus | null =
    command.kind === 'approve' ? 'PROCESSING' : command.kind === 'reject' ? 'REJECTED' : command.kind === 'completed' ? 'COMPLETED' : command.kind === 'failed' ? 'FAILED' : null;
  if (to === null) return status === 'PROCESSING' ? { result: 'applied', to: null, trigger: null, event: null } : { result: 'stale' };
  const move = REFUND_TRANSITIONS.find((t) => t.from === status && t.to === to);
  if (!move) return { result: 'stale' };
  return { result: 'applied', to, trigger: move.trigger, event: to === 'COMPLETED' ? 'collection.refund.completed' : null };
}
