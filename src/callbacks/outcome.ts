/**
 * What one delivery attempt's result means for the delivery (contract §4): any 2xx ends it; 410
 * Gone ends it too (the merchant says the endpoint is gone for good, as in Standard Webhooks: we
 * stop retrying this delivery, but keep the destination and later events; `tijori callbacks
 * replay` sends it again); anything else is retried on the schedule until the schedule runs out.
 */
import { nextAttemptDelayMs } from './schedule.js';

/** Every status of a delivery (the CHECK of callback_deliveries.status; test/foundation/schema-sync.test.ts). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'exhausted', 'gone', 'parked'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Stopped without success: never attempted again unless replayed. An event with such a delivery is
 * "failed" in the event log, and these are what a replay sends again (SQL takes the list as a
 * parameter; the partial index callback_deliveries_status_idx covers exactly it, sync-tested).
 */
export const FAILED_DELIVERY_STATUSES = ['exhausted', 'gone'] as const satisfies readonly DeliveryStatus[];

/** Still to be attempted (parked: while its destination is disabled); the event log's "pending". */
export const WAITING_DELIVERY_STATUSES = ['pending', 'parked'] as const satisfies readonly DeliveryStatus[];

export function isFailedDelivery(status: DeliveryStatus): boolean {
  return (FAILED_DELIVERY_STATUSES as readonly DeliveryStatus[]).includes(status);
}

export type DeliveryOutcome =
  | { status: 'delivered' | 'gone' | 'exhausted'; delayMs: null }
  | { status: 'pending'; delayMs: number };

export interface OutcomeInput {
  ok: boolean;
  statusCode: number | null;
  /** Attempts made since the delivery was (re)queued, including this one. */
  scheduleStep: number;
  /** Multiplies every retry delay; 1 in production (CALLBACK_RETRY_SCALE, testing only). */
  retryScale: number;
  random: () => number;
}

export function deliveryOutcome(input: OutcomeInput): DeliveryOutcome {
  if (input.ok) return { status: 'delivered', delayMs: null };
  if (input.statusCode === 410) return { status: 'gone', delayMs: null };
  const delay = nextAttemptDelayMs(input.scheduleStep, input.random);
  if (delay === null) return { status: 'exhausted', delayMs: null };
  return { status: 'pending', delayMs: Math.round(delay * input.retryScale) };
}
