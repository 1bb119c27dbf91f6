/** The console's services, built once per instance (context.ts) and shared by its HTTP API and the admin API. */
import type { RateLimiter } from '../../security/rate-limiter.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import type { ClientsService } from '../shared/clients.js';
import type { DestinationsService } from '../callbacks/destinations.js';
import { ConsoleApiClients } from './api-clients.js';
import { AuditService } from './audit.js';
import { ConsoleAuthService, type SessionSettings } from './auth.js';
import type { Clock } from '../../clock.js';
import { ConsoleDestinations } from './destinations.js';
import { ConsoleFinance } from './finance.js';
import type { LedgerService } from '../ledger/ledger.js';
import { ConsoleMoney } from './money.js';
import { ConsoleOverview } from './overview.js';
import { ConsolePayoutSetup } from './payout-setup.js';
import { ConsoleOrganization } from './organization.js';
import { ConsoleProviderChecks } from './provider-checks.js';
import { UsersService } from './users.js';
import { ConsoleAccount } from './account.js';
import type { Mailer } from '../../net/mailer.js';
import type { Logger } from '../../observability/logger.js';

export interface ConsoleServices {
  users: UsersService;
  /** The signed-in user's password; "Forgot password?" by mail. */
  account: ConsoleAccount;
  auth: ConsoleAuthService;
  audit: AuditService;
  apiClients: ConsoleApiClients;
  destinations: ConsoleDestinations;
  /** The money pages: orders and payouts, lists, exports, details. */
  money: ConsoleMoney;
  overview: ConsoleOverview;
  /** The payout setup page: routes and saved beneficiaries. */
  payoutSetup: ConsolePayoutSetup;
  /** The organization settings page. */
  organization: ConsoleOrganization;
  /** Provider checks on an order's page, inquiries on a payout's. */
  providerChecks: ConsoleProviderChecks;
  /** The finance pages: balances, settlements and their lines, exports. */
  finance: ConsoleFinance;
}

export function buildConsoleServices(deps: {
  db: Db;
  vault: Vault;
  rateLimiter: RateLimiter;
  clock: Clock;
  clients: ClientsService;
  destinations: DestinationsService;
  ledger: LedgerService;
  settings: SessionSettings;
  publicBaseUrl: () => string;
  /** SMTP_URL set: invitations and set-up links are mailed. */
  mailer?: Mailer | undefined;
  log: Logger;
}): ConsoleServices {
  const users = new UsersService({ db: deps.db, publicBaseUrl: deps.publicBaseUrl, mailer: deps.mailer });
  return {
    users,
    account: new ConsoleAccount({ db: deps.db, rateLimiter: deps.rateLimiter, users, log: deps.log }),
    auth: new ConsoleAuthService({ db: deps.db, vault: deps.vault, rateLimiter: deps.rateLimiter, clock: deps.clock, settings: deps.settings }),
    audit: new AuditService(deps.db),
    apiClients: new ConsoleApiClients({ db: deps.db, clients: deps.clients }),
    destinations: new ConsoleDestinations({ db: deps.db, destinations: deps.destinations }),
    money: new ConsoleMoney({ db: deps.db, vault: deps.vault, publicBaseUrl: deps.publicBaseUrl }),
    overview: new ConsoleOverview(deps.db),
    payoutSetup: new ConsolePayoutSetup(deps.db),
    organization: new ConsoleOrganization({ db: deps.db, onRenamed: (orgId) => deps.clients.forgetOrgName(orgId) }),
    providerChecks: new ConsoleProviderChecks(deps.db),
    finance: new ConsoleFinance({ db: deps.db, ledger: deps.ledger }),
  };
}
