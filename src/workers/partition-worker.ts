/**
 * Keeps the time-partitioned tables (callback deliveries and attempts, provider events and checks,
 * console sessions): weekly partitions four weeks ahead, and those wholly older than RETENTION_DAYS
 * detached and dropped (services/shared/partition-upkeep.ts over src/store/partitions.ts, docs/scaling.md "Partitions and retention").
 * Runs at start, then hourly; several instances may run it (an advisory lock: one at a time).
 * Money records (orders, payouts, refunds, the ledger, settlements) and the audit logs are not
 * partitioned and never dropped.
 */
import type { AppContext } from '../context.js';
import { partitionUpkeep } from '../services/shared/partition-upkeep.js';
import { PollingWorker } from './polling-worker.js';

export const PARTITION_INTERVAL_MS = 3_600_000;

export function createPartitionWorker(ctx: Pick<AppContext, 'db' | 'log' | 'metrics' | 'config'>, intervalMs = PARTITION_INTERVAL_MS, now: () => Date = () => new Date()): PollingWorker {
  const upkeep = partitionUpkeep(ctx);
  return new PollingWorker({
    name: 'partitions',
    intervalMs,
    maxBackoffMs: 60_000,
    log: ctx.log,
    tick: async () => {
      await upkeep(now());
      return 0;
    },
  });
}
