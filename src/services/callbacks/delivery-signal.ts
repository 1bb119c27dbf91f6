/**
 * The in-process wake-up of the delivery worker: "deliveries were committed here". Raised after
 * the commit of the transaction that recorded them (afterCommit), so the worker's claim sees them.
 *
 * Why not only PostgreSQL NOTIFY: a transaction that notifies takes a database-wide lock while it
 * commits, which serialises the commits of every state change that records an event (measured on
 * the 2-core development machine: 5,000 events from 16 concurrent transactions took 4–6 s with
 * NOTIFY, 2.6–3.3 s without). So an instance that runs a delivery worker
 * wakes its own worker this way and delivers what it recorded itself; only an instance without a
 * worker (RUN_WORKERS=false) notifies, so that the others hear about its events at once.
 */
const listeners = new Set<() => void>();

/** Subscribes a worker; returns the unsubscribe function. */
export function onDeliveriesCommitted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True when a delivery worker runs in this process. */
export function hasLocalDeliveryWorker(): boolean {
  return listeners.size > 0;
}

export function deliveriesCommitted(): void {
  for (const listener of listeners) listener();
}
