/** Processes stored provider callbacks (see ProviderIntake); woken at once when one arrives here. */
import type { AppContext } from '../context.js';
import { EVENTS_PER_TRANSACTION, PROCESSING_LANES } from '../services/providers/provider-intake.js';
import { PollingWorker } from './polling-worker.js';

export function createProviderEventsWorker(ctx: AppContext, intervalMs = 1_000): PollingWorker {
  // Each lane holds one pooled connection while it applies its events: leave at least half of the
  // pool to requests and the other workers. A tick lets every lane run several transactions
  // (a tick ends when all its lanes have, so a small limit would idle all but the slowest lane).
  const lanes = Math.max(1, Math.min(PROCESSING_LANES, Math.floor(ctx.config.dbPoolSize / 2)));
  // A tick ends when a claim came back short (processBatch): fewer than its limit means drained.
  const limit = lanes * EVENTS_PER_TRANSACTION * 4;
  const worker = new PollingWorker({ name: 'provider-events', intervalMs, log: ctx.log, tickLimit: limit, tick: () => ctx.providerIntake.processBatch(limit, lanes) });
  ctx.providerIntake.onStored(() => worker.poke());
  return worker;
}
