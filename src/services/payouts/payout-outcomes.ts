/**
 * Records what we learnt about a payout attempt — a submit answer, a status inquiry, a bank
 * callback — as one unit of work: lock the attempt (with its payout), decide and write the move,
 * history, event and next inquiry through the one writer (payout-writer.ts), handed to the store
 * by its single-item entry points (payout-units.ts `changeHeldAttempt`, `changeLatestAttempts`).
 * How the units are grouped is the store's (store/shared-transactions.ts): the news of held attempts that
 * arrives together shares a transaction, and a lane's callbacks share the intake's, where their
 * single-item statements coalesce: N concurrent submissions cost one transaction of ~4 round
 * trips instead of N of ~7 each.
 */
import type { Config } from '../../config.js';
import { inquiryDelayMs as backoffDelayMs } from '../../domain/backoff.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { ProviderAnomalies } from '../providers/provider-anomalies.js';
import type { Db, Tx } from '../../store/db.js';
import { newRowId } from '../../store/row-id.js';
import { type AttemptUpdate, type ChangeResult, type Locked, openRetryAttempt, PayoutMove } from './payout-writer.js';
import { changeHeldAttempt } from './payout-units.js';

/** What the rules of recording bank answers use: the payout settings (attempts, lease, inquiry back-off), the logger and metrics. */
export interface OutcomeRules {
  log: Logger;
  metrics: Metrics;
  config: Pick<Config, 'payout'>;
  /** Where a bank answer the rules refuse is recorded for the console (issue #22). */
  providerAnomalies: Pick<ProviderAnomalies, 'recordForAttempt'>;
}

/** One piece of news about an attempt. `holder`: the caller holds the attempt's lease (submit or inquiry). */
export interface OutcomeNews {
  update: AttemptUpdate;
  /** Schedules the next inquiry and releases the lease; a callback does neither. */
  holder: boolean;
  /** This news is the answer of a status inquiry (counted). */
  inquired: boolean;
  /** A submit call just ended (stamps submitted_at). */
  submitted?: boolean;
}

export interface OutcomeResult {
  result: ChangeResult | 'missing';
  /** A proven non-execution opened this next attempt, held by the caller, to be submitted after commit. */
  retryAttemptId?: string;
}

/** Delay before the next status inquiry of a payout attempt (the one back-off rule, domain/backoff.ts). */
export function inquiryDelayMs(ctx: OutcomeRules, inquiries: number): number {
  return backoffDelayMs(ctx.config.payout, inquiries);
}

/**
 * Applies one piece of news to its locked attempt, in the caller's transaction. A proven
 * non-execution opens the next attempt or, after the last one, fails the payout.
 */
export async function applyOutcome(ctx: OutcomeRules, tx: Tx, news: OutcomeNews, locked: Locked | undefined): Promise<OutcomeResult> {
  if (!locked) return { result: 'missing' };
  const { maxAttempts, leaseMs } = ctx.config.payout;
  const move = new PayoutMove(locked);
  let retry: { id: string; payoutId: string; attemptNo: number; leaseMs: number } | undefined;
  const result = move.plan(news.update);
  if (result === 'applied' && locked.attempt.status === 'NOT_EXECUTED') {
    if (locked.attempt.attempt_no < maxAttempts) {
      retry = { id: newRowId(), payoutId: locked.payout.id, attemptNo: locked.attempt.attempt_no + 1, leaseMs };
    } else {
      move.plan({ kind: 'payout_failed', reason: `NOT_EXECUTED: the bank did not execute the transfer after ${maxAttempts} attempts` });
    }
  }
  if (news.holder) {
    const inquiries = locked.attempt.inquiry_count + (news.inquired ? 1 : 0);
    const lastError = news.update.kind === 'unknown' ? news.update.error : null;
    move.scheduleCheck({ delayMs: inquiryDelayMs(ctx, inquiries), inquired: news.inquired, lastError, submitted: news.submitted ?? false });
  }
  await move.write(tx);
  if (!retry) return { result };
  await openRetryAttempt(tx, retry);
  return { result, retryAttemptId: retry.id };
}

export function reportOutcome(ctx: OutcomeRules, attemptId: string, update: AttemptUpdate, result: ChangeResult | 'missing'): void {
  if (result === 'stale' || result === 'invalid_utr') {
    ctx.log.warn({ attempt_id: attemptId, update: update.kind, result }, 'payout update not applied');
  }
  if (result === 'invalid_utr') {
    ctx.metrics.counter('tijori_payout_invalid_utr_total', 'Provider successes rejected for a UTR of the wrong shape').inc();
    // Bad input from a provider never moves money; it is logged, counted and shown in the console.
    const detail = update.kind === 'succeeded' ? { utr: update.utr, bank_reference: update.bankReference } : {};
    ctx.providerAnomalies.recordForAttempt(attemptId, { kind: 'invalid_utr', operation: 'payout_outcome', detail });
  }
}

/**
 * News of held attempts (submit answers, inquiry answers), each recorded as its own unit of work
 * through the writer (`changeHeldAttempt`), which the store may group with the news that arrives
 * together.
 */
export class PayoutOutcomeRecorder {
  constructor(private readonly ctx: OutcomeRules & { db: Db }) {}

  private readonly background = new Set<Promise<void>>();

  /** Keeps track of recording that runs after its request answered, so that shutdown can wait for it. */
  inBackground(work: Promise<void>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** Resolves once all recording started in the background has ended. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  async record(attemptId: string, news: OutcomeNews): Promise<OutcomeResult> {
    const out = await changeHeldAttempt(this.ctx.db, attemptId, (tx, locked) => applyOutcome(this.ctx, tx, news, locked));
    reportOutcome(this.ctx, attemptId, news.update, out.result);
    return out;
  }
}
