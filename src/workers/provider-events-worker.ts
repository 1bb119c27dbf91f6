/** Processes stored provider callbacks (see ProviderIntake); woken at once when one arrives here. */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export function createProviderEventsWorker(ctx: AppContext, intervalMs = 1_000): PollingWorker {
  const worker = new PollingWorker({ name: 'provider-events', intervalMs, log: ctx.log, tick: () => ctx.providerIntake.processBatch(64) });
  ctx.providerIntake.onStored(() => worker.poke());
  return worker;
}
