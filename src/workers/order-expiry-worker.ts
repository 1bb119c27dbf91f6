/**
 * Expires payment orders whose window ended, each only after a final provider check (a payment the
 * provider knows about makes the order PAID instead). Orders are leased with SKIP LOCKED, so
 * several instances share the work; the provider is asked outside any transaction.
 */
import type { AppContext } from '../context.js';
import { CHECKOUT_LINK_MINUTES } from '../domain/payment-order.js';
import * as repo from '../store/repos/payment-orders-repo.js';
import { PollingWorker } from './polling-worker.js';

/** How long an instance holds a leased order while it checks with the provider. */
const LEASE_MS = 30_000;

export async function expireDueOrders(ctx: AppContext, limit = 20): Promise<number> {
  const due = await repo.claimExpiredOrders(ctx.db, { limit, leaseMs: LEASE_MS, checkoutLinkMinutes: CHECKOUT_LINK_MINUTES });
  for (const row of due) {
    try {
      await ctx.paymentOrders.expireAfterFinalCheck(row);
    } catch (err) {
      ctx.log.warn({ order_id: row.order_id, err: (err as Error).message }, 'order expiry failed; retried after the lease');
    }
  }
  return due.length;
}

export function createOrderExpiryWorker(ctx: AppContext, intervalMs = 1_000): PollingWorker {
  return new PollingWorker({ name: 'order-expiry', intervalMs, log: ctx.log, tick: () => expireDueOrders(ctx) });
}
