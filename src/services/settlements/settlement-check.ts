/**
 * The provider check a settled payment triggers (contract §9): a settlement never moves an order by
 * itself. For a settled payment of an order Tijori holds open, or EXPIRED / CANCELLED, the order's
 * provider is asked for the collection's status — the normal path: applyCollectionStatus may make
 * an open order PAID, and for an expired or cancelled one a confirmed payment opens a
 * late_confirmation operations review item (§6). The call is kept in the provider checks log.
 */
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import { checkOrderWithProvider } from '../payin/payment-order-check.js';

const CHECK_TIMEOUT_MS = 5_000;

export interface SettlementCheckDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/** Asks the order's provider, outside any transaction, and applies the answer as any status check does. */
export async function checkSettledOrder(deps: SettlementCheckDeps, order: { id: string; order_id: string; provider_account_id: string | null }): Promise<void> {
  await checkOrderWithProvider(deps, order, { reason: 'settlement_check', timeoutMs: CHECK_TIMEOUT_MS, noAnswerLog: 'settlement: the provider check got no answer' });
}
