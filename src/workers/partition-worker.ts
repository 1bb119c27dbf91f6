/**
 * Keeps the time-partitioned tables (callback deliveries and attempts, provider events and checks,
 * console sessions): weekly partitions four weeks ahead, and those wholly older than RETENTION_DAYS
 * detached and dropped (src/store/partitions.ts, docs/scaling.md "Partitions and retention").
 * Runs at start, then hourly; several instances may run it (an advisory lock: one at a time).
 * Money records (orders, payouts, refunds, the ledger, settlements) and the audit logs are not
 * partitioned and never dropped.
 */
import type { AppContext } from '../context.js';
import { maintainPartitions } from '../store/partitions.js';
import { PollingWorker } from './polling-worker.js';

export const PARTITION_INTERVAL_MS = 3_600_000;

export function createPartitionWorker(ctx: Pick<AppContext, 'db' | 'log' | 'metrics' | 'config'>, intervalMs = PARTITION_INTERVAL_MS, now: () => Date = () => new Date()): PollingWorker {
  const created = ctx.metrics.counter('tijori_partitions_created_total', 'Time partitions created ahead, by table', ['table']);
  const dropped = ctx.metrics.counter('tijori_partitions_dropped_total', 'Time partitions detached and dropped (older than RETENTION_DAYS), by table', ['table']);
  const ahead = ctx.metrics.gauge('tijori_partition_ahead_seconds', 'How far ahead of now the last partition of each partitioned table ends (inserts past it would fail)', ['table']);
  const count = ctx.metrics.gauge('tijori_partitions', 'Partitions of each partitioned table', ['table']);
  return new PollingWorker({
    name: 'partitions',
    intervalMs,
    maxBackoffMs: 60_000,
    log: ctx.log,
    tick: async () => {
      const round = await maintainPartitions(ctx.db, { now: now(), retentionDays: ctx.config.retentionDays });
      if (!round.ran) return 0;
      for (const [table, n] of Object.entries(round.created)) if (n > 0) created.inc({ table }, n);
      for (const [table, names] of Object.entries(round.dropped)) {
        if (names.length === 0) continue;
        dropped.inc({ table }, names.length);
        ctx.log.info({ table, partitions: names, retentionDays: ctx.config.retentionDays }, 'partitions older than the retention dropped');
      }
      for (const [table, ms] of Object.entries(round.aheadMs)) ahead.set({ table }, Math.round(ms / 1000));
      for (const [table, n] of Object.entries(round.partitions)) count.set({ table }, n);
      return 0;
    },
  });
}
