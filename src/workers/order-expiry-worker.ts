/**
 * Expires payment orders whose window ended, each only after a final provider check (a payment the
 * provider knows about makes the order PAID instead): OrderExpiry (services/payin/payment-order-expiry.ts)
 * leases them with SKIP LOCKED, so several instances share the work.
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export function createOrderExpiryWorker(ctx: AppContext, intervalMs = 1_000): PollingWorker {
  return new PollingWorker({ name: 'order-expiry', intervalMs, log: ctx.log, tick: () => ctx.orderExpiry.expireDue() });
}
