/**
 * A background loop: runs `tick` (which claims and processes a batch, returning how many items it
 * handled) again at once while there is work, otherwise every `intervalMs`. Errors are logged and
 * backed off. `stop()` lets the running tick finish, so no claimed work is abandoned mid-way.
 * `rounds(n)` runs rounds now and resolves when they are done: a test waits for the loop's work
 * instead of sleeping for "several intervals" (the intervals themselves stay on real timers).
 */
import type { Logger } from '../observability/logger.js';

export interface Worker {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
  /**
   * Runs `n` rounds at once, one after the other, each begun after this call, and resolves when
   * the last has finished with the work it started (tests: "nothing more happens" is checked after
   * rounds that surely saw the change, not after a guessed sleep). Rejects once the worker stops.
   */
  rounds(n?: number): Promise<void>;
}

export interface PollingWorkerOptions {
  name: string;
  intervalMs: number;
  tick: () => Promise<number>;
  log: Logger;
  maxBackoffMs?: number;
  /**
   * The most items one tick handles, when its claims end only once the work is drained. Given, a
   * tick that handled fewer found everything that was due and the loop waits (for a poke or the
   * interval) instead of looking again at once; without it any handled item means "look again",
   * which after a batch that drained the queue costs one empty tick (for the provider intake: a
   * transaction with a claim that finds nothing after nearly every batch of callbacks, issue #36).
   * Work that arrives meanwhile pokes the worker, and a poke during a tick is remembered.
   */
  tickLimit?: number;
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
  /** Ticks begun and finished since start; `rounds` waits on them. */
  private begun = 0;
  private finished = 0;
  private roundWaiters: Array<{ upto: number; done: () => void; fail: (err: Error) => void }> = [];

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
      this.begun++;
      try {
        handled = await this.opts.tick();
        this.failures = 0;
      } catch (err) {
        this.failures++;
        this.opts.log.warn({ worker: this.name, err: (err as Error).message }, 'worker tick failed');
      }
      this.finished++;
      this.settleRounds();
      if (!this.running) break;
      // A test waiting for rounds gets them now (also after a failed tick: no back-off for it).
      if (this.roundWaiters.length > 0) continue;
      const more = this.opts.tickLimit === undefined ? handled > 0 : handled >= this.opts.tickLimit;
      if ((more || this.poked) && this.failures === 0) continue;
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

  rounds(n = 1): Promise<void> {
    if (!this.running) return Promise.reject(new Error(`worker ${this.name} is not running`));
    // A tick running now may have looked before the caller's change: it does not count.
    const upto = this.begun + n;
    return new Promise<void>((done, fail) => {
      this.roundWaiters.push({ upto, done, fail });
      this.poke();
    });
  }

  private settleRounds(): void {
    const due = this.roundWaiters.filter((w) => w.upto <= this.finished);
    this.roundWaiters = this.roundWaiters.filter((w) => w.upto > this.finished);
    for (const w of due) w.done();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    for (const w of this.roundWaiters.splice(0)) w.fail(new Error(`worker ${this.name} stopped`));
  }
}
