/**
 * Provider accounts of organizations (contract §8): add (config validated, then stored encrypted
 * with the MASTER_KEY and never shown again), list (never a credential), choose the account of an
 * organization's collections, and check the account a bank connection asks for. The CLI (operator)
 * and the console's "Provider accounts" page (admins) call the same methods; every change is
 * written to the audit log in its own transaction, without any part of the config.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { AppError, validationError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import { COLLECTION_PROVIDERS, consoleBaseUrlIssue, isProviderKind, livemodeOfConfig, PAYOUT_PROVIDERS, type ProviderKind, validateProviderConfig } from '../../providers/accounts/config.js';
import { providerConfigContext, type ProviderRegistry } from '../../providers/registry.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/provider-accounts-repo.js';
import { type Actor, OPERATOR, recordAudit } from '../console/audit.js';
import { samePerson } from '../shared/dual-control.js';

/** What ProviderAccountsService uses; built by the composition root (context.ts). */
export interface ProviderAccountsDeps {
  db: Db;
  vault: Vault;
  config: Pick<Config, 'production' | 'callbackAllowPrivateNetworks'>;
  /** Origin of the internal listener's provider callback intake. */
  providerCallbackBaseUrl(): string;
  providers: Pick<ProviderRegistry, 'forgetCollectionsChoice'>;
}

export interface ProviderAccountView {
  provider_account_id: string;
  provider: string;
  name: string;
  livemode: boolean;
}

/** The console's view of an account: what it serves and where the provider posts; never a credential. */
export interface ProviderAccountConsoleView extends ProviderAccountView {
  /** The intake address to paste into the provider's dashboard (webhook URL). */
  callback_url: string;
  /** True for the account of the organization's new payment orders. */
  serves_collections: boolean;
  /** The bank connections sending through it. */
  payout_routes: Array<{ bank_connection_id: string; name: string; active: boolean }>;
  created_at: string;
}

export class ProviderAccountsService {
  constructor(private readonly ctx: ProviderAccountsDeps) {}

  /** Where the provider posts its callbacks for this account (register it at the provider). */
  callbackUrl(accountId: string): string {
    return `${this.ctx.providerCallbackBaseUrl()}/provider/${accountId}/callbacks`;
  }

  /** `fromConsole`: a merchant admin in the console, held to the provider's own addresses (consoleBaseUrlIssue); else the operator. */
  async add(input: { orgId: string; provider: string; config: unknown; name?: string | undefined; actor?: Actor; fromConsole?: boolean }): Promise<ProviderAccountView & { callback_url: string }> {
    if (!isUuid(input.orgId)) throw validationError([{ field: 'org', issue: 'must be an organization id (UUID)' }]);
    const config = validateProviderConfig(input.provider, input.config, { production: this.ctx.config.production });
    if (input.fromConsole) {
      const issue = consoleBaseUrlIssue(config, { allowPrivateNetworks: this.ctx.config.callbackAllowPrivateNetworks });
      if (issue) throw validationError([{ field: 'config.base_url', issue }]);
    }
    const name = (input.name ?? `${input.provider} account`).trim();
    if (name.length < 1 || name.length > 200) throw validationError([{ field: 'name', issue: 'must be 1 to 200 characters' }]);
    const id = randomUUID();
    const configEnc = this.ctx.vault.encrypt(JSON.stringify(config), providerConfigContext(id));
    const row = await this.ctx.db.tx(async (q) => {
      const added = await repo.insertAccount(q, { id, org_id: input.orgId, provider: config.provider, name, livemode: livemodeOfConfig(config), config_enc: configEnc });
      if (!added) throw new AppError('NOT_FOUND', 'No such organization.');
      // Whoever entered the credentials does not also choose the account for collections (dual control).
      if (input.actor?.userId) await repo.setAddedBy(q, id, input.actor.userId);
      // Never the config: its credentials stay in config_enc only.
      await recordAudit(q, input.actor ?? OPERATOR, {
        orgId: input.orgId,
        action: 'provider_account.added',
        targetType: 'provider_account',
        targetId: id,
        after: { provider: added.provider, name: added.name, livemode: added.livemode },
      });
      return added;
    });
    return { ...viewOf(row), callback_url: this.callbackUrl(id) };
  }

