/**
 * The composition root: builds every service of one running instance once, in dependency order,
 * each given exactly what it uses (the database, other services, config values, the logger,
 * metrics). What comes out, AppContext, is the bag of built services handed to the HTTP apps, the
 * workers, the CLI's admin API and the tests; no service receives it or imports this module, so a
 * service's constructor says all it depends on (docs/architecture.md "Wiring").
 */
import { Readiness } from './readiness.js';
import type { Config } from './config.js';
import type { RateLimiter } from './security/rate-limiter.js';
import { SourceLimits } from './security/source-limits.js';
import { type Clock, realClock } from './clock.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { Vault } from './security/vault.js';
import { ClientsService } from './services/shared/clients.js';
import { buildConsoleServices, type ConsoleServices } from './services/console/index.js';
import { smtpMailer } from './net/mailer.js';
import { DeliveriesService } from './services/callbacks/deliveries.js';
import { DestinationsService } from './services/callbacks/destinations.js';
import { EventLogService } from './services/callbacks/event-log.js';
import { IdempotencyService } from './services/shared/idempotency.js';
import { BeneficiariesService } from './services/payouts/beneficiaries.js';
import { PayoutOutcomeRecorder } from './services/payouts/payout-outcomes.js';
import { PayoutSubmitter } from './services/payouts/payout-submission.js';
import { BulkPayoutsService } from './services/payouts/bulk-payouts.js';
import { PayoutApprovalsService } from './services/payouts/payout-approvals.js';
import { PayoutsService } from './services/payouts/payouts.js';
import { BankConnectionsService } from './services/payouts/bank-connections.js';
import { loadIfscData } from './domain/ifsc.js';
import type { Provider } from './providers/provider.js';
import type { SandboxControls } from './providers/sandbox/adapter.js';
import { SettlementSyncService } from './services/settlements/settlement-sync.js';
import { SettlementsService } from './services/settlements/settlements.js';
import { MerchantSettlementsService } from './services/settlements/merchant-settlements.js';
import { OrderExpiry } from './services/payin/payment-order-expiry.js';
import { PaymentOrdersService } from './services/payin/payment-orders.js';
import { ProviderIntake } from './services/providers/provider-intake.js';
import { ProviderAccountsService } from './services/providers/provider-accounts.js';
import { PayoutAccountsService } from './services/payouts/payout-account.js';
import { ProviderRegistry } from './providers/registry.js';
import { ProviderAnomalies } from './services/providers/provider-anomalies.js';
import { OperationsReviewService } from './services/payin/operations-review.js';
import { RefundSubmitter } from './services/refunds/refund-submission.js';
import { LedgerService } from './services/ledger/ledger.js';
import { MasterKeyRotation } from './services/keys/master-key-rotation.js';
import { RefundsService } from './services/refunds/refunds.js';
import { PartitionUpkeep } from './services/shared/partition-upkeep.js';
import type { Db } from './store/db.js';

/**
 * Where this instance's listeners are reachable, for links and callback addresses. The addresses
 * are known only once the listeners listen (port 0: any free port), after the services were
 * built, so services get `publicBaseUrl()` / `providerCallbackBaseUrl()` functions that read them
 * here; a configured PUBLIC_BASE_URL or PROVIDER_CALLBACK_BASE_URL wins.
 */
export class ListenerUrls {
  private listening: { publicUrl: string; internalUrl: string } | undefined;

  constructor(private readonly config: Pick<Config, 'publicBaseUrl' | 'providerCallbackBaseUrl' | 'host' | 'port' | 'internalHost' | 'internalPort'>) {}

  /** Called by startService once both listeners listen. */
  listen(addresses: { publicUrl: string; internalUrl: string }): void {
    this.listening = addresses;
  }

  publicBaseUrl(): string {
    return this.config.publicBaseUrl ?? this.listening?.publicUrl ?? `http://${this.config.host}:${this.config.port}`;
  }

  providerCallbackBaseUrl(): string {
    return this.config.providerCallbackBaseUrl ?? this.listening?.internalUrl ?? `http://${this.config.internalHost}:${this.config.internalPort}`;
  }
}

