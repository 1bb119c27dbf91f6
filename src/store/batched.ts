/**
 * Batched statements: one statement for the items that concurrent callers send close together,
 * outside any transaction. `batched(name, call)` turns a statement for many items into a function
 * of one item (`insertCreate(db, c)` resolves with c's own result), so N requests cost one round
 * trip (and, for writes, one commit and one WAL flush) instead of N: CHECKOUT creates, delivery
 * attempts, merchant GETs and the shared transactions of units of work (shared-transactions.ts)
 * go through one each. This module is the whole of it: the table of kinds and sizes
 * (BATCH_LIMITS), the single-item call, and the queue behind it (Batcher).
 *
 * What the types hold: a kind is a row of BATCH_LIMITS (`BatchName`), and each row is taken by
 * one call only (refused at load time otherwise, and checked by test/foundation/batch-limits.test.ts);
 * a batched call takes a `Db`, never a `Tx` (db.ts), so nothing is queued for the pool while its
 * caller holds a connection in a transaction (a small pool is then slow, never deadlocked).
 *
 * How a batch forms: at most `concurrency` statements of a kind run at a time; what arrives while
 * they run goes into the next one, so batches grow with load by themselves. Under light load a
 * batch is a single item with no added delay (it waits only for the current turn of the event
 * loop, so that requests parsed in the same turn share it). A failure is the item's own: a batch
 * that fails is retried item by item (unless the database is unreachable), so one bad item never
 * fails its neighbours.
 */
import { DatabaseUnavailableError, type Db, isUnavailableError } from './db.js';

/**
 * Every batched statement of the service, with how many items one statement takes and how many
 * such statements may run at once: the one table to read (and change) when sizing the store's
 * use of the connection pool. A statement in flight holds a pooled connection, so the sum of the
 * concurrencies is the most connections batching can take at once; it stays below DB_POOL_SIZE's
 * default with RESERVED_CONNECTIONS to spare for everything that is not batched (the workers'
 * transactions, cancels, live checks, the console), and test/foundation/batch-limits.test.ts
 * checks it against the configuration. A smaller pool scales every concurrency down (see
 * concurrencyFor), never below one statement per kind, so a pool of fewer than about 15
 * connections can have one per kind in flight (no batched call is made while holding a
 * transaction: slower, never a deadlock); a larger pool leaves them as they are.
 *
 * Sizes: a batch grows with load by itself (what arrives while the statements run waits for the
 * next one), so `maxBatch` only caps the statement's size; concurrency buys latency under light
 * load, at the price of connections. The hot paths of the benchmark (CHECKOUT and payout creates,
 * the sandbox bank's accepts, the payout outcomes) get the most.
 */
export interface BatchLimit {
  /** Largest batch handed to one statement. */
  maxBatch: number;
  /** Statements of this kind in flight at once (connections used), at a pool of DESIGN_POOL_SIZE. */
  concurrency: number;
}

