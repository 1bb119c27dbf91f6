/**
 * Payment orders (API §2.2, §4.1, §4.2; contract §4): the create request with every rule JSON
 * Schema can state, the resource with both `next_action` variants, and the envelopes. What a schema
 * cannot say (a real e-mail domain is not checked; callback_url must not name a private address
 * unless allowed) stays in services/payin/payment-order-input.ts and is described here.
 */
import { type Static, Type } from '@sinclair/typebox';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../../domain/money.js';
import { EXPIRES_IN_MINUTES_DEFAULT, EXPIRES_IN_MINUTES_MAX, EXPIRES_IN_MINUTES_MIN, PAYMENT_ORDER_STATUSES } from '../../../domain/payment-order.js';
import { INDIAN_MOBILE_PATTERN } from '../../../domain/phone.js';
import { EMAIL_PATTERN, HTTPS_URL_SHAPE } from '../../../domain/text.js';
import { VERIFICATION_MODE } from '../../../services/payin/payment-order-view.js';
import { Nullable, refTo, Text, Timestamp, Uuid, Livemode, StringEnum } from './common.js';
import { listQuery, NEXT_CURSOR_DESCRIPTION } from './lists.js';

export const ResponseMode = StringEnum(['CHECKOUT', 'INTENT'], { $id: 'ResponseMode' });
export const PaymentOrderStatus = StringEnum(
  PAYMENT_ORDER_STATUSES,
  { $id: 'PaymentOrderStatus', description: 'API §3.1' },
);

const httpsUrl = (description: string) =>
  Type.String({ maxLength: 2048, pattern: HTTPS_URL_SHAPE, 'x-issue': 'must be an HTTPS URL', description });

export const CreatePaymentOrderRequest = Type.Object(
  {
    amount_paise: Type.Integer({ minimum: AMOUNT_MIN_PAISE, maximum: AMOUNT_MAX_PAISE, description: 'INR, in paise' }),
    purpose: Text(3, 255),
    merchant_order_reference: Type.Optional(Text(1, 120, 'echoed back; max 120 characters')),
    response_mode: Type.Optional(refTo(ResponseMode)),
    customer_name: Type.Optional(Text(1, 120, 'required for INTENT')),
    customer_email: Type.Optional(
      Type.String({ maxLength: 190, pattern: EMAIL_PATTERN.source, 'x-issue': 'must be an email address of at most 190 characters', description: 'required for INTENT' }),
    ),
    customer_phone: Type.Optional(
      Type.String({ pattern: INDIAN_MOBILE_PATTERN.source, 'x-issue': 'must be an Indian 10-digit mobile number', description: 'Indian 10-digit mobile, no +91; required for INTENT' }),
    ),
    customer_consent: Type.Optional(Type.Boolean({ description: 'must be true for INTENT' })),
    expires_in_minutes: Type.Optional(
      Type.Integer({
        minimum: EXPIRES_IN_MINUTES_MIN,
        maximum: EXPIRES_IN_MINUTES_MAX,
        description: `default ${EXPIRES_IN_MINUTES_DEFAULT}; the window starts when payer details are given`,
      }),
    ),
    callback_url: Type.Optional(
      httpsUrl('this order\'s own callback destination; required together with callback_secret. Loopback, private, link-local and metadata addresses are refused unless the operator allows them.'),
    ),
    callback_secret: Type.Optional(Type.String({ minLength: 32, maxLength: 500, description: 'signing secret for callback_url; required together with callback_url' })),
    return_url: Type.Optional(httpsUrl('where the hosted page sends the payer back; a browser convenience only, never proof of payment')),
  },
  {
    $id: 'CreatePaymentOrderRequest',
    additionalProperties: false,
    description: 'API §4.1. CHECKOUT (default): the hosted page collects payer details. INTENT: customer fields and explicit consent are required.',
    allOf: [
      {
        if: { properties: { response_mode: { const: 'INTENT' } }, required: ['response_mode'] },
        then: { required: ['customer_name', 'customer_email', 'customer_phone', 'customer_consent'], properties: { customer_consent: { const: true } } },
      },
      { if: { required: ['callback_url'] }, then: { required: ['callback_secret'], 'x-issue': 'is required together with callback_url' } },
      { if: { required: ['callback_secret'] }, then: { required: ['callback_url'], 'x-issue': 'is required together with callback_secret' } },
    ],
  },
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