export interface AppContext {
  config: Config;
  /** The clock every time-based rule reads (src/clock.ts): real in production, a TestClock in some tests. */
  clock: Clock;
  db: Db;
  log: Logger;
  metrics: Metrics;
  vault: Vault;
  rateLimiter: RateLimiter;
  /** Where the listeners are reachable (see ListenerUrls). */
  urls: ListenerUrls;
  /** Which parts of the instance are ready (src/readiness.ts): /healthz and /readyz answer from it. */
  readiness: Readiness;
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
   * Which Provider serves an organization's collections, a bank connection, a stored order (contract §8);
   * `providers.sandbox` is the built-in sandbox, the default where no provider account was chosen.
   * Services never call it directly: they ask `providers` for the order's, organization's or bank connection's one.
   */
  providers: ProviderRegistry;
  /** What providers sent that could not be used, recorded for the console (issue #22). */
  providerAnomalies: ProviderAnomalies;
  /** Provider accounts of organizations: add, list, choose (contract §8). */
  providerAccounts: ProviderAccountsService;
  /** Origin of the internal listener's provider callback intake (PROVIDER_CALLBACK_BASE_URL, else its real address). */
  providerCallbackBaseUrl(): string;
  /** Present when the provider is the sandbox: its pay/fail controls and counters. */
  sandbox: SandboxControls | undefined;
  bankConnections: BankConnectionsService;
  beneficiaries: BeneficiariesService;
  payouts: PayoutsService;
  /** Submission of payout attempts to the bank, their inquiries and the bank's callbacks. */
  payoutSubmission: PayoutSubmitter;
  /** Console payouts under maker-checker (contract §6). */
  payoutApprovals: PayoutApprovalsService;
  /** A payout account's balance and statement check, where its provider publishes them (issue #33 item 6). */
  payoutAccounts: PayoutAccountsService;
  /** Bulk payout files: upload, decision, row-by-row submission (contract §6). */
  bulkPayouts: BulkPayoutsService;
  /** Submit and inquiry answers of payout attempts, recorded in batches. */
  payoutOutcomes: PayoutOutcomeRecorder;
  /** Base URL of the public listener (PUBLIC_BASE_URL, else the real listening address). */
  publicBaseUrl(): string;
  paymentOrders: PaymentOrdersService;
  /** The expiry of payment orders whose window ended, after a final provider check. */
  orderExpiry: OrderExpiry;
  /** Verified provider callbacks: stored, then processed by a worker. */
  providerIntake: ProviderIntake;
  /** The merchant console: users, sessions, audit log, its view of API clients. */
  console: ConsoleServices;
  /** Refunds of confirmed payments and their review (contract §6). */
  refunds: RefundsService;
  /** Submission of refunds to the provider and their inquiries. */
  refundSubmission: RefundSubmitter;
  /** The operations review queue (contract §6). */
  reviews: OperationsReviewService;
  /** The ledger's balances and its verification (contract §9); entries are posted by the writers. */
  ledger: LedgerService;
  /** The time-partitioned tables' partitions ahead (at start) and retention (the partition worker's rounds). */
  partitionUpkeep: PartitionUpkeep;
  /** Settlements from the providers, imported and reconciled (contract §9). */
  settlementSync: SettlementSyncService;
  /** Settlements, reconciliation breaks and their resolution, the expected days setting (contract §9). */
  settlements: SettlementsService;
  /** The merchant API's settlements and their lines (scope settlements:read, contract §9). */
  merchantSettlements: MerchantSettlementsService;
  /** The master key rotation of the encrypted columns (admin API, `tijori keys rotate-master`). */
  keyRotation: MasterKeyRotation;
}

export interface ContextDeps {
  /** The clock of the time-based rules (src/clock.ts); the real one unless a test hands its own. */
  clock?: Clock | undefined;
  config: Config;
  db: Db;
  log: Logger;
  rateLimiter: RateLimiter;
  provider: Provider;
  sandbox?: SandboxControls | undefined;
}

