/**
 * Writes an event of API §6.3 into the outbox. Must be called with the transaction of the state
 * change that causes it, so an event exists exactly when its state change does. The body is
 * serialised once here and delivered byte for byte in every attempt.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../store/db.js';

export const EVENT_KINDS = [
  'collection.received',
  'collection.refund.requested',
  'collection.refund.completed',
  'payout.created',
  'payout.success',
  'payout.failed',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface EventInput {
  orgId: string;
  kind: EventKind;
  aggregateType: 'payment_order' | 'payout';
  aggregateId: string;
  data: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  body: string;
}

/** Hooks run in the same transaction after the event row is written (e.g. delivery fan-out). */
export type EventHook = (q: Queryable, event: EventInput & RecordedEvent) => Promise<void>;
const hooks: EventHook[] = [];

export function onEventRecorded(hook: EventHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export async function recordEvent(q: Queryable, input: EventInput, now: Date = new Date()): Promise<RecordedEvent> {
  const id = randomUUID();
  const body = JSON.stringify({ event: input.kind, event_id: id, created_at: now.toISOString(), data: input.data });
  await q.query(
    `INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, input.orgId, input.kind, input.aggregateType, input.aggregateId, body, now],
  );
  for (const hook of hooks) await hook(q, { ...input, id, body });
  return { id, body };
}
