/**
 * The services of one running instance, built once and handed to the HTTP apps, the workers and
 * the tests. Each feature adds its service here, so every entry point calls the same code.
 */
import type { Config } from './config.js';
import type { RateLimiter } from './http/plugins/rate-limiter.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { Vault } from './security/vault.js';
import { ClientsService } from './services/clients.js';
import { DeliveriesService } from './services/deliveries.js';
import { DestinationsService } from './services/destinations.js';
import { IdempotencyService } from './services/idempotency.js';
import type { Provider } from './providers/provider.js';
import type { Db } from './store/db.js';

export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  metrics: Metrics;
  vault: Vault;
  rateLimiter: RateLimiter;
  clients: ClientsService;
  idempotency: IdempotencyService;
  /** Callback destinations of organizations (PayIn, PayOut). */
  destinations: DestinationsService;
  /** Callback delivery from the outbox: claim, attempt, record; replay. */
  deliveries: DeliveriesService;
  /** The provider adapter for new orders and payouts (PROVIDER; `sandbox` by default). */
  provider: Provider;
  /** Base URL of the public listener (PUBLIC_BASE_URL, else the real listening address). */
  publicBaseUrl(): string;
}

export interface ContextDeps {
  config: Config;
  db: Db;
  log: Logger;
  rateLimiter: RateLimiter;
  provider: Provider;
}

export function buildContext(deps: ContextDeps): AppContext {
  let listeningBase: string | undefined;
  const metrics = new Metrics();
  const vault = new Vault(deps.config.masterKey);
  const ctx: AppContext & { setListeningBase(url: string): void } = {
    ...deps,
    metrics,
    vault,
    clients: new ClientsService(deps.db),
    idempotency: new IdempotencyService(deps.db),
    destinations: new DestinationsService({ db: deps.db, vault, allowPrivateNetworks: deps.config.callbackAllowPrivateNetworks }),
    deliveries: new DeliveriesService({ db: deps.db, vault, log: deps.log, metrics, retryScale: deps.config.callbackRetryScale }),
    publicBaseUrl: () => deps.config.publicBaseUrl ?? listeningBase ?? `http://${deps.config.host}:${deps.config.port}`,
    setListeningBase: (url: string) => {
      listeningBase = url;
    },
  };
  return ctx;
}