export const BATCH_LIMITS = {
  /** CHECKOUT order creates: order, history and a new completed key (payment-orders-repo insertCreate). */
  orderCreates: { maxBatch: 64, concurrency: 3 },
  /** Order creates whose key this request holds: INTENT, and a takeover of a key left in progress. */
  heldOrderCreates: { maxBatch: 64, concurrency: 1 },
  /** Merchant GETs of payment orders (payment-orders-repo findForClient). */
  orderReads: { maxBatch: 128, concurrency: 2 },
  /** Keys taken "in progress" by creates that call a provider first (idempotency-keys-repo insertLease). */
  idempotencyLeases: { maxBatch: 64, concurrency: 1 },
  /** Units of work: API payout creates with their `payout.created` events, in one transaction (shared-transactions.ts; payout-units writeApiCreate). */
  payoutCreates: { maxBatch: 64, concurrency: 2 },
  /** Bank connection look-ups of payout creates (bank-connections-repo findUsableBankConnection). */
  bankConnectionReads: { maxBatch: 256, concurrency: 1 },
  /** Inline beneficiaries of payout creates (beneficiaries-repo upsertBeneficiary). */
  beneficiaryUpserts: { maxBatch: 128, concurrency: 1 },
  /** Units of work: submit and inquiry answers of held payout attempts, in one transaction (shared-transactions.ts; payout-units changeHeldAttempt). */
  payoutOutcomes: { maxBatch: 64, concurrency: 2 },
  /** Verified provider callbacks: the accounts of what they name, then the events stored for the intake worker (provider-events-repo storeCallback). */
  providerEvents: { maxBatch: 256, concurrency: 1 },
  /** Results of callback delivery attempts (callbacks-repo recordAttempt). */
  deliveryAttempts: { maxBatch: 500, concurrency: 1 },
  /** The sandbox PSP's new collections (sandbox-psp-repo insertCollection); in-process, it shares the pool. */
  sandboxCollections: { maxBatch: 64, concurrency: 1 },
  /** The sandbox bank's accepted transfers (sandbox-bank-repo acceptTransfer); in-process, it shares the pool. */
  sandboxTransfers: { maxBatch: 128, concurrency: 1 },
} as const satisfies Record<string, BatchLimit>;

export type BatchName = keyof typeof BATCH_LIMITS;

/** The pool size the table is written for: DB_POOL_SIZE's default (src/config.ts). */
export const DESIGN_POOL_SIZE = 20;

/** Connections the table leaves to work that is not batched, at DESIGN_POOL_SIZE. */
export const RESERVED_CONNECTIONS = 3;

/** The most batched statements in flight at once, over the whole table, at DESIGN_POOL_SIZE. */
export function totalConcurrency(): number {
  return Object.values(BATCH_LIMITS).reduce((sum, l: BatchLimit) => sum + l.concurrency, 0);
}

/**
 * A batch kind's concurrency on a pool of `poolSize`: the table's below DESIGN_POOL_SIZE scaled
 * down in proportion (at least 1, so every kind can run), the table's as it is otherwise.
 */
export function concurrencyFor(name: BatchName, poolSize: number): number {
  const { concurrency } = BATCH_LIMITS[name];
  if (!(poolSize < DESIGN_POOL_SIZE)) return concurrency; // also an unknown size (NaN): the table as written
  return Math.max(1, Math.floor((concurrency * poolSize) / DESIGN_POOL_SIZE));
}

// The queue behind every batched call. Exported for its tests only: the service makes one nowhere
// but in `batched` below (test/foundation/batch-limits.test.ts).

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

const claimed = new Set<BatchName>();

/** A single-item call: resolves with the item's result once its batch is written. */
export type BatchedCall<T, R> = (db: Db, item: T) => Promise<R>;

/**
 * `call` gets the items of a batch (at most the table's maxBatch) and returns one result per item,
 * in their order (nothing for a write without results); it runs on the pool, not in a caller's
 * transaction, so the batch is its own unit of work (one statement, or `db.tx`). The batchers
 * belong to the pool: one per (kind, Db), however many services use it, so the table's sum bounds
 * the connections batching takes.
 */
export function batched<T, R = void>(name: BatchName, call: (db: Db, items: T[]) => Promise<R[] | undefined | void>): BatchedCall<T, R> {
  // One call per kind: the table's row is the whole of that kind's use of the pool.
  if (claimed.has(name)) throw new Error(`batch kind ${name} is used twice`);
  claimed.add(name);
  const perDb = new WeakMap<Db, Batcher<T, R>>();
  return (db, item) => {
    let batcher = perDb.get(db);
    if (!batcher) {
      batcher = new Batcher<T, R>((items) => call(db, items), { maxBatch: BATCH_LIMITS[name].maxBatch, concurrency: concurrencyFor(name, db.poolSize) });
      perDb.set(db, batcher);
    }
    return batcher.add(item);
  };
}
