/**
 * The signed callbacks of API §6 as an OpenAPI 3.1 `webhooks` section: every event kind of
 * services/callbacks/events.ts EVENT_KINDS with its payload and the three signature headers. The payloads
 * are what services/payouts/payout-view.ts and payment-order-transitions.ts write into the outbox.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { type EventKind, EVENT_KINDS, TEST_EVENT_KIND } from '../../../services/callbacks/events.js';
import { type Component, Livemode, Nullable, refTo, Timestamp, Uuid, StringEnum } from './common.js';
import { PayoutMode } from './payouts.js';
import { Beneficiary } from './payouts.js';
import { Refund } from './refunds.js';
import { Settlement } from './settlements.js';

const eventOf = <K extends EventKind | typeof TEST_EVENT_KIND>(kind: K, id: string, data: TSchema, description: string) =>
  Type.Object(
    { event: Type.Literal(kind), event_id: Uuid('unique; store it to reject replays'), created_at: Timestamp(), data },
    { $id: id, additionalProperties: false, description },
  );

export const CollectionReceivedData = Type.Object(
  {
    order_id: Type.String(),
    merchant_order_reference: Nullable(Type.String()),
    status: StringEnum(['PAID', 'MANUALLY_CONFIRMED'], {
      description: 'PAID: the provider confirmed it (fulfil); MANUALLY_CONFIRMED: an operations reviewer confirmed payment evidence (contract §6)',
    }),
    provider_status: Type.String({ description: '`SUCCESS` with PAID' }),
    amount_paise: Type.Integer(),
    currency: Type.Literal('INR'),
    bank_transaction_id: Nullable(Type.String()),
    confirmed_at: Nullable(Timestamp()),
    livemode: Livemode,
  },
  { $id: 'CollectionReceivedData', additionalProperties: false },
);

const payoutBase = {
  payout_id: Uuid(),
  transaction_id: Type.String(),
  client_reference: Nullable(Type.String()),
  amount_paise: Type.Integer(),
  currency: Type.Literal('INR'),
  mode: refTo(PayoutMode),
  beneficiary: refTo(Beneficiary),
  livemode: Livemode,
};

export const PayoutCreatedData = Type.Object(
  { ...payoutBase, status: Type.Literal('PROCESSING'), created_at: Timestamp() },
  { $id: 'PayoutCreatedData', additionalProperties: false },
);
export const PayoutSuccessData = Type.Object(
  { ...payoutBase, status: Type.Literal('SUCCESS'), bank_reference: Type.String(), utr: Type.String({ description: 'retain it' }), processed_at: Timestamp() },
  { $id: 'PayoutSuccessData', additionalProperties: false },
);
export const PayoutFailedData = Type.Object(
  { ...payoutBase, status: Type.Literal('FAILED'), failure_reason: Type.String(), bank_reference: Nullable(Type.String()), failed_at: Timestamp() },
  { $id: 'PayoutFailedData', additionalProperties: false },
);
export const PayoutReversedData = Type.Object(
  {
    ...payoutBase,
    status: Type.Literal('REVERSED'),
    failure_reason: Type.String({ description: 'why the bank reversed it' }),
    bank_reference: Nullable(Type.String()),
    utr: Nullable(Type.String({ description: 'the UTR of the success that was reversed' })),
    processed_at: Nullable(Timestamp()),
    reversed_at: Timestamp(),
  },
  { $id: 'PayoutReversedData', additionalProperties: false },
);
/** `payout.rejected` (contract §6, §7): a checker rejected a console payout; no money moved. */
export const PayoutRejectedData = Type.Object(
  { ...payoutBase, status: Type.Literal('REJECTED'), rejection_note: Type.String(), rejected_at: Timestamp() },
  { $id: 'PayoutRejectedData', additionalProperties: false },
);
/** `collection.refund.requested` / `.completed` (contract §6): the refund as the API shows it, and the order's reference. */
export const RefundEventData = Type.Object(
  { ...Refund.properties, merchant_order_reference: Nullable(Type.String()) },
  { $id: 'RefundEventData', additionalProperties: false },
);

/** `collection.failed|expired|cancelled` (contract §7, opt-in): the order closed without payment. */
export const CollectionClosedData = Type.Object(
  {
    order_id: Type.String(),
    merchant_order_reference: Nullable(Type.String()),
    status: StringEnum(['FAILED', 'EXPIRED', 'CANCELLED']),
    provider_status: Type.String(),
    failure_reason: Nullable(Type.String({ description: 'why the provider failed it (FAILED); null otherwise' })),
    amount_paise: Type.Integer(),
    currency: Type.Literal('INR'),
    closed_at: Timestamp(),
    livemode: Livemode,
  },
  { $id: 'CollectionClosedData', additionalProperties: false },
);

/** `test` (docs/callbacks.md): the console's "Send a test event", sent only to the destination it was sent to. */
export const TestEventData = Type.Object(
  {
    destination: StringEnum(['payin', 'payout'], { description: 'the destination it was sent to' }),
    message: Type.String(),
  },
  { $id: 'TestEventData', additionalProperties: false },
);

