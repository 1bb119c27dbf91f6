/**
 * Payment orders (API §2.2, §4.1, §4.2; contract §4): the resource with both `next_action`
 * variants, and the envelopes. The create request is in the contract layer
 * (src/contract/payment-orders.ts: the service takes its type), re-exported here.
 */
import { type Static, Type } from '@sinclair/typebox';
import { PAYMENT_ORDER_STATUSES } from '../../../domain/payment-order.js';
import { VERIFICATION_MODE } from '../../../services/payin/payment-order-view.js';
import { CreatePaymentOrderRequest, ResponseMode } from '../../../contract/payment-orders.js';
import { Nullable, refTo, Timestamp, Uuid, Livemode, StringEnum } from './common.js';
import { listQuery, NEXT_CURSOR_DESCRIPTION } from './lists.js';

export { CreatePaymentOrderRequest, ResponseMode };

export const PaymentOrderStatus = StringEnum(
  PAYMENT_ORDER_STATUSES,
  { $id: 'PaymentOrderStatus', description: 'API §3.1' },
);

export const HostedCheckoutAction = Type.Object(
  { type: Type.Literal('HOSTED_CHECKOUT'), url: Type.String({ format: 'uri', description: 'the hosted checkout page' }) },
  { $id: 'HostedCheckoutAction', additionalProperties: false },
);

export const UpiIntentAction = Type.Object(
  {
    type: Type.Literal('UPI_INTENT'),
    upi_uri: Type.String({ pattern: '^upi://', description: 'render exactly as returned' }),
    qr_payload: Type.String({ pattern: '^upi://', description: 'the same URI, for a QR code' }),
    expires_at: Timestamp(),
  },
  { $id: 'UpiIntentAction', additionalProperties: false },
);

/** Contract §9: the settlement that paid the order out to the merchant's bank. */
export const OrderSettlement = Type.Object(
  {
    settlement_id: Uuid('the settlement (GET /merchant/settlements/{settlement}, scope settlements:read)'),
    utr: Nullable(Type.String({ description: "the bank reference of the settlement's credit" })),
    settled_at: Timestamp('when the provider settled'),
  },
  { $id: 'OrderSettlement', additionalProperties: false, description: 'contract §9: once a settlement covers the order (its payment line matched)' },
);

export const PaymentOrder = Type.Object(
  {
    id: Uuid('service identifier'),
    order_id: Type.String({ description: 'service order identifier; usable in paths' }),
    merchant_order_reference: Nullable(Type.String()),
    amount_paise: Type.Integer(),
    currency: Type.Literal('INR'),
    status: refTo(PaymentOrderStatus),
    provider_status: Type.String({ description: '`SUCCESS` when paid' }),
    response_mode: refTo(ResponseMode),
    verification_mode: Type.Literal(VERIFICATION_MODE),
    next_action: Type.Unsafe<Static<typeof HostedCheckoutAction> | Static<typeof UpiIntentAction>>({
      oneOf: [refTo(HostedCheckoutAction), refTo(UpiIntentAction)],
      discriminator: { propertyName: 'type', mapping: { HOSTED_CHECKOUT: '#/components/schemas/HostedCheckoutAction', UPI_INTENT: '#/components/schemas/UpiIntentAction' } },
      description: 'HOSTED_CHECKOUT for CHECKOUT orders, UPI_INTENT for INTENT orders',
    }),
    checkout_url: Type.String({ format: 'uri', description: 'hosted checkout page; present in both modes' }),
    upi_intent: Type.Optional(Type.String({ pattern: '^upi://', description: 'INTENT only; same as next_action.upi_uri' })),
    bank_transaction_id: Type.Optional(Type.String({ description: 'once confirmed' })),
    utr: Type.Optional(Type.String({ description: 'once confirmed; same as bank_transaction_id' })),
    confirmed_at: Type.Optional(Timestamp('once confirmed')),
    purpose: Type.String(),
    expires_at: Nullable(Timestamp('null until the payment window starts')),
    livemode: Livemode,
    settlement: Type.Union([refTo(OrderSettlement), Type.Null()], { description: 'contract §9: null until a settlement covers the order' }),
    created_at: Timestamp(),
  },
  { $id: 'PaymentOrder', additionalProperties: false, description: 'API §2.2' },
);

export const PaymentOrderEnvelope = Type.Object(
  { success: Type.Literal(true), data: refTo(PaymentOrder), request_id: Type.String() },
  { $id: 'PaymentOrderEnvelope', additionalProperties: false },
);

export const PaymentOrderListEnvelope = Type.Object(
  { success: Type.Literal(true), data: Type.Array(refTo(PaymentOrder)), next_cursor: Nullable(Type.String({ description: NEXT_CURSOR_DESCRIPTION })), request_id: Type.String() },
  { $id: 'PaymentOrderListEnvelope', additionalProperties: false, description: 'contract §7: newest first' },
);

export const ListPaymentOrdersQuery = listQuery(StringEnum(PAYMENT_ORDER_STATUSES, { description: 'only orders in this status' }));

export const OrderParams = Type.Object({ order: Type.String({ minLength: 1, maxLength: 64, description: 'service UUID or order_id' }) });

export const PAYMENT_ORDER_COMPONENTS = [ResponseMode, PaymentOrderStatus, CreatePaymentOrderRequest, HostedCheckoutAction, UpiIntentAction, OrderSettlement, PaymentOrder, PaymentOrderEnvelope, PaymentOrderListEnvelope];
