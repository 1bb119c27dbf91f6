/** Prometheus metrics of one instance, served on the internal listener at /metrics. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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
