/**
 * Settles payouts on its own, callbacks or not: claims unresolved attempts that are due (FOR
 * UPDATE SKIP LOCKED + a lease, so several instances can run it) and inquires at the bank by our
 * reference. It also resumes creates that crashed between persisting and submitting: a
 * PENDING_SUBMIT attempt whose lease expired is inquired first and sent only if the bank has
 * never seen it. Unresolved attempts are exported as metrics so a stuck UNKNOWN is visible.
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

const BATCH = 20;

export function createPayoutWorker(ctx: AppContext): PollingWorker {
  const unresolved = ctx.metrics.gauge('tijori_payout_attempts_unresolved', 'Payout attempts not yet decided, by status', ['status']);
  const oldest = ctx.metrics.gauge('tijori_payout_attempt_oldest_unresolved_seconds', 'Age of the oldest undecided payout attempt, by status', ['status']);
  // The summary counts every unresolved attempt: once per interval, not after every busy tick.
  let refreshedAt = 0;
  const refreshMetrics = async () => {
    if (Date.now() - refreshedAt < ctx.config.payout.workerIntervalMs) return;
    refreshedAt = Date.now();
    const summary = await ctx.payoutSubmission.unresolvedSummary();
    for (const status of ['PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN']) {
      const s = summary.find((x) => x.status === status);
      unresolved.set({ status }, s?.n ?? 0);
      oldest.set({ status }, s?.oldest_s ?? 0);
    }
  };
  return new PollingWorker({
    name: 'payout-inquiry',
    intervalMs: ctx.config.payout.workerIntervalMs,
    log: ctx.log,
    tick: async () => {
      const claimed = await ctx.payoutSubmission.inquireDue(BATCH);
      await refreshMetrics();
      return claimed;
    },
  });
}
