/** The background workers of an instance. Each feature adds its worker here. */
import type { AppContext } from '../context.js';
import { CallbackDeliveryWorker } from './callback-delivery-worker.js';
import type { Worker } from './polling-worker.js';

export function createWorkers(ctx: AppContext): Worker[] {
  return [new CallbackDeliveryWorker(ctx)];
}
