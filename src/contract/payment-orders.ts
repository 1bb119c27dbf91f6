/**
 * The payment order's create request (API §4.1; contract §4) with every rule JSON Schema can state:
 * the route's validation and OpenAPI (http/public/schemas/payment-orders.ts adds it to the
 * document) and the payment-orders service's input type. What a schema cannot say (a real e-mail
 * domain is not checked; callback_url must not name a private address unless allowed) stays in
 * services/payin/payment-order-input.ts and is described here.
 */
import { type Static, Type } from '@sinclair/typebox';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../domain/money.js';
import { EXPIRES_IN_MINUTES_DEFAULT, EXPIRES_IN_MINUTES_MAX, EXPIRES_IN_MINUTES_MIN } from '../domain/payment-order.js';
import { INDIAN_MOBILE_PATTERN } from '../domain/phone.js';
import { EMAIL_PATTERN, HTTPS_URL_SHAPE } from '../domain/text.js';
import { refTo, StringEnum, Text } from './common.js';

export const ResponseMode = StringEnum(['CHECKOUT', 'INTENT'], { $id: 'ResponseMode' });

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

/** The create's body as the schema checked it: the payment-orders service's input. */
export type CreatePaymentOrderBody = Static<typeof CreatePaymentOrderRequest>;
