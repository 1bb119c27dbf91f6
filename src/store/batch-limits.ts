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
  /** Units of work: API payout creates with their `payout.created` events, in one transaction (units.ts; payout-units writeApiCreate). */
  payoutCreates: { maxBatch: 64, concurrency: 2 },
  /** Bank connection look-ups of payout creates (bank-connections-repo findUsableBankConnection). */
  bankConnectionReads: { maxBatch: 256, concurrency: 1 },
  /** Inline beneficiaries of payout creates (beneficiaries-repo upsertBeneficiary). */
  beneficiaryUpserts: { maxBatch: 128, concurrency: 1 },
  /** Units of work: submit and inquiry answers of held payout attempts, in one transaction (units.ts; payout-units changeHeldAttempt). */
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
