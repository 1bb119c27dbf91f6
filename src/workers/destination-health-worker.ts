/**
 * Disables callback destinations whose every attempt has failed for three days
 * (DestinationsService.disableFailing, docs/callbacks.md). Once a minute is plenty for a rule
 * measured in days; several instances may run it at once (the UPDATE disables each destination once).
 * It also promotes rotated signing secrets whose 72 hours are over (contract §11), so the old secret
 * is gone then too (deliveries already sign with the new one from that moment: the claim picks it).
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export const HEALTH_CHECK_INTERVAL_MS = 60_000;

export function createDestinationHealthWorker(ctx: AppContext, intervalMs = HEALTH_CHECK_INTERVAL_MS): PollingWorker {
  return new PollingWorker({
    name: 'destination-health',
    intervalMs,
    log: ctx.log,
    tick: async () => {
      const off = await ctx.destinations.disableFailing(new Date());
      for (const d of off) ctx.log.warn({ org: d.org_id, kind: d.kind, parked: d.parked }, 'callback destination disabled: every delivery failed for 3 days');
      for (const d of await ctx.destinations.promoteDueSecrets()) ctx.log.info({ org: d.org_id, kind: d.kind }, 'callback destination now signs with its rotated secret (72 h passed)');
      // 0: nothing more to do now (a positive count would make the loop tick again at once).
      return 0;
    },
  });
}
