/**
 * A payout account's balance and its statement against Tijori's payouts (issue #33 item 6). Only
 * providers that publish them (RazorpayX: banking balances and transactions) have a
 * `payoutAccount`; for the others (the built-in sandbox bank) the answer says the provider
 * publishes none, and nothing is guessed (docs/providers.md).
 */
import { notFound } from '../../domain/errors.js';
import { reconcilePayoutStatement, type StatementReconciliation } from '../../domain/payout-statement.js';
import type { Db } from '../../store/db.js';
import {
  accountOfOrg,
  defaultRouteAccount,
  insertStatementBreaks,
  knownProviderPayoutIds,
  payoutProviderAccounts,
  payoutsOfWindow,
} from '../../store/repos/payout-account-repo.js';
import { newRowId } from '../../store/row-id.js';
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { ProviderError } from '../../providers/provider.js';

export interface PayoutAccountDeps {
  db: Db;
  providers: Pick<ProviderRegistry, 'forAccount'>;
  log?: Pick<Logger, 'warn'>;
}

/** How far back each round checks a statement, and how long a payout's debit or credit may take to appear. */
export const STATEMENT_WINDOW_MS = 7 * 24 * 3600_000;
export const STATEMENT_LAG_MS = 3600_000;

export interface StatementCheckCounts {
  accounts: number;
  lines: number;
  matched: number;
  breaks_new: number;
}

export type PayoutBalanceView =
  | { published: false; provider: string | null; reason: string }
  | { published: true; provider: string; balance_paise: number; available_paise: number; refreshed_at: string | null };

export class PayoutAccountsService {
  constructor(private readonly deps: PayoutAccountDeps) {}

  /** The balance of the account the organization's default payout route sends through. */
  async defaultRouteBalance(orgId: string): Promise<PayoutBalanceView> {
    const route = await defaultRouteAccount(this.deps.db, orgId);
    if (!route) return { published: false, provider: null, reason: 'The organization has no default payout route.' };
    const provider = await this.deps.providers.forAccount(route.providerAccountId);
    if (!provider.payoutAccount) return { published: false, provider: provider.name, reason: `${provider.name} publishes no account balance.` };
    let b;
    try {
      b = await provider.payoutAccount.balance();
    } catch (err) {
      // A balance is advice to a maker, never a gate: an unanswered look-up says so and blocks nothing.
      if (err instanceof ProviderError) return { published: false, provider: provider.name, reason: `The balance could not be read from ${provider.name}: ${err.message}` };
      throw err;
    }
    return { published: true, provider: provider.name, balance_paise: b.balancePaise, available_paise: b.availablePaise, refreshed_at: b.refreshedAt?.toISOString() ?? null };
  }

  /**
   * The account's statement of [from, to) against the payouts sent through it. The caller leaves
   * time between a payout's outcome and `to` for its debit or credit to appear at the provider.
   */
  async reconcileStatement(orgId: string, providerAccountId: string, from: Date, to: Date): Promise<StatementReconciliation & { lines: number }> {
    if (!(await accountOfOrg(this.deps.db, orgId, providerAccountId))) throw notFound('Provider account');
    const provider = await this.deps.providers.forAccount(providerAccountId);
    if (!provider.payoutAccount) return { lines: 0, matched: 0, breaks: [] };
    const payouts = await payoutsOfWindow(this.deps.db, orgId, providerAccountId, from, to);
    // A payout decided in the window may have been debited before it (created days earlier, its
    // success reported late): the statement is read from the earliest such payout's creation, so
    // its debit is seen rather than taken for missing.
    const earliest = payouts.reduce((m, p) => (p.created_at < m ? p.created_at : m), from);
    const lines = await provider.payoutAccount.statement(earliest, to);
    const ids = lines.flatMap((l) => (l.providerPayoutId ? [l.providerPayoutId] : []));
    const known = await knownProviderPayoutIds(this.deps.db, orgId, providerAccountId, ids);
    const result = reconcilePayoutStatement(
      payouts.map((p) => ({ payoutId: p.id, status: p.status, amountPaise: Number(p.amount_paise), providerPayoutId: p.bank_reference })),
      lines,
      known,
    );
    return { lines: lines.length, ...result };
  }

  /**
   * Checks the statement of every payout account (of one organization, or all) whose provider
   * publishes one, over the last STATEMENT_WINDOW_MS up to STATEMENT_LAG_MS ago, and records the
   * breaks not recorded before as reconciliation breaks (resolved by a reviewer like any other).
   * An account whose provider does not answer is logged and skipped; the next round tries again.
   */
  async checkStatements(orgId: string | null, opts: { now?: Date; lagMs?: number } = {}): Promise<StatementCheckCounts> {
    const now = opts.now ?? new Date();
    const to = new Date(now.getTime() - (opts.lagMs ?? STATEMENT_LAG_MS));
    const from = new Date(now.getTime() - STATEMENT_WINDOW_MS);
    const counts: StatementCheckCounts = { accounts: 0, lines: 0, matched: 0, breaks_new: 0 };
    for (const a of await payoutProviderAccounts(this.deps.db, orgId)) {
      let r;
      try {
        const provider = await this.deps.providers.forAccount(a.providerAccountId);
        if (!provider.payoutAccount) continue;
        r = await this.reconcileStatement(a.orgId, a.providerAccountId, from, to);
      } catch (err) {
        // One account that cannot be checked (the provider down, a config that no longer decrypts)
        // never stops the others' check; the next round tries it again.
        this.deps.log?.warn({ provider_account_id: a.providerAccountId, err: err instanceof Error ? err.message : String(err) }, 'payout statement could not be checked; next round tries again');
        continue;
      }
      counts.accounts += 1;
      counts.lines += r.lines;
      counts.matched += r.matched;
      counts.breaks_new += await insertStatementBreaks(
        this.deps.db,
        r.breaks.map((b) => ({
          id: newRowId(),
          org_id: a.orgId,
          provider_account_id: a.providerAccountId,
          kind: b.kind,
          payout_pk: b.payoutId,
          provider_ref: b.providerPayoutId,
          expected_paise: b.expectedPaise,
          reported_paise: b.reportedPaise,
        })),
      );
    }
    return counts;
  }
}
