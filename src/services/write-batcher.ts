/**
 * Groups writes that arrive close together into one statement, so N results cost one round trip
 * and one commit (one WAL flush) instead of N. At most one flush runs at a time; what arrives during
 * a flush goes into the next one. Under light load a batch is a single item with no added delay.
 */
export class WriteBatcher<T> {
  private queue: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  /** Resolves once the item is written; rejects if its batch failed. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // Let the other results of this turn of the event loop join the batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((b) => b.item));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = false;
  }
}
