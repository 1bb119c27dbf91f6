/**
 * The operations review queue (contract §6): the three kinds of item, their statuses, and what a
 * reviewer's decision does. Kept free of SQL and HTTP; the service applies it in one transaction.
 */
import { AppError } from './errors.js';

/**
 * late_confirmation: (a) a provider confirmation after the order was EXPIRED or CANCELLED;
 * confirmation_mismatch: (b) a confirmation whose amount or provider reference differs from the order's;
 * unconfirmed_payer_reference: (c) the order was AWAITING_CONFIRMATION (the payer gave a UTR) when
 * its window ended without provider confirmation.
 */
export const REVIEW_KINDS = ['late_confirmation', 'confirmation_mismatch', 'unconfirmed_payer_reference'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const REVIEW_STATUSES = ['open', 'confirmed', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export type ReviewDecision = 'confirm' | 'reject';

/** The longest evidence note a reviewer may write. */
export const REVIEW_NOTE_MAX = 2_000;

/**
 * Checks a reviewer's decision: a written note is required (for a confirmation it is the evidence),
 * an actor must be named, and an item is acted on once. Returns the status the item takes.
 */
export function decideReview(item: { status: ReviewStatus; acted_by?: string | null }, decision: ReviewDecision, input: { note: string; actor: string }): ReviewStatus {
  assertReviewerInput(input, decision === 'confirm' ? 'a written note of the payment evidence is required' : 'a note is required');
  if (item.status !== 'open') throw new AppError('INVALID_STATE', `This review item was already ${item.status}${item.acted_by ? ` by ${item.acted_by}` : ''}.`);
  return decision === 'confirm' ? 'confirmed' : 'rejected';
}

/** A reviewer's decision (review items, refund approvals) names its actor and carries a note. */
export function assertReviewerInput(input: { note: string; actor: string }, noteRequired = 'a note is required'): void {
  const issues = [];
  if (input.note.trim().length === 0) issues.push({ field: 'note', issue: noteRequired });
  if (input.note.length > REVIEW_NOTE_MAX) issues.push({ field: 'note', issue: `at most ${REVIEW_NOTE_MAX} characters` });
  if (input.actor.trim().length === 0 || input.actor.length > 200) issues.push({ field: 'actor', issue: 'the acting user is required (at most 200 characters)' });
  if (issues.length > 0) throw new AppError('VALIDATION_FAILED', 'The review decision is not valid.', { details: issues });
}
