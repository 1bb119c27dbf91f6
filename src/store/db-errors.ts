/**
 * What a PostgreSQL error means to the service: "the database is not reachable right now" (an
 * outage, answered 503 and retried later), "this statement's data was bad or it lost a deadlock"
 * (a batch retries its items one by one), or a bug. Kept apart from db.ts, which maps errors with it.
 */
/**
 * 25006 read_only_sql_transaction: the connection reached a standby or a demoted primary (behind a
 * virtual address or a pooler during a failover). For the request it is an outage like any other:
 * retry later, when the address leads to the writable primary again (contract §10).
 */
const UNAVAILABLE_CODES = new Set(['25006', '57P01', '57P02', '57P03', '53300', '57014', '08000', '08001', '08003', '08004', '08006', '08007']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** True when an error means "the database is not reachable right now" rather than a bug. */
export function isUnavailableError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  if (code && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  return /Connection terminated|in a read-only transaction|cannot execute \S+ during recovery|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|Connection ended unexpectedly/i.test(
    err.message,
  );
}

/**
 * True when a statement failed because of the data it carried (a bad value, a violated constraint)
 * or lost a deadlock: for a batched statement, retrying its items one by one can succeed for all
 * but the culprit. False for everything else (an unreachable database fails every retry too).
 */
export function isDataOrDeadlockError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '40P01' || code === '40001');
}

/**
 * The rows of a batched write in one order of their keys (a stable sort), so that two batches
 * touching the same rows lock them in the same order and wait for each other instead of
 * deadlocking.
 */
export function inLockOrder<T>(items: T[], keyOf: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, by: keyOf(item) }))
    .sort((a, b) => (a.by < b.by ? -1 : a.by > b.by ? 1 : 0))
    .map(({ item }) => item);
}

/**
 * The database could not be reached. Its message says so in the store's own terms (what a worker
 * or an operator reads in the log); the HTTP layer answers it as SERVICE_UNAVAILABLE with the
 * merchant-facing message (http/plugins/envelope.ts).
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  constructor(cause: unknown) {
    super(`database unavailable: ${(cause as Error).message}`, { cause });
  }
}

export function mapError(err: unknown): unknown {
  return isUnavailableError(err) ? new DatabaseUnavailableError(err) : err;
}
