/**
 * The services of one running instance, built once and handed to the HTTP apps, the workers and
 * the tests. Each feature adds its service here, so every entry point calls the same code.
 */
import type { Config } from './config.js';
import type { RateLimiter } from './security/rate-limiter.js';
import { SourceLimits } from './http/plugins/source-limits.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { Vault } from './security/vault.js';
import { ClientsService } from './services/clients.js';
import { buildConsoleServices, type ConsoleServices } from './services/console/index.js';
import { DeliveriesService } from './services/deliveries.js';
import { DestinationsService } from './services/destinations.js';
import { EventLogService } from './services/event-log.js';
import { IdempotencyService } from './services/idempotency.js';
import { BeneficiariesService } from './services/beneficiaries.js';
import { PayoutOutcomeRecorder } from './services/payout-outcomes.js';
import { BulkPayoutsService } from './services/bulk-payouts.js';
import { PayoutApprovalsService } from './services/payout-approvals.js';
import { PayoutsService } from './services/payouts.js';
import { RoutesService } from './services/routes.js';
import { loadIfscData } from './domain/ifsc.js';
import type { Provider } from './providers/provider.js';
import type { SandboxControls } from './providers/sandbox/adapter.js';
import { PaymentOrdersService } from './services/payment-orders.js';
import { ProviderIntake } from './services/provider-intake.js';
import { ProviderAccountsService } from './services/provider-accounts.js';
import { ProviderRegistry } from './providers/registry.js';
import { ProviderAnomalies } from './services/provider-anomalies.js';
import { OperationsReviewService } from './services/operations-review.js';
import { RefundsService } from './services/refunds.js';
import type { Db } from './store/db.js';

export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  metrics: Metrics;
  vault: Vault;
  rateLimiter: RateLimiter;
  /** Failed-authentication and checkout limits per source address. */
  sourceLimits: SourceLimits;
  clients: ClientsService;
  idempotency: IdempotencyService;
  /** Callback destinations of organizations (PayIn, PayOut). */
  destinations: DestinationsService;
  /** Callback delivery from the outbox: claim, attempt, record; replay. */
  deliveries: DeliveriesService;
  /** The event log: list, replay, test events (contract §7). */
  events: EventLogService;
  /**
   * The built-in sandbox provider: the default where no provider account was chosen. Services
   * never call it directly: they ask `providers` for the order's, organization's or route's one.
   */
  provider: Provider;
  /** Which Provider serves an organization's collections, a payout route, a stored order (contract §8). */
  providers: ProviderRegistry;
  /** What providers sent that could not be used, recorded for the console (issue #22). */
  providerAnomalies: ProviderAnomalies;
  /** Provider accounts of organizations: add, list, choose (contract §8). */
  providerAccounts: ProviderAccountsService;
  /** Origin of the internal listener's provider callback intake (PROVIDER_CALLBACK_BASE_URL, else its real address). */
  providerCallbackBaseUrl(): string;
  /** Present when the provider is the sandbox: its pay/fail controls and counters. */
  sandbox: SandboxControls | undefined;
  routes: RoutesService;
  beneficiaries: BeneficiariesService;
  payouts: PayoutsService;
  /** Console payouts under maker-checker (contract §6). */
  payoutApprovals: PayoutApprovalsService;
  /** Bulk payout files: upload, decision, row-by-row submission (contract §6). */
  bulkPayouts: BulkPayoutsService;
  /** Submit and inquiry answers of payout attempts, recorded in batches. */
  payoutOutcomes: PayoutOutcomeRecorder;
  /** Base URL of the public listener (PUBLIC_BASE_URL, else the real listening address). */
  publicBaseUrl(): string;
  paymentOrders: PaymentOrdersService;
  /** Verified provider callbacks: stored, then processed by a worker. */
  providerIntake: ProviderIntake;
  /** The merchant console: users, sessions, audit log, its view of API clients. */
  console: ConsoleServices;
  /** Refunds of confirmed payments and their review (contract §6). */
  refunds: RefundsService;
  /** The operations review queue (contract §6). */
  reviews: OperationsReviewService;
}

