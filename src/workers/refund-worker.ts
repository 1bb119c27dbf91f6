/**
 * Settles refunds on its own: claims PROCESSING refunds whose lease ended (a create or approval
 * that crashed between persisting and calling the provider, an UNKNOWN answer due for inquiry)
 * with FOR UPDATE SKIP LOCKED, so several instances can run it, and inquires by our refund_id
 * before anything else (refund-submission.ts).
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

const BATCH = 20;

export function createRefundWorker(ctx: AppContext): PollingWorker {
  // A refund stuck without an answer is visible: PROCESSING refunds by submission state, and the oldest's age.
  const unresolved = ctx.metrics.gauge('tijori_refunds_unresolved', 'Refunds PROCESSING at the provider, by submission state', ['submission']);
  const oldest = ctx.metrics.gauge('tijori_refund_oldest_unresolved_seconds', 'Age of the oldest PROCESSING refund, by submission state', ['submission']);
  let refreshedAt = 0;
  const refreshMetrics = async () => {
    if (Date.now() - refreshedAt < ctx.config.payout.workerIntervalMs) return;
    refreshedAt = Date.now();
    const summary = await ctx.refundSubmission.unresolvedSummary();
    for (const submission of ['NOT_SENT', 'ACCEPTED', 'UNKNOWN']) {
      const s = summary.find((x) => x.submission === submission);
      unresolved.set({ submission }, s?.n ?? 0);
      oldest.set({ submission }, s?.oldest_s ?? 0);
    }
  };
  return new PollingWorker({
    name: 'refund-inquiry',
    // The payout worker's cadence and lease: the same provider rules.
    intervalMs: ctx.config.payout.workerIntervalMs,
    log: ctx.log,
    tick: async () => {
      const claimed = await ctx.refundSubmission.inquireDue(BATCH);
      await refreshMetrics();
      return claimed;
    },
  });
}
