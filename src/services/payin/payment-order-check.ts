/**
 * Asking the provider about one order and recording the check (issue #30 item 4): the one shape of
 * the live check and the settlement check. The call is made outside any transaction; no answer
 * leaves the order as it is and logs the call best-effort; an answer is applied to the locked order
 * (applyCollectionStatus) and logged with what it led to, in the same transaction. The expiry
 * worker's final check (payment-order-expiry.ts) asks the same way but decides more in its
 * transaction (the window, the review item), so it uses askProvider itself.
 */
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db, Queryable } from '../../store/db.js';
import { askProvider, collectionAnswer, noAnswer, recordBestEffort, recordOrderCheck } from '../providers/provider-checks.js';
import { applyCollectionStatus, lockOrder } from './payment-order-transitions.js';

export interface OrderCheckDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/**
 * Asks the order's provider (within `timeoutMs`) and applies the answer; `reason` names the check in
 * the log and the order's history. `then` runs in the answer's transaction after it was recorded
 * (the live check reads the order back). False: the provider gave no answer, nothing changed.
 */
export async function checkOrderWithProvider<T = void>(
  deps: OrderCheckDeps,
  order: { id: string; order_id: string; provider_account_id: string | null },
  c: { reason: 'live_check' | 'settlement_check'; timeoutMs: number; noAnswerLog: string },
  then?: (tx: Queryable) => Promise<T>,
): Promise<{ answered: false } | { answered: true; value: T | undefined }> {
  const call = await askProvider({
    reason: c.reason,
    reference: order.order_id,
    provider: () => deps.providers.forAccount(order.provider_account_id),
    ask: (provider) => provider.collectionStatus(order.order_id, { timeoutMs: c.timeoutMs }),
    timeoutMs: c.timeoutMs,
  });
  if ('error' in call.result) {
    deps.log.warn({ order_id: order.order_id, err: call.result.error.message }, c.noAnswerLog);
    const facts = call.facts(noAnswer(call.result.error), 'no change: no answer');
    await recordBestEffort(deps.log, () => recordOrderCheck(deps.db, order.id, facts));
    return { answered: false };
  }
  const known = call.result.answer;
  const value = await deps.db.tx(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    const result = await applyCollectionStatus(tx, locked, known, c.reason);
    await recordOrderCheck(tx, order.id, call.facts(collectionAnswer(known), result));
    return then?.(tx);
  });
  return { answered: true, value };
}
