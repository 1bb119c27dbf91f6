/**
 * Settles refunds on its own: claims PROCESSING refunds whose lease ended (a create or approval
 * that crashed between persisting and calling the provider, an UNKNOWN answer due for inquiry)
 * with FOR UPDATE SKIP LOCKED, so several instances can run it, and inquires by our refund_id
 * before anything else (refund-submission.ts).
 */
import type { AppContext } from '../context.js';
import { inquireRefund } from '../services/refund-submission.js';
import * as repo from '../store/repos/refunds-repo.js';
import { PollingWorker } from './polling-worker.js';

const BATCH = 20;

export function createRefundWorker(ctx: AppContext): PollingWorker {
  return new PollingWorker({
    name: 'refund-inquiry',
    // The payout worker's cadence and lease: the same provider rules.
    intervalMs: ctx.config.payout.workerIntervalMs,
    log: ctx.log,
    tick: async () => {
      const claimed = await repo.claimDue(ctx.db, BATCH, ctx.config.payout.leaseMs);
      await Promise.all(
        claimed.map((r) =>
          inquireRefund(ctx, r).catch((err: unknown) => {
            // The lease ends and the next tick retries; nothing was guessed.
            ctx.log.warn({ refund_id: r.refund_id, err: (err as Error).message }, 'refund inquiry failed');
          }),
        ),
      );
      return claimed.length;
    },
  });
}
