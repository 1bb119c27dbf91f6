/**
 * Delivers merchant callbacks. A pipeline rather than batch-by-batch: it keeps up to
 * `concurrency` attempts in flight and claims more (up to 50 at a time) as slots free up, so one
 * slow merchant endpoint (up to 10 s) does not hold back the deliveries claimed with it.
 *
 * Woken in-process right after the commit of deliveries recorded by this instance, and by
 * PostgreSQL NOTIFY for those recorded by instances without a worker and for replays (see
 * DeliveriesService.onNewDeliveries, delivery-signal.ts); a short poll is the fallback and picks up retries that have become due. One undici dispatcher for the process keeps connections to
 * merchant endpoints alive; it checks every resolved address at connect time.
 */
import { readFileSync } from 'node:fs';
import type { Agent } from 'undici';
import type { AppContext } from '../context.js';
import { createCallbackDispatcher } from '../net/safe-dispatcher.js';
import type { DeliveriesService } from '../services/callbacks/deliveries.js';
import { PollingWorker, type Worker } from './polling-worker.js';

export const CLAIM_BATCH = 50;
export const POLL_INTERVAL_MS = 250;

export class CallbackDeliveryWorker implements Worker {
  readonly name = 'callback-delivery';
  private readonly loop: PollingWorker;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly dispatcher: Agent;
  private readonly deliveries: DeliveriesService;
  private subscription: ReturnType<DeliveriesService['onNewDeliveries']> | undefined;
  /** The last tick found every slot busy: finishing attempts must wake the loop. */
  private saturated = false;
  /** Free slots that make a claim worth a round trip once saturated (not one claim per finished attempt). */
  private readonly refillAt: number;

  constructor(private readonly ctx: AppContext) {
    this.deliveries = ctx.deliveries;
    this.refillAt = Math.max(1, Math.min(CLAIM_BATCH, Math.ceil(ctx.config.callbackConcurrency / 4)));
    const ca = ctx.config.callbackExtraCaFile ? readFileSync(ctx.config.callbackExtraCaFile, 'utf8') : undefined;
    this.dispatcher = createCallbackDispatcher({
      allowPrivateNetworks: ctx.config.callbackAllowPrivateNetworks,
      allowLocalHttp: ctx.config.callbackAllowLocalHttp,
      ...(ca ? { ca } : {}),
    });
    this.loop = new PollingWorker({ name: this.name, intervalMs: POLL_INTERVAL_MS, tick: () => this.tick(), log: ctx.log });
  }

  start(): void {
    this.loop.start();
    this.subscription = this.deliveries.onNewDeliveries(() => this.loop.poke());
  }

  private async tick(): Promise<number> {
    const free = this.ctx.config.callbackConcurrency - this.inFlight.size;
    this.saturated = free < this.refillAt;
    if (this.saturated) return 0;
    const claimed = await this.deliveries.claim(Math.min(free, CLAIM_BATCH));
    for (const d of claimed) {
      const p: Promise<void> = this.deliveries.attempt(d, this.dispatcher).finally(() => {
        this.inFlight.delete(p);
        if (this.saturated && this.ctx.config.callbackConcurrency - this.inFlight.size >= this.refillAt) {
          this.saturated = false;
          this.loop.poke();
        }
      });
      this.inFlight.add(p);
    }
    return claimed.length;
  }

  /** The loop's rounds, then every attempt in flight once they end, recorded (one held open holds this too). */
  async rounds(n = 1): Promise<void> {
    await this.loop.rounds(n);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops claiming, lets attempts in flight finish and be recorded (at most ~10 s), then closes. */
  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.dispatcher.close();
  }
}
