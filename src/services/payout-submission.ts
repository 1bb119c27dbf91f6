/**
 * Talking to the bank about a payout without ever paying twice (architecture habit 2):
 * persist, then call the provider outside any transaction, then record the answer in a second
 * transaction. A timeout, 5xx or reset leaves the attempt UNKNOWN, and only a status inquiry by our
 * reference moves it: executed -> SUCCESS with a UTR; proven not executed -> a new attempt with
 * the same reference (the bank deduplicates by it) or, after PAYOUT_MAX_ATTEMPTS, FAILED; no
 * answer -> inquire again with backoff. Nothing here guesses.
 */
import { newRowId } from '../store/row-id.js';
import type { AppContext } from '../context.js';
import type { PayoutMode } from '../domain/payout.js';
import type { PayoutStatus as ProviderPayoutStatus, PayoutSubmitResult } from '../providers/provider.js';
import * as repo from '../store/repos/payouts-repo.js';
import { type AttemptUpdate, applyStateChange, type ChangeResult } from './payout-state.js';
import type { Queryable } from '../store/db.js';

export interface SubmissionInput {
  attemptId: string;
  transactionId: string;
  amountPaise: number;
  mode: PayoutMode;
  beneficiary: { name: string; accountNumber: string; ifsc: string };
  remarks: string | null;
}

/** Delay before the next status inquiry: base, doubling per inquiry, capped. */
export function inquiryDelayMs(ctx: AppContext, inquiries: number): number {
  const { inquiryBaseMs, inquiryMaxMs } = ctx.config.payout;
  return Math.min(inquiryBaseMs * 2 ** Math.min(inquiries, 20), inquiryMaxMs);
}

function crashHere(ctx: AppContext, point: 'after_persist' | 'after_submit'): void {
  if (ctx.config.testCrashPoint === point) {
    ctx.log.warn({ point }, 'TIJORI_TEST_CRASH_POINT reached: killing the process');
    process.kill(process.pid, 'SIGKILL');
  }
}

function updateFromSubmit(result: PayoutSubmitResult): AttemptUpdate {
  switch (result.outcome) {
    case 'ACCEPTED':
      return { kind: 'accepted', bankReference: result.providerReference };
    case 'REJECTED':
      return { kind: 'failed', bankReference: null, reason: result.reason };
    case 'UNKNOWN':
      return { kind: 'unknown', error: result.error };
  }
}

/** Sends one attempt to the bank and records the answer. The attempt must be held (lease). */
export async function submitAndRecord(ctx: AppContext, input: SubmissionInput): Promise<void> {
  let result: PayoutSubmitResult;
  try {
    result = await ctx.provider.submitPayout({
      reference: input.transactionId,
      amountPaise: input.amountPaise,
      mode: input.mode,
      beneficiary: input.beneficiary,
      remarks: input.remarks,
    });
  } catch (err) {
    result = { outcome: 'UNKNOWN', error: `adapter error: ${(err as Error).message}` };
  }
  ctx.metrics.counter('tijori_payout_submissions_total', 'Payout submissions by provider answer', ['outcome']).inc({ outcome: result.outcome });
  if (result.outcome === 'UNKNOWN') {
    ctx.log.warn({ transaction_id: input.transactionId, error: result.error }, 'payout submit outcome unknown; will inquire, never resend');
  }
  crashHere(ctx, 'after_submit');
  await recordOutcome(ctx, input.attemptId, updateFromSubmit(result), { holder: true, inquired: false, submitted: true });
}

/** Create path: the payout is committed; submit it now. Failures are left to the payout worker. */
export async function submitAfterCreate(ctx: AppContext, input: SubmissionInput): Promise<void> {
  crashHere(ctx, 'after_persist');
  try {
    await submitAndRecord(ctx, input);
  } catch (err) {
    ctx.log.error({ transaction_id: input.transactionId, err: (err as Error).message }, 'recording a payout submission failed; the payout worker resumes it');
  }
}

