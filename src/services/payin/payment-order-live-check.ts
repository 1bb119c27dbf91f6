/**
 * The live provider check of an open order that a retrieval (API GET, checkout page) makes: at most
 * one per order per LIVE_CHECK_INTERVAL_MS across all instances, its answer applied and logged.
 */
import { isOpen } from '../../domain/payment-order.js';
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import * as reads from '../../store/repos/payment-order-reads-repo.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import type { PaymentOrderRow, PaymentOrderViewRow } from '../../store/repos/payment-orders-repo.js';
import { askProvider, collectionAnswer, noAnswer, recordBestEffort, recordOrderCheck } from '../providers/provider-checks.js';
import { applyCollectionStatus, lockOrder } from './payment-order-transitions.js';

/** API §8: a live check only when the previous one is older than this. */
export const LIVE_CHECK_INTERVAL_MS = 2_000;
/** Upper bound of the provider call inside a retrieval; the GET answers within about this. */
export const LIVE_CHECK_TIMEOUT_MS = 1_500;

export interface LiveCheckDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/**
 * At most one provider inquiry per order per LIVE_CHECK_INTERVAL_MS across all instances (an
 * atomic claim on last_provider_check_at), made outside any transaction and bounded by
 * LIVE_CHECK_TIMEOUT_MS. A slow or failing provider leaves the state as it is.
 */
export async function liveCheck<R extends PaymentOrderViewRow>(deps: LiveCheckDeps, row: R): Promise<R | PaymentOrderRow> {
  if (!isOpen(row.status) || row.upi_uri === null) return row;
  if (!(await reads.claimLiveCheck(deps.db, row.id, LIVE_CHECK_INTERVAL_MS))) return row;
  // Each call is kept in the provider checks log (the console's order page); see provider-checks.ts.
  const call = await askProvider({
    reason: 'live_check', reference: row.order_id, provider: () => deps.providers.forAccount(row.provider_account_id),
    ask: (provider) => provider.collectionStatus(row.order_id, { timeoutMs: LIVE_CHECK_TIMEOUT_MS }), timeoutMs: LIVE_CHECK_TIMEOUT_MS,
  });
  if ('error' in call.result) {
    deps.log.warn({ order_id: row.order_id, err: call.result.error.message }, 'live provider check got no answer');
    const facts = call.facts(noAnswer(call.result.error), 'no change: no answer');
    await recordBestEffort(deps.log, () => recordOrderCheck(deps.db, row.id, facts));
    return row;
  }
  const known = call.result.answer;
  return deps.db.tx(async (tx) => {
    const locked = await lockOrder(tx, row.id);
    const result = await applyCollectionStatus(tx, locked, known, 'live_check');
    await recordOrderCheck(tx, row.id, call.facts(collectionAnswer(known), result));
    return (await repo.findByIdOrOrderId(tx, { id: row.id })) as PaymentOrderRow;
  });
}

