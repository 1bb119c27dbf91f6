/**
 * Upkeep of the time-partitioned tables (callback deliveries and attempts, provider events and
 * checks, console sessions): weekly partitions four weeks ahead, and those wholly older than
 * RETENTION_DAYS detached and dropped (src/store/partitions.ts, docs/scaling.md "Partitions and
 * retention"), with what each round did on /metrics and in the log. The partition worker runs it.
 */
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Db } from '../../store/db.js';
import { maintainPartitions } from '../../store/partitions.js';

export type PartitionUpkeep = (now: Date) => Promise<void>;

export function partitionUpkeep(ctx: { db: Db; log: Logger; metrics: Metrics; config: { retentionDays: number } }): PartitionUpkeep {
  const created = ctx.metrics.counter('tijori_partitions_created_total', 'Time partitions created ahead, by table', ['table']);
  const dropped = ctx.metrics.counter('tijori_partitions_dropped_total', 'Time partitions detached and dropped (older than RETENTION_DAYS), by table', ['table']);
  const ahead = ctx.metrics.gauge('tijori_partition_ahead_seconds', 'How far ahead of now the last partition of each partitioned table ends (inserts past it would fail)', ['table']);
  const count = ctx.metrics.gauge('tijori_partitions', 'Partitions of each partitioned table', ['table']);
  return async (now) => {
    const round = await maintainPartitions(ctx.db, { now, retentionDays: ctx.config.retentionDays });
    if (!round.ran) return;
    for (const [table, n] of Object.entries(round.created)) if (n > 0) created.inc({ table }, n);
    for (const [table, names] of Object.entries(round.dropped)) {
      if (names.length === 0) continue;
      dropped.inc({ table }, names.length);
      ctx.log.info({ table, partitions: names, retentionDays: ctx.config.retentionDays }, 'partitions older than the retention dropped');
    }
    for (const [table, ms] of Object.entries(round.aheadMs)) ahead.set({ table }, Math.round(ms / 1000));
    for (const [table, n] of Object.entries(round.partitions)) count.set({ table }, n);
  };
}