  async list(orgId: string): Promise<ProviderAccountView[]> {
    const rows = isUuid(orgId) ? await repo.listAccounts(this.ctx.db, orgId) : null;
    if (!rows) throw new AppError('NOT_FOUND', 'No such organization.');
    return rows.map(viewOf);
  }

  /** The organization's account of `kind` use; 404 when it is not one of the organization's accounts. */
  async accountFor(orgId: string, accountId: string, allowed: readonly ProviderKind[], use: string): Promise<repo.ProviderAccountRow> {
    const row = isUuid(accountId) ? await repo.findAccount(this.ctx.db, accountId) : null;
    if (!row || row.org_id !== orgId) throw new AppError('NOT_FOUND', 'No such provider account of this organization.');
    if (!isProviderKind(row.provider) || !allowed.includes(row.provider)) {
      throw validationError([{ field: 'provider_account', issue: `a ${row.provider} account cannot carry ${use} (allowed: ${allowed.join(', ')})` }]);
    }
    return row;
  }

  /** `tijori collections use` (and the console): the account of the organization's new payment orders. */
  async useForCollections(orgId: string, accountId: string, actor: Actor = OPERATOR): Promise<ProviderAccountView> {
    if (!isUuid(orgId)) throw validationError([{ field: 'org', issue: 'must be an organization id (UUID)' }]);
    const row = await this.accountFor(orgId, accountId, COLLECTION_PROVIDERS, 'collections');
    await this.ctx.db.tx(async (q) => {
      const before = await repo.collectionsAccountOf(q, orgId, { forUpdate: true });
      if (before === row.id) return;
      // New payments would be collected into this account: a console admin who entered its
      // credentials (or is, by credentials, that person) does not choose it alone (issue #29 item 4).
      const enteredBy = actor.userId === null ? null : await repo.addedBy(q, row.id);
      if (enteredBy !== null && actor.userId !== null && (await samePerson(q, enteredBy, actor.userId))) {
        throw new AppError(
          'SELF_APPROVAL_DENIED',
          'You entered the credentials of this provider account (or were set up by who did): new payments would be collected into it. Another admin must choose it for collections, or the operator (tijori collections use).',
        );
      }
      if (!(await repo.setCollectionsAccount(q, orgId, row.id))) throw new AppError('NOT_FOUND', 'No such organization.');
      await recordAudit(q, actor, {
        orgId,
        action: 'provider_account.collections_chosen',
        targetType: 'provider_account',
        targetId: row.id,
        before: { collections_provider_account_id: before },
        after: { collections_provider_account_id: row.id },
      });
    });
    this.ctx.providers.forgetCollectionsChoice(orgId);
    return viewOf(row);
  }

  /** The console's list: each account with what it serves and its intake address. */
  async consoleList(orgId: string): Promise<{ collections_provider_account_id: string | null; accounts: ProviderAccountConsoleView[] }> {
    const rows = isUuid(orgId) ? await repo.listAccounts(this.ctx.db, orgId) : null;
    if (!rows) throw new AppError('NOT_FOUND', 'No such organization.');
    const [collections, bankConnections] = await Promise.all([repo.collectionsAccountOf(this.ctx.db, orgId), repo.bankConnectionsOfAccounts(this.ctx.db, orgId)]);
    return {
      collections_provider_account_id: collections,
      accounts: rows.map((r) => ({
        ...viewOf(r),
        callback_url: this.callbackUrl(r.id),
        serves_collections: r.id === collections,
        payout_routes: bankConnections.filter((x) => x.provider_account_id === r.id).map((x) => ({ bank_connection_id: x.id, name: x.name, active: x.active })),
        created_at: r.created_at.toISOString(),
      })),
    };
  }

  /** The account a new bank connection sends through (checked to be the organization's and able to pay out). */
  async forBankConnection(orgId: string, accountId: string): Promise<repo.ProviderAccountRow> {
    if (!isUuid(orgId)) throw validationError([{ field: 'org', issue: 'must be an organization id (UUID)' }]);
    return this.accountFor(orgId, accountId, PAYOUT_PROVIDERS, 'payouts');
  }
}

function viewOf(row: { id: string; provider: string; name: string; livemode: boolean }): ProviderAccountView {
  return { provider_account_id: row.id, provider: row.provider, name: row.name, livemode: row.livemode };
}