export function buildContext(deps: ContextDeps): AppContext {
  const { config, db, log, rateLimiter, provider } = deps;
  const clock = deps.clock ?? realClock;
  const sandbox = deps.sandbox;
  // Keep the IFSC dataset load (~15 ms) off the first payout request.
  loadIfscData();

  // Foundations: nothing of ours below them.
  const metrics = new Metrics();
  const vault = new Vault(config.masterKey, { previous: config.masterKeyPrevious, lookup: config.lookupKey });
  const urls = new ListenerUrls(config);
  const publicBaseUrl = () => urls.publicBaseUrl();
  const providerCallbackBaseUrl = () => urls.providerCallbackBaseUrl();
  const clientLookups = metrics.counter('tijori_client_lookups_total', 'Authentications by where the client row came from: cache, unknown_cache (a known-unknown id) or database', ['source']);
  const clients = new ClientsService(db, { clock: deps.clock, onLookup: (source) => clientLookups.inc({ source }) });
  const sourceLimits = new SourceLimits(rateLimiter, { authFailuresPerMinute: config.authFailureLimitPerMinute, checkoutPerMinute: config.checkoutRateLimitPerMinute }, log);
  const idempotency = new IdempotencyService(db);

  // Callbacks to merchants: destinations, the event log, deliveries.
  const destinations = new DestinationsService({
    db,
    vault,
    urlPolicy: { allowPrivateNetworks: config.callbackAllowPrivateNetworks, allowLocalHttp: config.callbackAllowLocalHttp },
  });
  const deliveries = new DeliveriesService({ db, vault, log, metrics, retryScale: config.callbackRetryScale });
  const events = new EventLogService({ db });

  // Providers: which one talks for an order, an organization, a bank connection; their accounts.
  // What providers sent that could not be used: recorded for the console (issue #22).
  const providerAnomalies = new ProviderAnomalies({ db, log });
  const providers = new ProviderRegistry({
    db,
    vault,
    log,
    metrics,
    timeoutMs: config.providerTimeoutMs,
    sandbox: provider,
    anomalySink: (accountId, providerName) => providerAnomalies.sinkFor(accountId, providerName),
    now: () => clock.now(),
  });
  const providerAccounts = new ProviderAccountsService({ db, vault, config, providerCallbackBaseUrl, providers });

  // PayIn.
  const paymentOrders = new PaymentOrdersService({ db, vault, log, clock, config, publicBaseUrl, providers, clients, idempotency, sandbox });
  const orderExpiry = new OrderExpiry({ db, log, providers });
  const reviews = new OperationsReviewService({ db });

  // PayOut: beneficiaries and bank connections, the recording of bank answers, submission, then the three ways a payout is made.
  const bankConnections = new BankConnectionsService(db);
  const beneficiaries = new BeneficiariesService({ db, vault });
  const payoutOutcomes = new PayoutOutcomeRecorder({ db, log, metrics, config, providerAnomalies });
  const payoutSubmission = new PayoutSubmitter({ db, log, metrics, config, providerAnomalies, providers, beneficiaries, payoutOutcomes });
  const payouts = new PayoutsService({ db, config, idempotency, providers, beneficiaries, submission: payoutSubmission });
  const payoutAccounts = new PayoutAccountsService({ db, providers, log });
  const payoutApprovals = new PayoutApprovalsService({ db, config, idempotency, payouts, providers, beneficiaries, submission: payoutSubmission });
  const bulkPayouts = new BulkPayoutsService({ db, vault, log, config, payoutApprovals, providers, beneficiaries, submission: payoutSubmission });

  // Provider callbacks, dispatched to the aggregates above.
  const providerIntake = new ProviderIntake({ db, log, metrics, providers, providerAnomalies, paymentOrders, payoutSubmission });

  // Refunds.
  const refundSubmission = new RefundSubmitter({ db, log, metrics, config, providers });
  const refunds = new RefundsService({ db, log, config, idempotency, submission: refundSubmission });

  // Settlements and reconciliation.
  const settlementSync = new SettlementSyncService({ db, log, metrics, providers });
  const settlements = new SettlementsService({ db, sandbox });

  // SMTP_URL set: console invitations and reset links are mailed, never shown (docs/console.md).
  const mailer = config.smtp ? smtpMailer(config.smtp) : undefined;
  const ledger = new LedgerService({ db });
  const consoleServices = buildConsoleServices({ db, vault, rateLimiter, clock, clients, destinations, ledger, settings: config.console, publicBaseUrl, mailer, log });

  return {
    config, clock, db, log, metrics, vault, rateLimiter, urls, sourceLimits, clients, idempotency, destinations, deliveries, events,
    providers, providerAnomalies, providerAccounts, providerCallbackBaseUrl, sandbox, bankConnections, beneficiaries, payouts, payoutSubmission,
    payoutApprovals, payoutAccounts, bulkPayouts, payoutOutcomes, publicBaseUrl, paymentOrders, orderExpiry, providerIntake,
    console: consoleServices, refunds, refundSubmission, reviews, ledger, settlementSync, settlements,
    merchantSettlements: new MerchantSettlementsService({ db }),
    keyRotation: new MasterKeyRotation({ db, vault }),
    partitionUpkeep: new PartitionUpkeep({ db, log, metrics, config }),
    readiness: new Readiness(),
  };
}
