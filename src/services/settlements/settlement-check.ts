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
import { applyCollectionStatus, lockOrder } from '../payin/payment-order-transitions.js';
import { askProvider, collectionAnswer, noAnswer, recordBestEffort, recordOrderCheck } from '../providers/provider-checks.js';

const CHECK_TIMEOUT_MS = 5_000;

export interface SettlementCheckDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/** Asks the order's provider, outside any transaction, and applies the answer as any status check does. */
export async function checkSettledOrder(deps: SettlementCheckDeps, order: { id: string; order_id: string; provider_account_id: string | null }): Promise<void> {
  const call = await askProvider({
    reason: 'settlement_check',
    reference: order.order_id,
    provider: () => deps.providers.forAccount(order.provider_account_id),
    ask: (p) => p.collectionStatus(order.order_id, { timeoutMs: CHECK_TIMEOUT_MS }),
    timeoutMs: CHECK_TIMEOUT_MS,
  });
  if ('error' in call.result) {
    deps.log.warn({ order_id: order.order_id, err: call.result.error.message }, 'settlement: the provider check got no answer');
    const facts = call.facts(noAnswer(call.result.error), 'no change: no answer');
    await recordBestEffort(deps.log, () => recordOrderCheck(deps.db, order.id, facts));
    return;
  }
  const known = call.result.answer;
  await deps.db.tx(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    const result = await applyCollectionStatus(tx, locked, known, 'settlement_check');
    await recordOrderCheck(tx, order.id, call.facts(collectionAnswer(known), result));
  });
}
