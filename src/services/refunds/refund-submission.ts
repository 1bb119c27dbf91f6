/**
 * Talking to the provider about a refund without ever refunding twice (the payout rules):
 * the refund is persisted PROCESSING with a lease first; the provider is called outside any
 * transaction with our refund_id as its idempotency key; the answer is recorded in a second
 * transaction. No usable answer (timeout, 5xx, reset) leaves it UNKNOWN: only an inquiry by our
 * refund_id moves it. The refund worker claims refunds whose lease ended (a crash, an UNKNOWN) with
 * FOR UPDATE SKIP LOCKED and inquires first; it sends again only when the provider has never
 * seen the refund, and even then with the same key, so the provider deduplicates.
 */
import type { Config } from '../../config.js';
import { inquiryDelayMs } from '../../domain/backoff.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { RefundStatus as ProviderRefundStatus, RefundSubmitResult } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db, Queryable } from '../../store/db.js';
import * as orderRepo from '../../store/repos/payment-orders-repo.js';
import * as repo from '../../store/repos/refunds-repo.js';
import type { RefundWithOrder } from '../../store/repos/refunds-repo.js';
import { applyRefundAnswer, lockRefund } from './refund-writer.js';

/** What refund submission uses; built by the composition root (context.ts). */
export interface RefundSubmissionDeps {
  db: Db;
  log: Logger;
  metrics: Metrics;
  /** The payout settings' inquiry back-off and lease (the same provider rules), the test crash points. */
  config: Pick<Config, 'payout' | 'testCrashPoint'>;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/** The refund aggregate's talk with the provider: the create and approval paths hand it a held refund, the refund worker its due inquiries. */
export class RefundSubmitter {
  constructor(private readonly ctx: RefundSubmissionDeps) {}

  /** See submitRefund below. */
  submit(r: RefundWithOrder): Promise<void> {
    return submitRefund(this.ctx, r);
  }

  /**
   * The refund worker's round: claims up to `limit` PROCESSING refunds whose lease ended (FOR
   * UPDATE SKIP LOCKED) and inquires about each; returns how many were claimed.
   */
  async inquireDue(limit: number): Promise<number> {
    const claimed = await repo.claimDue(this.ctx.db, limit, this.ctx.config.payout.leaseMs);
    await Promise.all(
      claimed.map((r) =>
        inquireRefund(this.ctx, r).catch((err: unknown) => {
          // The lease ends and the next round retries; nothing was guessed.
          this.ctx.log.warn({ refund_id: r.refund_id, err: (err as Error).message }, 'refund inquiry failed');
        }),
      ),
    );
    return claimed.length;
  }

  /** PROCESSING refunds by submission state, with the oldest's age (the refund worker's gauges). */
  unresolvedSummary() {
    return repo.unresolvedSummary(this.ctx.db);
  }
}

function crashHere(ctx: RefundSubmissionDeps, point: 'refund_after_persist' | 'refund_after_submit'): void {
  if (ctx.config.testCrashPoint === point) {
    ctx.log.warn({ point }, 'TIJORI_TEST_CRASH_POINT reached: killing the process');
    process.kill(process.pid, 'SIGKILL');
  }
}

/** What the provider said, in one shape for submit answers and inquiries. */
type Answer = { kind: 'completed'; providerReference: string; completedAt: Date } | { kind: 'failed'; reason: string } | { kind: 'unknown'; error: string } | { kind: 'not_found' };

function fromSubmit(r: RefundSubmitResult): Exclude<Answer, { kind: 'not_found' }> {
  switch (r.outcome) {
    case 'COMPLETED':
      return { kind: 'completed', providerReference: r.providerReference, completedAt: r.completedAt };
    case 'FAILED':
      return { kind: 'failed', reason: r.reason };
    case 'UNKNOWN':
      return { kind: 'unknown', error: r.error };
  }
}

function fromInquiry(s: ProviderRefundStatus): Answer {
  switch (s.status) {
    case 'COMPLETED':
      return { kind: 'completed', providerReference: s.providerReference, completedAt: s.completedAt };
    case 'FAILED':
      return { kind: 'failed', reason: s.reason };
    case 'NOT_FOUND':
      return { kind: 'not_found' };
  }
}

/** Sends a held PROCESSING refund to the provider and records the answer. */
async function submitRefund(ctx: RefundSubmissionDeps, r: RefundWithOrder): Promise<void> {
  crashHere(ctx, 'refund_after_persist');
  let result: RefundSubmitResult;
  try {
    const provider = await ctx.providers.forAccount(r.provider_account_id);
    result = await provider.submitRefund({ reference: r.refund_id, collectionReference: r.order_id, amountPaise: r.amount_paise });
  } catch (err) {
    result = { outcome: 'UNKNOWN', error: `adapter error: ${(err as Error).message}` };
  }
  ctx.metrics.counter('tijori_refund_submissions_total', 'Refund submissions by provider answer', ['outcome']).inc({ outcome: result.outcome });
  if (result.outcome === 'UNKNOWN') ctx.log.warn({ refund_id: r.refund_id, error: result.error }, 'refund submit outcome unknown; will inquire');
  crashHere(ctx, 'refund_after_submit');
  await recordAnswer(ctx, r.id, fromSubmit(result), { submitted: true });
}

/** The worker's step for a claimed refund: inquire; send only if the provider has never seen it. */
async function inquireRefund(ctx: RefundSubmissionDeps, r: RefundWithOrder): Promise<void> {
  const answer: Answer = await ctx.providers
    .forAccount(r.provider_account_id)
    .then((provider) => provider.refundStatus(r.refund_id, { collectionReference: r.order_id }))
    .then(fromInquiry, (err: unknown) => ({ kind: 'unknown', error: `inquiry failed: ${(err as Error).message}` }));
  if (answer.kind === 'not_found') return submitRefund(ctx, r);
  await recordAnswer(ctx, r.id, answer, { submitted: false });
}

/** Records the provider's answer in one transaction through the one writer (refund, order, event). Stale answers change nothing. */
async function recordAnswer(ctx: RefundSubmissionDeps, id: string, answer: Exclude<Answer, { kind: 'not_found' }>, o: { submitted: boolean }): Promise<void> {
  await ctx.db.tx(async (tx) => {
    const r = await lockRefund(tx, id);
    if (!r) return;
    await applyRefundAnswer(tx, r, answer, { submitted: o.submitted, retryInMs: inquiryDelayMs(ctx.config.payout, r.provider_calls) });
  });
}

/** Read back a refund with its order_id (for the submit after a create or approval). */
export async function refundWithOrder(q: Queryable, row: repo.RefundRow): Promise<RefundWithOrder> {
  const o = await orderRepo.findByIdOrOrderId(q, { id: row.order_pk });
  return { ...row, order_id: o!.order_id, provider_account_id: o!.provider_account_id };
}
