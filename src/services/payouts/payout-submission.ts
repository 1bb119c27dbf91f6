/**
 * Talking to the bank about a payout without ever paying twice (architecture habit 2):
 * persist, then call the provider outside any transaction, then record the answer in a second
 * transaction. A timeout, 5xx or reset leaves the attempt UNKNOWN, and only a status inquiry by our
 * reference moves it: executed -> SUCCESS with a UTR; proven not executed -> a new attempt with
 * the same reference (the bank deduplicates by it) or, after PAYOUT_MAX_ATTEMPTS, FAILED; no
 * answer -> inquire again with backoff. Nothing here guesses.
 */
import type { Config } from '../../config.js';
import { ATTEMPT_STATUS_OF, type PayoutMode } from '../../domain/payout.js';
import type { PayoutStatus as ProviderPayoutStatus, PayoutSubmitResult } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import * as repo from '../../store/repos/payouts-repo.js';
import type { AttemptUpdate, ChangeResult } from './payout-writer.js';
import { changeLatestAttempts } from './payout-units.js';
import { applyOutcome, inquiryDelayMs, type OutcomeRules, type PayoutOutcomeRecorder, reportOutcome } from './payout-outcomes.js';
import type { BeneficiariesService } from './beneficiaries.js';
import { afterCommit, type Db, type Tx } from '../../store/db.js';
import { type AnswerFacts, askProvider, noAnswer, payoutAnswer, recordAttemptInquiry, recordBestEffort } from '../providers/provider-checks.js';

/** What submission uses; built by the composition root (context.ts). */
export interface PayoutSubmissionDeps extends OutcomeRules {
  db: Db;
  config: Pick<Config, 'payout' | 'testCrashPoint'>;
  providers: Pick<ProviderRegistry, 'forBankConnection'>;
  /** The account number of a stored payout's beneficiary, for the bank only. */
  beneficiaries: Pick<BeneficiariesService, 'accountNumberOf'>;
  payoutOutcomes: PayoutOutcomeRecorder;
}

/**
 * The payout aggregate's talk with the bank, as one service: the create paths (API, console
 * approval, bulk row) hand it a committed attempt, the payout worker its due inquiries, the
 * provider intake the bank's callbacks.
 */
export class PayoutSubmitter {
  constructor(private readonly ctx: PayoutSubmissionDeps) {}

  /** See submitAfterCreate below. */
  submitAfterCreate(input: SubmissionInput): Promise<void> {
    return submitAfterCreate(this.ctx, input);
  }

  /**
   * The payout worker's round: claims up to `limit` unresolved attempts that are due (FOR UPDATE
   * SKIP LOCKED + a lease) and inquires about each; returns how many were claimed.
   */
  async inquireDue(limit: number): Promise<number> {
    const claimed = await repo.claimDueAttempts(this.ctx.db, limit, this.ctx.config.payout.leaseMs);
    await Promise.all(
      claimed.map((a) =>
        inquire(this.ctx, a).catch((err: unknown) => {
          // The lease expires and the next round retries; nothing was guessed.
          this.ctx.log.warn({ transaction_id: a.transaction_id, err: (err as Error).message }, 'payout inquiry failed');
        }),
      ),
    );
    return claimed.length;
  }

  /** Undecided attempts by status, with the oldest's age (the payout worker's gauges). */
  unresolvedSummary() {
    return repo.unresolvedSummary(this.ctx.db);
  }

  /** See applyProviderPayoutUpdates below. */
  applyProviderPayoutUpdates(tx: Tx, callbacks: Array<{ reference: string; status: ProviderPayoutStatus; eventId?: string }>) {
    return applyProviderPayoutUpdates(this.ctx, tx, callbacks);
  }
}

export interface SubmissionInput {
  attemptId: string;
  /** The payout's bank connection: its provider account executes the payout. */
  bankConnectionId: string;
  transactionId: string;
  amountPaise: number;
  mode: PayoutMode;
  beneficiary: { name: string; accountNumber: string; ifsc: string };
  remarks: string | null;
}

