/** Prometheus metrics of one instance, served on the internal listener at /metrics. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Families with labels whose values are known before any event. Each is registered when the
 * instance starts, every known series at 0, so alert rules (`rate(...) > 0`, `absent(...)`) see
 * the series from the first scrape instead of only after the first event (issue #28). The code
 * that counts gets the same family back from counter()/gauge() by name.
 */
/** The time-partitioned tables (migration 0150, src/store/partitions.ts). */
const PARTITIONED_TABLES = ['callback_deliveries', 'callback_delivery_attempts', 'provider_events', 'provider_checks', 'console_sessions'] as const;

const KNOWN_FAMILIES: Array<{ type: 'counter' | 'gauge'; name: string; help: string; label: string; values: readonly string[] }> = [
  { type: 'counter', name: 'tijori_payout_submissions_total', help: 'Payout submissions by provider answer', label: 'outcome', values: ['ACCEPTED', 'REJECTED', 'UNKNOWN'] },
  { type: 'counter', name: 'tijori_payout_inquiries_total', help: 'Payout status inquiries by answer', label: 'answer', values: ['NOT_FOUND', 'PENDING', 'SUCCESS', 'FAILED', 'REVERSED', 'NO_ANSWER'] },
  { type: 'counter', name: 'tijori_refund_submissions_total', help: 'Refund submissions by provider answer', label: 'outcome', values: ['COMPLETED', 'FAILED', 'UNKNOWN'] },
  {
    type: 'counter',
    name: 'tijori_callback_attempts_total',
    help: 'Callback delivery attempts, by result',
    label: 'result',
    // `http_<status>` series appear with their first answer: there are too many statuses to list.
    values: ['delivered', 'timeout', 'connect_timeout', 'host_unreachable', 'network_error', 'tls_error', 'redirect_not_followed'],
  },
  { type: 'counter', name: 'tijori_client_lookups_total', help: 'Authentications by where the client row came from: cache, unknown_cache (a known-unknown id) or database', label: 'source', values: ['cache', 'unknown_cache', 'database'] },
  { type: 'counter', name: 'tijori_partitions_created_total', help: 'Time partitions created ahead, by table', label: 'table', values: PARTITIONED_TABLES },
  { type: 'counter', name: 'tijori_partitions_dropped_total', help: 'Time partitions detached and dropped (older than RETENTION_DAYS), by table', label: 'table', values: PARTITIONED_TABLES },
  { type: 'gauge', name: 'tijori_payout_attempts_unresolved', help: 'Payout attempts not yet decided, by status', label: 'status', values: ['PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN'] },
  { type: 'gauge', name: 'tijori_payout_attempt_oldest_unresolved_seconds', help: 'Age of the oldest undecided payout attempt, by status', label: 'status', values: ['PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN'] },
  { type: 'gauge', name: 'tijori_refunds_unresolved', help: 'Refunds PROCESSING at the provider, by submission state', label: 'submission', values: ['NOT_SENT', 'ACCEPTED', 'UNKNOWN'] },
  { type: 'gauge', name: 'tijori_refund_oldest_unresolved_seconds', help: 'Age of the oldest PROCESSING refund, by submission state', label: 'submission', values: ['NOT_SENT', 'ACCEPTED', 'UNKNOWN'] },
];

/** Families without labels that are counted only where an event happens: registered at start so they read 0. */
const PLAIN_COUNTERS: Array<{ name: string; help: string }> = [{ name: 'tijori_payout_invalid_utr_total', help: 'Provider successes rejected for a UTR of the wrong shape' }];

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'tijori_http_requests_total',
    help: 'HTTP requests answered, by listener, route template and status',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'tijori_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['listener', 'route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly dbUp = new Gauge({ name: 'tijori_database_up', help: '1 when the last database check succeeded', registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tijori_' });
    for (const f of KNOWN_FAMILIES) {
      if (f.type === 'counter') {
        const c = this.counter(f.name, f.help, [f.label]);
        for (const v of f.values) c.inc({ [f.label]: v }, 0);
      } else {
        const g = this.gauge(f.name, f.help, [f.label]);
        for (const v of f.values) g.set({ [f.label]: v }, 0);
      }
    }
    for (const c of PLAIN_COUNTERS) this.counter(c.name, c.help);
  }

  /** Lets other parts (workers, providers) register their own metrics on the same registry. */
  counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Counter<string>;
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Gauge<string>;
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Histogram<string>;
    return new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }
}