/** Loads a held attempt from the store and submits it (worker and retry paths). */
async function submitStored(ctx: AppContext, attemptId: string): Promise<void> {
  const s = await repo.loadSubmission(ctx.db, attemptId);
  if (!s) return;
  await submitAndRecord(ctx, {
    attemptId,
    transactionId: s.transaction_id,
    amountPaise: s.amount_paise,
    mode: s.mode,
    beneficiary: { name: s.beneficiary_name, accountNumber: ctx.beneficiaries.accountNumberOf({ id: s.beneficiary_id, account_number_enc: s.account_number_enc }), ifsc: s.beneficiary_ifsc },
    remarks: s.remarks,
  });
}

/**
 * Records what we learnt about an attempt in one transaction. A proven non-execution opens the
 * next attempt (submitted right after commit) or fails the payout after the last one. `holder`:
 * the caller holds the attempt's lease (submit/inquiry), so it schedules the next inquiry and
 * releases the lease; a callback does neither.
 */
/** The transaction body of recordOutcome, in the caller's transaction. */
async function recordOutcomeIn(
  ctx: AppContext,
  tx: Queryable,
  attemptId: string,
  update: AttemptUpdate,
  opts: { holder: boolean; inquired: boolean; submitted?: boolean },
): Promise<{ result: ChangeResult | 'missing'; retryAttemptId?: string }> {
  const { maxAttempts, leaseMs } = ctx.config.payout;
  const locked = await repo.lockAttempt(tx, attemptId);
  if (!locked) return { result: 'missing' };
  let retryAttemptId: string | undefined;
  const res = await applyStateChange(tx, locked, update);
  if (res === 'applied' && locked.attempt.status === 'NOT_EXECUTED') {
    if (locked.attempt.attempt_no < maxAttempts) {
      retryAttemptId = newRowId();
      await repo.insertAttempt(tx, { id: retryAttemptId, payoutId: locked.payout.id, attemptNo: locked.attempt.attempt_no + 1, leaseMs });
    } else {
      await applyStateChange(tx, locked, { kind: 'payout_failed', reason: `NOT_EXECUTED: the bank did not execute the transfer after ${maxAttempts} attempts` });
    }
  }
  if (opts.holder) {
    const inquiries = locked.attempt.inquiry_count + (opts.inquired ? 1 : 0);
    const lastError = update.kind === 'unknown' ? update.error : null;
    await repo.scheduleCheck(tx, { id: attemptId, delayMs: inquiryDelayMs(ctx, inquiries), inquired: opts.inquired, lastError, submitted: opts.submitted ?? false });
  }
  return { result: res, ...(retryAttemptId ? { retryAttemptId } : {}) };
}

function reportOutcome(ctx: AppContext, attemptId: string, update: AttemptUpdate, result: ChangeResult | 'missing'): void {
  if (result === 'stale' || result === 'invalid_utr') {
    ctx.log.warn({ attempt_id: attemptId, update: update.kind, result }, 'payout update not applied');
  }
  if (result === 'invalid_utr') ctx.metrics.counter('tijori_payout_invalid_utr_total', 'Provider successes rejected for a UTR of the wrong shape').inc();
}

export async function recordOutcome(
  ctx: AppContext,
  attemptId: string,
  update: AttemptUpdate,
  opts: { holder: boolean; inquired: boolean; submitted?: boolean },
): Promise<ChangeResult | 'missing'> {
  const { result, retryAttemptId } = await ctx.db.tx((tx) => recordOutcomeIn(ctx, tx, attemptId, update, opts));
  reportOutcome(ctx, attemptId, update, result);
  if (retryAttemptId) await submitStored(ctx, retryAttemptId);
  return result;
}

function updateFromStatus(st: Exclude<ProviderPayoutStatus, { status: 'NOT_FOUND' }>): AttemptUpdate {
  switch (st.status) {
    case 'PENDING':
      return { kind: 'accepted', bankReference: st.providerReference };
    case 'SUCCESS':
      return { kind: 'succeeded', bankReference: st.providerReference, utr: st.utr, processedAt: st.processedAt };
    case 'FAILED':
      return { kind: 'failed', bankReference: st.providerReference, reason: st.reason };
  }
}

