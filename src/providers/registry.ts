/**
 * Which Provider talks for a given organization's collections, bank connection or stored order
 * (contract §8). Provider accounts are built into connector instances from their decrypted
 * config once and cached (an account's config never changes after `provider add`). The built-in
 * sandbox is the default wherever no account was chosen, and is what a null account id means.
 *
 * A new connector plugs in through PROVIDER_FACTORIES: one entry per provider kind, building the
 * connector from its validated config.
 */
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Vault } from '../security/vault.js';
import type { Db } from '../store/db.js';
import * as repo from '../store/repos/provider-accounts-repo.js';
import { createCashfreeProvider } from './cashfree/adapter.js';
import { RazorpayXProvider } from './razorpayx/connector.js';
import type { CashfreeConfig, ProviderAccountConfig, ProviderKind, RazorpayxConfig } from './accounts/config.js';
import type { Provider } from './provider.js';
import type { AnomalySink } from './anomalies.js';
import type { ProviderFactoryDeps } from './factory-deps.js';

export type { ProviderFactoryDeps } from './factory-deps.js';

type ConfigOf<K extends ProviderKind> = Extract<ProviderAccountConfig, { provider: K }>;
export type ProviderFactory<K extends ProviderKind> = (config: ConfigOf<K>, deps: ProviderFactoryDeps) => Provider;

/**
 * Connector constructors by provider kind. `sandbox` accounts are the built-in sandbox (no
 * factory).
 */
export const PROVIDER_FACTORIES: { cashfree: ProviderFactory<'cashfree'>; razorpayx: ProviderFactory<'razorpayx'> } = {
  cashfree: (cfg: CashfreeConfig, deps) => createCashfreeProvider(cfg, deps),
  razorpayx: (cfg: RazorpayxConfig, deps) =>
    new RazorpayXProvider(cfg, { log: deps.log, metrics: deps.metrics, timeoutMs: deps.timeoutMs, ...(deps.anomalies ? { anomalies: deps.anomalies } : {}) }),
};

/** The vault context that binds an account's encrypted config to its row. */
export function providerConfigContext(accountId: string): string {
  return `provider_account:${accountId}`;
}

export interface ProviderRegistryDeps {
  db: Db;
  vault: Vault;
  log: Logger;
  metrics: Metrics;
  timeoutMs: number;
  /** The built-in sandbox: the default provider. */
  sandbox: Provider;
  /** The anomaly sink of an account's connector (src/services/providers/provider-anomalies.ts). */
  anomalySink?: (accountId: string, provider: string) => AnomalySink;
  /** The service's clock (src/clock.ts) for the connectors' waits; Date.now when absent. */
  now?: () => number;
}

/** How long an organization's choice of collections account is cached per instance (see forCollections). */
export const COLLECTIONS_CHOICE_TTL_MS = 5_000;

export class ProviderRegistry {
  private readonly built = new Map<string, Promise<Provider>>();
  private readonly orgChoice = new Map<string, { accountId: string | null; until: number }>();
  /** A bank connection's account never changes after the bank connection is created: cached for good. */
  private readonly bankConnectionAccounts = new Map<string, string | null>();

  constructor(private readonly deps: ProviderRegistryDeps) {}

  /** The built-in sandbox, used where no account was chosen. */
  get sandbox(): Provider {
    return this.deps.sandbox;
  }

  /** The Provider of an account (null: the built-in sandbox); NOT_FOUND-style null when no such account. */
  async forAccount(accountId: string | null): Promise<Provider> {
    if (accountId === null) return this.deps.sandbox;
    let p = this.built.get(accountId);
    if (!p) {
      p = this.build(accountId);
      this.built.set(accountId, p);
      p.catch(() => this.built.delete(accountId));
    }
    return p;
  }

  /** Like forAccount, but null when the account does not exist (callback intake: 404). */
  async findAccount(accountId: string): Promise<Provider | null> {
    try {
      return await this.forAccount(accountId);
    } catch (err) {
      if (err instanceof UnknownProviderAccountError) return null;
      throw err;
    }
  }

  private async build(accountId: string): Promise<Provider> {
    const row = await repo.findAccount(this.deps.db, accountId);
    if (!row) throw new UnknownProviderAccountError(accountId);
    if (row.provider === 'sandbox') return this.deps.sandbox;
    const config = JSON.parse(this.deps.vault.decrypt(row.config_enc, providerConfigContext(row.id))) as ProviderAccountConfig;
    const anomalies = this.deps.anomalySink?.(accountId, config.provider);
    const base = { accountId, livemode: row.livemode, log: this.deps.log, metrics: this.deps.metrics, timeoutMs: this.deps.timeoutMs, ...(anomalies ? { anomalies } : {}), ...(this.deps.now ? { now: this.deps.now } : {}) };
    switch (config.provider) {
      case 'sandbox':
        return this.deps.sandbox;
      case 'cashfree':
        return PROVIDER_FACTORIES.cashfree(config, base);
      case 'razorpayx':
        return PROVIDER_FACTORIES.razorpayx(config, base);
    }
  }

  /**
   * The account (and its Provider) for an organization's new payment orders. The choice is cached
   * per instance for COLLECTIONS_CHOICE_TTL_MS (one read less per order); `tijori collections use`
   * clears it on the instance that served it, other instances follow within the TTL.
   */
  async forCollections(orgId: string): Promise<{ accountId: string | null; provider: Provider }> {
    const now = Date.now();
    let choice = this.orgChoice.get(orgId);
    if (!choice || choice.until < now) {
      choice = { accountId: await repo.collectionsAccountOf(this.deps.db, orgId), until: now + COLLECTIONS_CHOICE_TTL_MS };
      if (this.orgChoice.size > 10_000) this.orgChoice.clear();
      this.orgChoice.set(orgId, choice);
    }
    return { accountId: choice.accountId, provider: await this.forAccount(choice.accountId) };
  }

  /** Forgets the cached collections choice of an organization (after `collections use`). */
  forgetCollectionsChoice(orgId: string): void {
    this.orgChoice.delete(orgId);
  }

  /** The Provider of a bank connection (its account never changes after the bank connection is created). */
  async forBankConnection(bankConnectionId: string): Promise<Provider> {
    let accountId = this.bankConnectionAccounts.get(bankConnectionId);
    if (accountId === undefined) {
      accountId = await repo.bankConnectionAccountOf(this.deps.db, bankConnectionId);
      if (this.bankConnectionAccounts.size > 10_000) this.bankConnectionAccounts.clear();
      this.bankConnectionAccounts.set(bankConnectionId, accountId);
    }
    return this.forAccount(accountId);
  }
}

export class UnknownProviderAccountError extends Error {
  constructor(accountId: string) {
    super(`no provider account ${accountId}`);
    this.name = 'UnknownProviderAccountError';
  }
}
