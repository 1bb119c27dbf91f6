/**
 * Writes an event of API §6.3 into the outbox, together with its deliveries. Must be called with
 * the transaction of the state change that causes it, so an event and its deliveries exist exactly
 * when its state change does. The body is serialised once here and delivered byte for byte in
 * every attempt.
 *
 * Fan-out happens here, at record time: one delivery to the organization's PayIn destination
 * (collection.*) or PayOut destination (payout.*) if one is configured at this moment and subscribes
 * to the event's type (parked, not attempted, while that destination is disabled), plus one to
 * `extraDestination` (a payment order's own callback_url). No delivery is ever made inline: the
 * delivery worker is woken once the transaction commits (see delivery-signal.ts).
 */
import { newRowId } from '../../store/row-id.js';
import { afterCommit, type Tx } from '../../store/db.js';
import { type DestinationKind, insertEventWithDeliveries } from '../../store/repos/callbacks-repo.js';
import { deliveriesCommitted, hasLocalDeliveryWorker } from './delivery-signal.js';

/** The API document's six (§6.3): what a destination receives unless it chooses otherwise. */
export const DEFAULT_EVENT_KINDS = [
  'collection.received',
  'collection.refund.requested',
  'collection.refund.completed',
  'payout.created',
  'payout.success',
  'payout.failed',
] as const;

/** `settlement.created` (contract §9, opt-in, PayIn destinations): a provider settlement was imported, with its totals. */
export const SETTLEMENT_CREATED = 'settlement.created';

/** `payout.rejected`: a checker rejected a console payout (contract §6); no money moved. */
export const PAYOUT_REJECTED = 'payout.rejected';

/**
 * Event types beyond the API document (contract §7), sent only to destinations that subscribe to
 * them (and never to a payment order's own callback_url, which keeps the API document's contract).
 */
export const OPT_IN_EVENT_KINDS = ['collection.failed', 'collection.expired', 'collection.cancelled', PAYOUT_REJECTED, 'payout.reversed', SETTLEMENT_CREATED] as const;

export const EVENT_KINDS = [...DEFAULT_EVENT_KINDS, ...OPT_IN_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * The type of the console's "Send a test event" (docs/callbacks.md): delivered, signed like every
 * event, only to the destination it was sent to, whatever that destination subscribes to.
 */
export const TEST_EVENT_KIND = 'test';

export function isEventKind(kind: string): kind is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(kind);
}

/** The event types a destination of this kind can receive. */
export function eventKindsOf(destination: DestinationKind): EventKind[] {
  return EVENT_KINDS.filter((k) => destinationKindOf(k) === destination);
}

/** What a destination of this kind receives when nobody chose: its part of the API document's six. */
export function defaultEventKindsOf(destination: DestinationKind): EventKind[] {
  return DEFAULT_EVENT_KINDS.filter((k) => destinationKindOf(k) === destination);
}

/** Which organization destination an event goes to (API §6.3). */
export function destinationKindOf(kind: string): DestinationKind {
  // A settlement pays out collections: it goes to the PayIn destination (contract §9).
  if (kind.startsWith('collection.') || kind.startsWith('settlement.')) return 'payin';
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
  aggregateType: 'payment_order' | 'payout' | 'settlement';
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

/**
 * Writes one event with its deliveries in the transaction `q` (the events of a shared transaction
 * take one statement: callbacks-repo insertEventWithDeliveries).
 */
export async function recordEvent(q: Tx, input: EventInput, now: Date = new Date()): Promise<RecordedEvent> {
  const localWorker = hasLocalDeliveryWorker();
  const id = newRowId();
  const body = JSON.stringify({ event: input.kind, event_id: id, created_at: now.toISOString(), data: input.data });
  const event = {
    id,
    orgId: input.orgId,
    kind: input.kind,
    aggregateType: input.aggregateType,
    aggregateId: input.aggregateId,
    body,
    createdAt: now,
    target: destinationKindOf(input.kind),
    extra: input.extraDestination ?? undefined,
  };
  const deliveries = await insertEventWithDeliveries(q, { event, notifyOtherInstances: !localWorker });
  if (localWorker && deliveries > 0) afterCommit(q, deliveriesCommitted);
  return { id, body, deliveries };
}