/**
 * Status inquiry of a claimed attempt (payout worker). For PENDING_SUBMIT (we crashed, or were
 * slow, after persisting) the bank is asked first, and the attempt is sent only if the bank has
 * never heard of our reference. For UNKNOWN, NOT_FOUND proves non-execution only once the
 * not-found grace period since the last submit has passed.
 */
export async function inquire(ctx: AppContext, claimed: repo.ClaimedAttempt): Promise<void> {
  const inquiries = ctx.metrics.counter('tijori_payout_inquiries_total', 'Payout status inquiries by answer', ['answer']);
  let st: ProviderPayoutStatus;
  try {
    st = await ctx.provider.payoutStatus(claimed.transaction_id);
  } catch (err) {
    inquiries.inc({ answer: 'NO_ANSWER' });
    ctx.log.warn({ transaction_id: claimed.transaction_id, status: claimed.status, err: (err as Error).message }, 'payout status inquiry got no answer; retrying later');
    await repo.scheduleCheck(ctx.db, { id: claimed.id, delayMs: inquiryDelayMs(ctx, claimed.inquiry_count + 1), inquired: true, lastError: (err as Error).message });
    return;
  }
  inquiries.inc({ answer: st.status });
  if (st.status !== 'NOT_FOUND') {
    await recordOutcome(ctx, claimed.id, updateFromStatus(st), { holder: true, inquired: true });
    return;
  }
  if (claimed.status === 'PENDING_SUBMIT') {
    ctx.log.info({ transaction_id: claimed.transaction_id }, 'unsent payout attempt unknown to the bank; submitting it now');
    await submitStored(ctx, claimed.id);
    return;
  }
  // An UNKNOWN attempt always has submitted_at (stamped when its submit ended); without one, wait.
  const sinceSubmitMs = claimed.submitted_at ? Date.now() - new Date(claimed.submitted_at).getTime() : 0;
  if (claimed.status === 'UNKNOWN' && sinceSubmitMs >= ctx.config.payout.notFoundGraceMs) {
    await recordOutcome(ctx, claimed.id, { kind: 'not_executed', detail: 'status inquiry: the bank has no transfer under this reference' }, { holder: true, inquired: true });
    return;
  }
  if (claimed.status === 'PROCESSING') {
    ctx.log.error({ transaction_id: claimed.transaction_id }, 'bank accepted this payout but its status API does not know it; still inquiring');
  }
  await repo.scheduleCheck(ctx.db, { id: claimed.id, delayMs: inquiryDelayMs(ctx, claimed.inquiry_count + 1), inquired: true, lastError: null });
}

/**
 * Entry point for the provider callback intake (POST /provider/sandbox/callbacks): a verified
 * payout update from the bank, `ProviderCallback` of kind 'payout'. Applies to the payout's live
 * (latest) attempt; NOT_FOUND is not news and is ignored. Safe to call repeatedly with the same
 * callback. Inquiry alone also settles every payout, so a lost callback costs only latency.
 */
export async function applyProviderPayoutUpdate(
  ctx: AppContext,
  callback: { reference: string; status: ProviderPayoutStatus; eventId?: string },
  tx: Queryable,
): Promise<ChangeResult | 'missing' | 'ignored' | 'unknown_reference'> {
  if (callback.status.status === 'NOT_FOUND') return 'ignored';
  const attemptId = await repo.latestAttemptId(tx, callback.reference);
  if (!attemptId) {
    ctx.log.warn({ reference: callback.reference, event_id: callback.eventId }, 'payout callback for an unknown reference');
    return 'unknown_reference';
  }
  // In the intake's transaction (one connection per event): a callback's status is never
  // NOT_EXECUTED, so it never starts a new attempt that would need submitting after commit.
  const update = updateFromStatus(callback.status);
  const { result } = await recordOutcomeIn(ctx, tx, attemptId, update, { holder: false, inquired: false });
  reportOutcome(ctx, attemptId, update, result);
  return result;
}
