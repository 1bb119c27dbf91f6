/** Processes stored provider callbacks (see ProviderIntake); woken at once when one arrives here. */
import type { AppContext } from '../context.js';
import { PROCESSING_LANES } from '../services/provider-intake.js';
import { PollingWorker } from './polling-worker.js';

export function createProviderEventsWorker(ctx: AppContext, intervalMs = 1_000): PollingWorker {
  // Each lane holds one pooled connection while it applies an event: leave at least half of the
  // pool to requests and the other workers.
  const lanes = Math.max(1, Math.min(PROCESSING_LANES, Math.floor(ctx.config.dbPoolSize / 2)));
  const worker = new PollingWorker({ name: 'provider-events', intervalMs, log: ctx.log, tick: () => ctx.providerIntake.processBatch(64, lanes) });
  ctx.providerIntake.onStored(() => worker.poke());
  return worker;
}
