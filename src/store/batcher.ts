/**
 * Groups work that arrives close together into one call, so N requests cost one round trip (and,
 * for writes, one commit and one WAL flush) instead of N: delivery attempts, CHECKOUT creates and
 * merchant GETs go through one each. At most `concurrency` calls run at a time; what arrives while
 * they run goes into the next one, so batches grow with load by themselves. Under light load a
 * batch is a single item with no added delay (it waits only for the current turn of the event
 * loop, so that requests parsed in the same turn share it).
 *
 * The service's batchers are made by src/store/batched.ts from the table of
 * src/store/batch-limits.ts; callers see single-item calls.
 */
import { DatabaseUnavailableError, isUnavailableError } from './db.js';

/**
 * The default of `isolateFailures`: every failure but an unreachable database or a statement that
 * ran out of time (pg's `query_timeout` says "Query read timeout"), which would fail each item's
 * retry too, only slower.
 */
export function isItemFailure(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError || isUnavailableError(err)) return false;
  return !(err instanceof Error && /Query read timeout/.test(err.message));
}

export interface BatcherOptions {
  /** Largest batch handed to one call. */
  maxBatch?: number;
  /** Calls in flight at once (e.g. database connections used). */
  concurrency?: number;
  /**
   * When a call for several items fails with an error this accepts, call again once per item, so
   * that one bad item (say, a constraint violation) fails only its own request and not those it
   * was batched with. Errors it refuses fail the whole batch at once. Default: isItemFailure
   * (everything but an unreachable database).
   */
  isolateFailures?: (err: unknown) => boolean;
}

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export class Batcher<T, R = void> {
  private queue: Array<Pending<T, R>> = [];
  private running = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly isolateFailures: (err: unknown) => boolean;

  /** `call` returns one result per item, in the items' order (nothing for a write without results). */
  constructor(
    private readonly call: (items: T[]) => Promise<R[] | undefined | void>,
    opts: BatcherOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.concurrency = opts.concurrency ?? 1;
    this.isolateFailures = opts.isolateFailures ?? isItemFailure;
  }

  /** Resolves with the item's result once its batch is done; rejects if its batch (or, isolated, the item) failed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrency || this.queue.length === 0) return;
    this.scheduled = true;
    // Let the other requests of this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.running >= this.concurrency || this.queue.length === 0) return;
    this.running++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        // Another slot may take what arrives meanwhile.
        this.schedule();
        await this.settle(batch);
      }
    } finally {
      this.running--;
      this.schedule();
    }
  }

  private async settle(batch: Array<Pending<T, R>>): Promise<void> {
    try {
      const results = await this.call(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results?.[i] as R));
    } catch (err) {
      if (batch.length === 1 || !this.isolateFailures(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      // One by one, inside this call's slot: the retries take no more connections than the batch did.
      for (const b of batch) await this.settle([b]);
    }
  }
}
