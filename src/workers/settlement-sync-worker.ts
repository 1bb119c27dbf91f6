/**
 * Fetches and imports every collections account's settlements every SETTLEMENT_SYNC_INTERVAL_MS
 * (contract §9), and checks every payout account's statement whose provider publishes one. The first round comes one interval after start, not at start: a fleet restarting
 * does not ask every provider at once, and `tijori settlements sync` is there for "now". Several
 * instances may run it: the import is idempotent (settlement-import.ts).
 */
import type { AppContext } from '../context.js';
import { PollingWorker } from './polling-worker.js';

export function createSettlementSyncWorker(ctx: AppContext, intervalMs = ctx.config.settlementSyncIntervalMs): PollingWorker {
  let first = true;
  return new PollingWorker({
    name: 'settlement-sync',
    intervalMs,
    maxBackoffMs: intervalMs,
    log: ctx.log,
    tick: async () => {
      if (first) {
        first = false;
        return 0;
      }
      await ctx.settlementSync.syncAll();
      // The payout accounts' statements against their payouts, on the same clock (issue #33 item 6).
      await ctx.payoutAccounts.checkStatements(null);
      // Never "more work at once": the next round waits its interval.
      return 0;
    },
  });
}
