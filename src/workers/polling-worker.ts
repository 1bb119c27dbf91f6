/**
 * A background loop: runs `tick` (which claims and processes a batch, returning how many items it
 * handled) again at once while there is work, otherwise every `intervalMs`. Errors are logged and
 * backed off. `stop()` lets the running tick finish, so no claimed work is abandoned mid-way.
 */
import type { Logger } from '../observability/logger.js';

export interface Worker {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

export interface PollingWorkerOptions {
  name: string;
  intervalMs: number;
  tick: () => Promise<number>;
  log: Logger;
  maxBackoffMs?: number;
}

export class PollingWorker implements Worker {
  readonly name: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  // A poke that arrives while a tick runs is remembered: that tick may have looked for work just
  // before the new work was committed, so the loop must look again instead of sleeping.
  private poked = false;
  private failures = 0;

  constructor(private readonly opts: PollingWorkerOptions) {
    this.name = opts.name;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Runs the next tick now instead of waiting for the interval (e.g. after new work arrived). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0;
      this.poked = false;
      try {
        handled = await this.opts.tick();
        this.failures = 0;
      } catch (err) {
        this.failures++;
        this.opts.log.warn({ worker: this.name, err: (err as Error).message }, 'worker tick failed');
      }
      if (!this.running) break;
      if ((handled > 0 || this.poked) && this.failures === 0) continue;
      const delay = this.failures > 0 ? Math.min(this.opts.intervalMs * 2 ** this.failures, this.opts.maxBackoffMs ?? 10_000) : this.opts.intervalMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}
