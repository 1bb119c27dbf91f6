/**
 * What the registry (registry.ts) hands a connector it builds from a provider account: in a file of
 * its own so that the connectors need not import the registry that imports them.
 */
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { AnomalySink } from './anomalies.js';

export interface ProviderFactoryDeps {
  accountId: string;
  livemode: boolean;
  log: Logger;
  metrics: Metrics;
  /** Bound of every provider call (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Where the connector records the anomalies it counts (bound to this account). */
  anomalies?: AnomalySink;
  /** Milliseconds since the epoch, for waits a provider imposes (Cashfree's rate-limit window); the service's clock. */
  now?: () => number;
}