function crashHere(ctx: PayoutSubmissionDeps, point: 'after_persist' | 'after_submit'): void {
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

/** Sends one attempt to the bank; every failure to get an answer is UNKNOWN (inquired later, never resent). */
async function submit(ctx: PayoutSubmissionDeps, input: SubmissionInput): Promise<PayoutSubmitResult> {
  let result: PayoutSubmitResult;
  try {
    const provider = await ctx.providers.forBankConnection(input.bankConnectionId);
    result = await provider.submitPayout({
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
  return result;
}

/** Sends one attempt to the bank and records the answer. The attempt must be held (lease). */
async function submitAndRecord(ctx: PayoutSubmissionDeps, input: SubmissionInput): Promise<void> {
  const result = await submit(ctx, input);
  await recordOutcome(ctx, input.attemptId, updateFromSubmit(result), { inquired: false, submitted: true });
}

/**
 * Create path: the payout is committed; submit it now. The create answers once the bank has the
 * instruction (API §4.3: "submitted"); its answer is recorded after that, off the request's path
 * (the create's answer is fixed already). If recording fails or the process stops first, the
 * attempt stays held until its lease ends and the payout worker asks the bank, as after a crash.
 */
async function submitAfterCreate(ctx: PayoutSubmissionDeps, input: SubmissionInput): Promise<void> {
  crashHere(ctx, 'after_persist');
  const result = await submit(ctx, input);
  ctx.payoutOutcomes.inBackground(
    recordOutcome(ctx, input.attemptId, updateFromSubmit(result), { inquired: false, submitted: true }).then(
      () => undefined,
      (err: unknown) => {
        ctx.log.error({ transaction_id: input.transactionId, err: (err as Error).message }, 'recording a payout submission failed; the payout worker resumes it');
      },
    ),
  );
}

/** Loads a held attempt from the store and submits it (worker and retry paths). */
async function submitStored(ctx: PayoutSubmissionDeps, attemptId: string): Promise<void> {
  const s = await repo.loadSubmission(ctx.db, attemptId);
  if (!s) return;
  await submitAndRecord(ctx, {
    attemptId,
    bankConnectionId: s.bank_connection_id,
    transactionId: s.transaction_id,
    amountPaise: s.amount_paise,
    mode: s.mode,
    beneficiary: { name: s.beneficiary_name, accountNumber: ctx.beneficiaries.accountNumberOf({ id: s.beneficiary_id, account_number_enc: s.account_number_enc }), ifsc: s.beneficiary_ifsc },
    remarks: s.remarks,
  });
}

/**
 * Records what a holder (submit or inquiry) learnt about its attempt, batched with concurrent
 * holders (payout-outcomes.ts); a proven non-execution's next attempt is submitted after commit.
 */
async function recordOutcome(
  ctx: PayoutSubmissionDeps,
  attemptId: string,
  update: AttemptUpdate,
  opts: { inquired: boolean; submitted?: boolean },
): Promise<ChangeResult | 'missing'> {
  const { result, retryAttemptId } = await ctx.payoutOutcomes.record(attemptId, { update, holder: true, ...opts });
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
    case 'REVERSED':
      return { kind: 'reversed', bankReference: st.providerReference, reason: st.reason, reversedAt: st.reversedAt };
  }
}

/**
 * Status inquiry of a claimed attempt (payout worker). For PENDING_SUBMIT (we crashed, or were
 * slow, after persisting) the bank is asked first, and the attempt is sent only if the bank has
 * never heard of our reference. For UNKNOWN, NOT_FOUND proves non-execution only once the
 * not-found grace period since the last submit has passed.
 */
async function inquire(ctx: PayoutSubmissionDeps, claimed: repo.ClaimedAttempt): Promise<void> {
  const inquiries = ctx.metrics.counter('tijori_payout_inquiries_total', 'Payout status inquiries by answer', ['answer']);
  const call = await askProvider({
    reason: 'inquiry', reference: claimed.transaction_id, provider: () => ctx.providers.forBankConnection(claimed.bank_connection_id),
    ask: (provider) => provider.payoutStatus(claimed.transaction_id),
  });
  // Each inquiry is kept in the provider checks log (the console's payout page), after it is acted on.
  const logInquiry = (answer: AnswerFacts, mapped: string | null, outcome: string) =>
    recordBestEffort(ctx.log, () => {
      const facts = call.facts(answer, outcome);
      return recordAttemptInquiry(ctx.db, claimed.id, { ...facts, detail: { ...(facts.detail ?? {}), mapped_status: mapped } });
    });
  if ('error' in call.result) {
    const err = call.result.error;
    inquiries.inc({ answer: 'NO_ANSWER' });
    ctx.log.warn({ transaction_id: claimed.transaction_id, status: claimed.status, err: err.message }, 'payout status inquiry got no answer; retrying later');
    await repo.scheduleChecks(ctx.db, [{ id: claimed.id, delayMs: inquiryDelayMs(ctx, claimed.inquiry_count + 1), inquired: true, lastError: err.message }]);
    await logInquiry(noAnswer(err), null, 'no answer: asked again later');
    return;
  }
  const st = call.result.answer;
  inquiries.inc({ answer: st.status });
  if (st.status !== 'NOT_FOUND') {
    const update = updateFromStatus(st);
    const result = await recordOutcome(ctx, claimed.id, update, { inquired: true });
    await logInquiry(payoutAnswer(st), ATTEMPT_STATUS_OF[update.kind], result);
    return;
  }
  if (claimed.status === 'PENDING_SUBMIT') {
    ctx.log.info({ transaction_id: claimed.transaction_id }, 'unsent payout attempt unknown to the bank; submitting it now');
    await logInquiry(payoutAnswer(st), null, 'unknown to the bank, never sent: submitted now');
    await submitStored(ctx, claimed.id);
    return;
  }
  // An UNKNOWN attempt always has submitted_at (stamped when its submit ended); without one, wait.
  const sinceSubmitMs = claimed.submitted_at ? Date.now() - new Date(claimed.submitted_at).getTime() : 0;
  if (claimed.status === 'UNKNOWN' && sinceSubmitMs >= ctx.config.payout.notFoundGraceMs) {
    const result = await recordOutcome(ctx, claimed.id, { kind: 'not_executed', detail: 'status inquiry: the bank has no transfer under this reference' }, { inquired: true });
    await logInquiry(payoutAnswer(st), 'NOT_EXECUTED', `not executed (${result})`);
    return;
  }
  if (claimed.status === 'PROCESSING') {
    ctx.log.error({ transaction_id: claimed.transaction_id }, 'bank accepted this payout but its status API does not know it; still inquiring');
  }
  await repo.scheduleChecks(ctx.db, [{ id: claimed.id, delayMs: inquiryDelayMs(ctx, claimed.inquiry_count + 1), inquired: true, lastError: null }]);
  await logInquiry(payoutAnswer(st), null, 'not found yet: asked again later');
}

/**
 * Entry point for the provider callback intake (POST /provider/sandbox/callbacks): verified payout
 * updates from the bank (`ProviderCallback` of kind 'payout'), applied in the intake's transaction
 * to each payout's live (latest) attempt, in order: each callback is a unit of work of its own
 * (payout-units.ts `changeLatestAttempts`: one statement locks them all, and those of the same
 * payout run one after the other). NOT_FOUND is not news and is ignored. Safe to call repeatedly
 * with the same callback. Inquiry alone also settles every payout, so a lost callback costs only
 * latency.
 */
async function applyProviderPayoutUpdates(
  ctx: PayoutSubmissionDeps,
  tx: Tx,
  callbacks: Array<{ reference: string; status: ProviderPayoutStatus; eventId?: string }>,
): Promise<Array<ChangeResult | 'missing' | 'ignored' | 'unknown_reference'>> {
  type Callback = (typeof callbacks)[number];
  const news = callbacks.filter((cb): cb is Callback & { status: Exclude<ProviderPayoutStatus, { status: 'NOT_FOUND' }> } => cb.status.status !== 'NOT_FOUND');
  const applied = await changeLatestAttempts(tx, news, (cb) => cb.reference, async (t, cb, locked) => {
    // Told once the intake's transaction commits: a rolled-back batch is applied again event by
    // event, and must not log, count or record its refusals twice.
    if (!locked) {
      afterCommit(t, () => ctx.log.warn({ reference: cb.reference, event_id: cb.eventId }, 'payout callback for an unknown reference'));
      return 'unknown_reference' as const;
    }
    // A callback's status is never NOT_EXECUTED, so it never opens an attempt that would need
    // submitting after commit; nor is it a holder (no lease, no inquiry schedule).
    const update = updateFromStatus(cb.status);
    const { result } = await applyOutcome(ctx, t, { update, holder: false, inquired: false }, locked);
    afterCommit(t, () => reportOutcome(ctx, locked.attempt.id, update, result));
    return result;
  });
  const resultOf = new Map<Callback, (typeof applied)[number]>(news.map((cb, i) => [cb, applied[i]!]));
  return callbacks.map((cb) => resultOf.get(cb) ?? 'ignored');
}