export interface ContextDeps {
  config: Config;
  db: Db;
  log: Logger;
  rateLimiter: RateLimiter;
  provider: Provider;
  sandbox?: SandboxControls | undefined;
}

export function buildContext(deps: ContextDeps): AppContext {
  let listeningBase: string | undefined;
  let internalBase: string | undefined;
  // Keep the IFSC dataset load (~15 ms) off the first payout request.
  loadIfscData();
  const metrics = new Metrics();
  const vault = new Vault(deps.config.masterKey);
  const providerAnomalies = new ProviderAnomalies({ db: deps.db, log: deps.log });
  const clientLookups = metrics.counter('tijori_client_lookups_total', 'Authentications by where the client row came from: cache, unknown_cache (a known-unknown id) or database', ['source']);
  const ctx = {
    ...deps,
    sandbox: deps.sandbox,
    metrics,
    vault,
    routes: new RoutesService(deps.db),
    beneficiaries: new BeneficiariesService(vault),
    clients: new ClientsService(deps.db, { onLookup: (source) => clientLookups.inc({ source }) }),
    sourceLimits: new SourceLimits(
      deps.rateLimiter,
      { authFailuresPerMinute: deps.config.authFailureLimitPerMinute, checkoutPerMinute: deps.config.checkoutRateLimitPerMinute },
      deps.log,
    ),
    idempotency: new IdempotencyService(deps.db),
    destinations: new DestinationsService({
      db: deps.db,
      vault,
      urlPolicy: { allowPrivateNetworks: deps.config.callbackAllowPrivateNetworks, allowLocalHttp: deps.config.callbackAllowLocalHttp },
    }),
    deliveries: new DeliveriesService({ db: deps.db, vault, log: deps.log, metrics, retryScale: deps.config.callbackRetryScale }),
    events: new EventLogService({ db: deps.db }),
    publicBaseUrl: () => deps.config.publicBaseUrl ?? listeningBase ?? `http://${deps.config.host}:${deps.config.port}`,
    providerAnomalies,
    providers: new ProviderRegistry({
      db: deps.db,
      vault,
      log: deps.log,
      metrics,
      timeoutMs: deps.config.providerTimeoutMs,
      sandbox: deps.provider,
      anomalySink: (accountId, provider) => providerAnomalies.sinkFor(accountId, provider),
    }),
    providerCallbackBaseUrl: () => deps.config.providerCallbackBaseUrl ?? internalBase ?? `http://${deps.config.internalHost}:${deps.config.internalPort}`,
    setListeningBase: (url: string) => {
      listeningBase = url;
    },
    setInternalBase: (url: string) => {
      internalBase = url;
    },
  } as AppContext & { setListeningBase(url: string): void; setInternalBase(url: string): void };
  ctx.providerAccounts = new ProviderAccountsService(ctx);
  // These services need the finished context (provider, vault, config, each other).
  ctx.paymentOrders = new PaymentOrdersService(ctx);
  ctx.payouts = new PayoutsService(ctx);
  ctx.payoutApprovals = new PayoutApprovalsService(ctx);
  ctx.bulkPayouts = new BulkPayoutsService(ctx);
  ctx.payoutOutcomes = new PayoutOutcomeRecorder(ctx);
  ctx.providerIntake = new ProviderIntake(ctx);
  ctx.console = buildConsoleServices({
    db: deps.db,
    vault,
    rateLimiter: deps.rateLimiter,
    clients: ctx.clients,
    destinations: ctx.destinations,
    settings: deps.config.console,
    publicBaseUrl: () => ctx.publicBaseUrl(),
  });
  ctx.refunds = new RefundsService(ctx);
  ctx.reviews = new OperationsReviewService(ctx);
  return ctx;
}
