/**
 * A payout account's balance and its statement against Tijori's payouts (issue #33 item 6). Only
 * providers that publish them (RazorpayX: banking balances and transactions) have a
 * `payoutAccount`; for the others (the built-in sandbox bank) the answer says the provider
 * publishes none, and nothing is guessed (docs/providers.md).
 */
import { notFound } from '../../domain/errors.js';
import { reconcilePayoutStatement, type StatementReconciliation } from '../../domain/payout-statement.js';
import type { Db } from '../../store/db.js';
import { accountOfOrg, defaultRouteAccount, knownProviderPayoutIds, payoutsOfWindow } from '../../store/repos/payout-account-repo.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { ProviderError } from '../../providers/provider.js';

export interface PayoutAccountDeps {
  db: Db;
  providers: Pick<ProviderRegistry, 'forAccount'>;
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
    const lines = await provider.payoutAccount.statement(from, to);
    const payouts = await payoutsOfWindow(this.deps.db, orgId, providerAccountId, from, to);
    const ids = lines.flatMap((l) => (l.providerPayoutId ? [l.providerPayoutId] : []));
    const known = await knownProviderPayoutIds(this.deps.db, orgId, providerAccountId, ids);
    const result = reconcilePayoutStatement(
      payouts.map((p) => ({ payoutId: p.id, status: p.status, amountPaise: Number(p.amount_paise), providerPayoutId: p.bank_reference })),
      lines,
      known,
    );
    return { lines: lines.length, ...result };
  }
}
