/**
 * The live provider check of an open order that a retrieval (API GET, checkout page) makes: at most
 * one per order per LIVE_CHECK_INTERVAL_MS across all instances, its answer applied and logged.
 */
import type { Clock } from '../../clock.js';
import { isOpen } from '../../domain/payment-order.js';
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import * as reads from '../../store/repos/payment-order-reads-repo.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import type { PaymentOrderRow, PaymentOrderViewRow } from '../../store/repos/payment-orders-repo.js';
import { checkOrderWithProvider } from './payment-order-check.js';

/** API §8: a live check only when the previous one is older than this. */
export const LIVE_CHECK_INTERVAL_MS = 2_000;
/** Upper bound of the provider call inside a retrieval; the GET answers within about this. */
export const LIVE_CHECK_TIMEOUT_MS = 1_500;

export interface LiveCheckDeps {
  db: Db;
  log: Logger;
  /** The 2 s gate is measured by it (src/clock.ts). */
  clock: Clock;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

/**
 * At most one provider inquiry per order per LIVE_CHECK_INTERVAL_MS across all instances (an
 * atomic claim on last_provider_check_at), made outside any transaction and bounded by
 * LIVE_CHECK_TIMEOUT_MS. A slow or failing provider leaves the state as it is.
 */
export async function liveCheck<R extends PaymentOrderViewRow>(deps: LiveCheckDeps, row: R): Promise<R | PaymentOrderRow> {
  if (!isOpen(row.status) || row.upi_uri === null) return row;
  if (!(await reads.claimLiveCheck(deps.db, row.id, LIVE_CHECK_INTERVAL_MS, deps.clock.sqlNow()))) return row;
  // Each call is kept in the provider checks log (the console's order page); see provider-checks.ts.
  const checked = await checkOrderWithProvider(
    deps,
    row,
    { reason: 'live_check', timeoutMs: LIVE_CHECK_TIMEOUT_MS, noAnswerLog: 'live provider check got no answer' },
    async (tx) => (await repo.findByIdOrOrderId(tx, { id: row.id })) as PaymentOrderRow,
  );
  return checked.answered && checked.value !== undefined ? checked.value : row;
}
