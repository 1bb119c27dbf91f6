/** Merchant API: payment orders (API §4.1, §4.2) and their cancellation. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { PAYMENT_ORDER_STATUSES } from '../../domain/payment-order.js';
import type { CreatePaymentOrderBody } from '../../services/payment-order-input.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';

const CreateBody = Type.Object(
  {
    amount_paise: Type.Integer({ minimum: 100, maximum: 10_000_000_000, description: 'INR paise' }),
    purpose: Type.String({ minLength: 3, maxLength: 255 }),
    merchant_order_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    response_mode: Type.Optional(Type.Union([Type.Literal('CHECKOUT'), Type.Literal('INTENT')], { default: 'CHECKOUT' })),
    customer_name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    customer_email: Type.Optional(Type.String({ minLength: 3, maxLength: 190 })),
    customer_phone: Type.Optional(Type.String({ minLength: 10, maxLength: 10, description: 'Indian 10-digit mobile' })),
    customer_consent: Type.Optional(Type.Boolean()),
    expires_in_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 1440, default: 30 })),
    callback_url: Type.Optional(Type.String({ maxLength: 2048, description: 'HTTPS URL' })),
    callback_secret: Type.Optional(Type.String({ minLength: 32, maxLength: 500 })),
    return_url: Type.Optional(Type.String({ maxLength: 2048, description: 'HTTPS URL' })),
  },
  { additionalProperties: false },
);

const OrderParams = Type.Object({ order: Type.String({ minLength: 1, maxLength: 64, description: 'service UUID or order_id' }) });

export const PaymentOrderSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  order_id: Type.String(),
  merchant_order_reference: Type.Union([Type.String(), Type.Null()]),
  amount_paise: Type.Integer(),
  currency: Type.Literal('INR'),
  status: Type.Union(PAYMENT_ORDER_STATUSES.map((s) => Type.Literal(s))),
  provider_status: Type.String(),
  response_mode: Type.Union([Type.Literal('CHECKOUT'), Type.Literal('INTENT')]),
  verification_mode: Type.Literal('PROVIDER_PAYIN_STATUS_API'),
  next_action: Type.Object({
    type: Type.Union([Type.Literal('HOSTED_CHECKOUT'), Type.Literal('UPI_INTENT')]),
    url: Type.Optional(Type.String()),
    upi_uri: Type.Optional(Type.String()),
    qr_payload: Type.Optional(Type.String()),
    expires_at: Type.Optional(Type.String()),
  }),
  checkout_url: Type.String(),
  upi_intent: Type.Optional(Type.String()),
  bank_transaction_id: Type.Optional(Type.String()),
  utr: Type.Optional(Type.String()),
  confirmed_at: Type.Optional(Type.String()),
  purpose: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

export async function registerPaymentOrderRoutes(api: FastifyInstance, ctx: AppContext): Promise<void> {
  api.post(
    '/merchant/payment-orders',
    {
      ...merchantRoute(ctx, 'collections:write'),
      preValidation: financialCreateChecks,
      schema: { body: CreateBody, tags: ['payment orders'], summary: 'Create a payment order (CHECKOUT or INTENT)' },
    },
    async (request, reply) => {
      const res = await ctx.paymentOrders.create({
        principal: principalOf(request),
        scope: idempotencyScopeOf(request),
        body: request.body as CreatePaymentOrderBody,
        requestId: request.id,
      });
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payment-orders/:order',
    { ...merchantRoute(ctx, 'collections:read'), schema: { params: OrderParams, tags: ['payment orders'], summary: 'Retrieve the authoritative state of a payment order' } },
    async (request) => {
      const { order } = request.params as { order: string };
      return okEnvelope(request, await ctx.paymentOrders.retrieve(principalOf(request), order));
    },
  );

  api.post(
    '/merchant/payment-orders/:order/cancel',
    { ...merchantRoute(ctx, 'collections:write'), schema: { params: OrderParams, tags: ['payment orders'], summary: 'Cancel an open payment order' } },
    async (request) => {
      const { order } = request.params as { order: string };
      return okEnvelope(request, await ctx.paymentOrders.cancel(principalOf(request), order));
    },
  );
}