/** Every type of event the service sends: the kinds of services/callbacks/events.ts and `test`. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_KINDS, TEST_EVENT_KIND] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const OPT_IN = 'Sent only to a destination that subscribes to it (`tijori destination set --events`, or the console).';

const EVENTS: Record<WebhookEventType, { schema: Component; summary: string }> = {
  'collection.received': {
    schema: eventOf('collection.received', 'CollectionReceivedEvent', refTo(CollectionReceivedData), 'PayIn destination'),
    summary: 'A payment order was paid: fulfil only when data.status is PAID (and retrieve the order first).',
  },
  'collection.refund.requested': {
    schema: eventOf('collection.refund.requested', 'CollectionRefundRequestedEvent', refTo(RefundEventData), 'PayIn destination'),
    summary: 'A refund was requested (informational).',
  },
  'collection.refund.completed': {
    schema: eventOf('collection.refund.completed', 'CollectionRefundCompletedEvent', refTo(RefundEventData), 'PayIn destination'),
    summary: 'A refund was completed (informational).',
  },
  'payout.created': { schema: eventOf('payout.created', 'PayoutCreatedEvent', refTo(PayoutCreatedData), 'PayOut destination'), summary: 'A payout was created.' },
  'payout.success': {
    schema: eventOf('payout.success', 'PayoutSuccessEvent', refTo(PayoutSuccessData), 'PayOut destination'),
    summary: 'The only event that means a completed bank transfer; retain its UTR.',
  },
  'payout.failed': { schema: eventOf('payout.failed', 'PayoutFailedEvent', refTo(PayoutFailedData), 'PayOut destination'), summary: 'A payout failed.' },
  'payout.reversed': {
    schema: eventOf('payout.reversed', 'PayoutReversedEvent', refTo(PayoutReversedData), 'PayOut destination, only when subscribed (opt-in, contract §7)'),
    summary: 'A payout that had succeeded was reversed by the bank; its amount was credited back (opt-in).',
  },
  'collection.failed': {
    schema: eventOf('collection.failed', 'CollectionFailedEvent', refTo(CollectionClosedData), `PayIn destination. ${OPT_IN}`),
    summary: 'A payment order failed at the provider (opt-in).',
  },
  'collection.expired': {
    schema: eventOf('collection.expired', 'CollectionExpiredEvent', refTo(CollectionClosedData), `PayIn destination. ${OPT_IN}`),
    summary: "A payment order's window ended without payment (opt-in).",
  },
  'collection.cancelled': {
    schema: eventOf('collection.cancelled', 'CollectionCancelledEvent', refTo(CollectionClosedData), `PayIn destination. ${OPT_IN}`),
    summary: 'A payment order was cancelled (opt-in).',
  },
  'payout.rejected': {
    schema: eventOf('payout.rejected', 'PayoutRejectedEvent', refTo(PayoutRejectedData), `PayOut destination. ${OPT_IN}`),
    summary: 'A checker rejected a payout made in the console; no money moved (opt-in).',
  },
  'settlement.created': {
    schema: eventOf('settlement.created', 'SettlementCreatedEvent', refTo(Settlement), `PayIn destination. ${OPT_IN}`),
    summary: "A provider settlement was imported: its totals, as GET /merchant/settlements/{settlement} shows them (opt-in).",
  },
  test: {
    schema: eventOf(TEST_EVENT_KIND, 'TestEvent', refTo(TestEventData), 'Only the destination it was sent to, whatever it subscribes to ("Send a test event" in the console).'),
    summary: 'A test event: no money moved; answer 2xx.',
  },
};

export const WEBHOOK_EVENT_SCHEMAS: Component[] = [
  CollectionReceivedData, PayoutCreatedData, PayoutSuccessData, PayoutFailedData, PayoutReversedData, RefundEventData, CollectionClosedData, PayoutRejectedData, TestEventData,
  ...WEBHOOK_EVENT_TYPES.map((k) => EVENTS[k].schema),
];

const SIGNATURE_HEADERS = [
  { name: 'X-Service-Event-Id', description: 'unique event identifier for replay protection', schema: { type: 'string', format: 'uuid' } },
  { name: 'X-Service-Timestamp', description: 'Unix time in seconds when this attempt was signed', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'X-Service-Signature',
    description: '`v1=` + lowercase hex HMAC-SHA256, keyed with the destination\'s signing secret, of `{timestamp}.{raw body}` (API §6.2). Compare in constant time; reject a timestamp more than 300 s away.',
    schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}$' },
  },
].map((h) => ({ in: 'header', required: true, ...h }));

/** The `webhooks` object of the document (OpenAPI 3.1). */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((kind) => [
      kind,
      {
        post: {
          operationId: `webhook_${kind.replace(/\./g, '_')}`,
          summary: EVENTS[kind].summary,
          description:
            'Delivered at least once; each attempt is re-signed with a new timestamp. Answer 2xx promptly; anything else is retried. ' +
            'A destination set to the Standard Webhooks scheme (contract §11) gets `webhook-id`, `webhook-timestamp` and `webhook-signature` ' +
            '(`v1,` + Base64 HMAC-SHA256 of `id.timestamp.body`) instead of the three X-Service headers, with the same body.',
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${EVENTS[kind].schema.$id}` } } } },
          responses: { '200': { description: 'Received (any 2xx ends the delivery).' }, '401': { description: 'Signature or timestamp rejected; the delivery is retried.' } },
        },
      },
    ]),
  );
}
