/**
 * Keeps the time-partitioned tables (callback deliveries and attempts, provider events and checks,
 * console sessions): weekly partitions four weeks ahead, and those wholly older than RETENTION_DAYS
 * detached and dropped (services/shared/partition-upkeep.ts over src/store/partitions.ts, docs/scaling.md "Partitions and retention").
 * Runs at start (after the service's start made the partitions ahead: this first round only drops),
 * then hourly; several instances may run it (an advisory lock: one at a time). Its "now" is the
 * context's clock (src/clock.ts), so a test moves it weeks on to see partitions age out.
 * Money records (orders, payouts, refunds, the ledger, settlements) and the audit logs are not
 * partitioned and never dropped.
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export const PARTITION_INTERVAL_MS = 3_600_000;

export function createPartitionWorker(ctx: Pick<AppContext, 'partitionUpkeep' | 'clock' | 'log'>, intervalMs = PARTITION_INTERVAL_MS): PollingWorker {
  return new PollingWorker({
    name: 'partitions',
    intervalMs,
    maxBackoffMs: 60_000,
    log: ctx.log,
    tick: async () => {
      await ctx.partitionUpkeep.round(new Date(ctx.clock.now()));
      return 0;
    },
  });
}
