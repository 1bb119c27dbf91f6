/**
 * Submits approved bulk payout files row by row (services/payouts/bulk-payouts.ts). A file is held with a
 * lease (FOR UPDATE SKIP LOCKED), so several instances share the work and a file whose holder
 * crashed is picked up again once its lease ends: rows without a payout are done then, rows whose
 * payout was committed are never made again (unique by file and line), and their attempts are
 * settled by the payout worker.
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export function createBulkPayoutWorker(ctx: AppContext): PollingWorker {
  return new PollingWorker({
    name: 'bulk-payouts',
    intervalMs: ctx.config.payout.workerIntervalMs,
    log: ctx.log,
    tick: () => ctx.bulkPayouts.submitApprovedFiles(),
  });
}
