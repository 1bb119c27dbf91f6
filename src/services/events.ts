/**
 * Writes an event of API §6.3 into the outbox, together with its deliveries. Must be called with
 * the transaction of the state change that causes it, so an event and its deliveries exist exactly
 * when its state change does. The body is serialised once here and delivered byte for byte in
 * every attempt.
 *
 * Fan-out happens here, at record time: one delivery to the organization's PayIn destination
 * (collection.*) or PayOut destination (payout.*) if one is configured at this moment, plus one to
 * `extraDestination` (a payment order's own callback_url). No delivery is ever made inline: the
 * delivery worker is woken once the transaction commits (see delivery-signal.ts).
 */
import { newRowId } from '../store/row-id.js';
import { afterCommit, type Queryable } from '../store/db.js';
import { type DestinationKind, insertEventsWithDeliveries } from '../store/repos/callbacks-repo.js';
import { deliveriesCommitted, hasLocalDeliveryWorker } from './delivery-signal.js';

export const EVENT_KINDS = [
  'collection.received',
  'collection.refund.requested',
  'collection.refund.completed',
  'payout.created',
  'payout.success',
  'payout.failed',
  // Contract §7: sent only to destinations that subscribe to it (a console payout a checker rejected).
  'payout.rejected',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Which organization destination an event goes to (API §6.3). */
export function destinationKindOf(kind: string): DestinationKind {
  if (kind.startsWith('collection.')) return 'payin';
  if (kind.startsWith('payout.')) return 'payout';
  throw new Error(`no destination for event kind "${kind}"`);
}

/**
 * A further destination for this one event: a payment order's own `callback_url`, with its
 * `callback_secret` encrypted by `ctx.vault.encrypt(secret, secretContext)`. The delivery worker
 * decrypts it with the same context at send time; the plaintext never enters the outbox.
 */
export interface ExtraDestination {
  url: string;
  secretEnc: Buffer;
  secretContext: string;
}

export interface EventInput {
  orgId: string;
  kind: EventKind;
  aggregateType: 'payment_order' | 'payout';
  aggregateId: string;
  data: Record<string, unknown>;
  extraDestination?: ExtraDestination | null | undefined;
}

export interface RecordedEvent {
  id: string;
  body: string;
  /** Deliveries created for it (0 when no destination applies). */
  deliveries: number;
}

export async function recordEvent(q: Queryable, input: EventInput, now: Date = new Date()): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(q, [input], now);
  return recorded!;
}

/** recordEvent for several events of one transaction, in one statement. */
export async function recordEvents(q: Queryable, inputs: EventInput[], now: Date = new Date()): Promise<RecordedEvent[]> {
  if (inputs.length === 0) return [];
  const localWorker = hasLocalDeliveryWorker();
  const rows = inputs.map((input) => {
    const id = newRowId();
    return {
      id,
      orgId: input.orgId,
      kind: input.kind,
      aggregateType: input.aggregateType,
      aggregateId: input.aggregateId,
      body: JSON.stringify({ event: input.kind, event_id: id, created_at: now.toISOString(), data: input.data }),
      createdAt: now,
      target: destinationKindOf(input.kind),
      extra: input.extraDestination ?? undefined,
    };
  });
  const deliveries = await insertEventsWithDeliveries(q, rows, !localWorker);
  if (localWorker && deliveries.some((n) => n > 0)) afterCommit(q, deliveriesCommitted);
  return rows.map((row, i) => ({ id: row.id, body: row.body, deliveries: deliveries[i] ?? 0 }));
}
