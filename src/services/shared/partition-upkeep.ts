/**
 * Upkeep of the time-partitioned tables (callback deliveries and attempts, provider events and
 * checks, console sessions): weekly partitions four weeks ahead, and those wholly older than
 * RETENTION_DAYS detached and dropped (src/store/partitions.ts, docs/scaling.md "Partitions and
 * retention"), with what each round did on /metrics and in the log.
 *
 * Two callers, each step done once at start: the service's start awaits `ahead` before it accepts
 * any write (whether or not this instance runs workers), and the partition worker runs `round`
 * at start and hourly; a round that follows a successful `ahead` of this process skips the
 * creation the start has just done. `ahead` touches no metric: an instance without the worker
 * would otherwise report its start's "weeks ahead" for ever and hide the alert that no instance
 * keeps them.
 */
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Db } from '../../store/db.js';
import { maintainPartitions } from '../../store/partitions.js';

export interface PartitionUpkeepDeps {
  db: Db;
  log: Logger;
  metrics: Metrics;
  config: { retentionDays: number };
}

export class PartitionUpkeep {
  private readonly created;
  private readonly dropped;
  private readonly aheadSeconds;
  private readonly count;
  /** `ahead` made them and no round has run since: the next round need not create them again. */
  private madeAhead = false;

  constructor(private readonly deps: PartitionUpkeepDeps) {
    const m = deps.metrics;
    this.created = m.counter('tijori_partitions_created_total', 'Time partitions created ahead, by table', ['table']);
    this.dropped = m.counter('tijori_partitions_dropped_total', 'Time partitions detached and dropped (older than RETENTION_DAYS), by table', ['table']);
    this.aheadSeconds = m.gauge('tijori_partition_ahead_seconds', 'How far ahead of now the last partition of each partitioned table ends (inserts past it would fail)', ['table']);
    this.count = m.gauge('tijori_partitions', 'Partitions of each partitioned table', ['table']);
  }

  /** At start, after migrating: the partitions ahead of `now`, so inserts have somewhere to go before any traffic. */
  async ahead(now: Date): Promise<void> {
    const round = await maintainPartitions(this.deps.db, { now, retentionDays: null });
    // Not made (another instance holds the lock, and makes them): the worker's round makes sure.
    this.madeAhead = round.ran;
  }

  /** The worker's round: partitions ahead (unless `ahead` just made them), old ones dropped, the metrics. */
  async round(now: Date): Promise<void> {
    const create = !this.madeAhead;
    this.madeAhead = false;
    const round = await maintainPartitions(this.deps.db, { now, retentionDays: this.deps.config.retentionDays, create });
    if (!round.ran) return;
    for (const [table, n] of Object.entries(round.created)) if (n > 0) this.created.inc({ table }, n);
    for (const [table, names] of Object.entries(round.dropped)) {
      if (names.length === 0) continue;
      this.dropped.inc({ table }, names.length);
      this.deps.log.info({ table, partitions: names, retentionDays: this.deps.config.retentionDays }, 'partitions older than the retention dropped');
    }
    for (const [table, ms] of Object.entries(round.aheadMs)) this.aheadSeconds.set({ table }, Math.round(ms / 1000));
    for (const [table, n] of Object.entries(round.partitions)) this.count.set({ table }, n);
  }
}
