/**
 * Asking the provider about one order and recording the check (issue #30 item 4): the one shape of
 * the live check, the settlement check and the expiry worker's final check. The call is made
 * outside any transaction (askProvider); no answer leaves the order as it is and logs the call
 * best-effort; an answer is recorded, with what it led to, in the transaction that applies it.
 * `askAboutOrder` is the asking and the recording; `checkOrderWithProvider` adds the usual
 * applying (the live and settlement checks). The expiry worker decides more in its transaction
 * (the window, the review item), so it applies the answer itself.
 */
import type { Logger } from '../../observability/logger.js';
import type { CollectionStatus } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db, Queryable } from '../../store/db.js';
import { askProvider, collectionAnswer, noAnswer, recordBestEffort, recordOrderCheck } from '../providers/provider-checks.js';
import { applyCollectionStatus, lockOrder } from './payment-order-transitions.js';

export interface OrderCheckDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

type CheckedOrder = { id: string; order_id: string; provider_account_id: string | null };

/** The provider's answer about an order, and the recording of its check with what it led to, in the caller's transaction. */
export interface OrderAnswer {
  answer: CollectionStatus;
  record(tx: Queryable, outcome: string): Promise<void>;
}

/**
 * Asks the order's provider (within `timeoutMs`); `reason` names the check in the log. No answer:
 * warned as `noAnswerLog`, recorded best-effort as `noAnswerOutcome`, and null.
 */
export async function askAboutOrder(
  deps: OrderCheckDeps,
  order: CheckedOrder,
  c: { reason: 'live_check' | 'settlement_check' | 'expiry_check'; timeoutMs: number; noAnswerLog: string; noAnswerOutcome: string },
): Promise<OrderAnswer | null> {
  const call = await askProvider({
    reason: c.reason,
    reference: order.order_id,
    provider: () => deps.providers.forAccount(order.provider_account_id),
    ask: (provider) => provider.collectionStatus(order.order_id, { timeoutMs: c.timeoutMs }),
    timeoutMs: c.timeoutMs,
  });
  if ('error' in call.result) {
    deps.log.warn({ order_id: order.order_id, err: call.result.error.message }, c.noAnswerLog);
    const facts = call.facts(noAnswer(call.result.error), c.noAnswerOutcome);
    await recordBestEffort(deps.log, () => recordOrderCheck(deps.db, order.id, facts));
    return null;
  }
  const answer = call.result.answer;
  return { answer, record: (tx, outcome) => recordOrderCheck(tx, order.id, call.facts(collectionAnswer(answer), outcome)) };
}

/**
 * Asks the order's provider (within `timeoutMs`) and applies the answer; `reason` names the check in
 * the log and the order's history. `then` runs in the answer's transaction after it was recorded
 * (the live check reads the order back). False: the provider gave no answer, nothing changed.
 */
export async function checkOrderWithProvider<T = void>(
  deps: OrderCheckDeps,
  order: CheckedOrder,
  c: { reason: 'live_check' | 'settlement_check'; timeoutMs: number; noAnswerLog: string },
  then?: (tx: Queryable) => Promise<T>,
): Promise<{ answered: false } | { answered: true; value: T | undefined }> {
  const asked = await askAboutOrder(deps, order, { ...c, noAnswerOutcome: 'no change: no answer' });
  if (!asked) return { answered: false };
  const value = await deps.db.tx(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    const result = await applyCollectionStatus(tx, locked, asked.answer, c.reason);
    await asked.record(tx, result);
    return then?.(tx);
  });
  return { answered: true, value };
}
