/** The background workers of an instance. Each feature adds its worker here. */
import type { AppContext } from '../context.js';
import { CallbackDeliveryWorker } from './callback-delivery-worker.js';
import { createDestinationHealthWorker } from './destination-health-worker.js';
import { createOrderExpiryWorker } from './order-expiry-worker.js';
import { createPartitionWorker } from './partition-worker.js';
import { createPayoutWorker } from './payout-worker.js';
import { createBulkPayoutWorker } from './bulk-payout-worker.js';
import type { Worker } from './polling-worker.js';
import { createProviderEventsWorker } from './provider-events-worker.js';
import { createRefundWorker } from './refund-worker.js';
import { createSettlementSyncWorker } from './settlement-sync-worker.js';

export function createWorkers(ctx: AppContext): Worker[] {
  return [
    createProviderEventsWorker(ctx),
    createOrderExpiryWorker(ctx),
    createPayoutWorker(ctx),
    createBulkPayoutWorker(ctx),
    createRefundWorker(ctx),
    new CallbackDeliveryWorker(ctx),
    createDestinationHealthWorker(ctx),
    createSettlementSyncWorker(ctx),
    createPartitionWorker(ctx),
  ];
}
