/** Merchant API: refunds of payment orders (contract §6). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { REFUND_REASON_MAX } from '../../domain/refund.js';
import type { CreateRefundBody } from '../../services/refunds.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';

const CreateBody = Type.Object(
  {
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000, description: 'INR paise; defaults to what is left to refund' })),
    reason: Type.Optional(Type.String({ maxLength: REFUND_REASON_MAX })),
  },
  { additionalProperties: false },
);

const OrderParams = Type.Object({ order: Type.String({ minLength: 1, maxLength: 64, description: 'service UUID or order_id' }) });
const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64, description: 'refund UUID or refund_id' }) });

export async function registerRefundRoutes(api: FastifyInstance, ctx: AppContext): Promise<void> {
  api.post(
    '/merchant/payment-orders/:order/refunds',
    {
      ...merchantRoute(ctx, 'collections:write'),
      preValidation: financialCreateChecks,
      schema: { params: OrderParams, body: CreateBody, tags: ['refunds'], summary: 'Refund a PAID or MANUALLY_CONFIRMED payment order, fully or partly' },
    },
    async (request, reply) => {
      const { order } = request.params as { order: string };
      const res = await ctx.refunds.create({
        principal: principalOf(request),
        scope: idempotencyScopeOf(request),
        orderRef: order,
        body: request.body as CreateRefundBody,
        requestId: request.id,
      });
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payment-orders/:order/refunds',
    { ...merchantRoute(ctx, 'collections:read'), schema: { params: OrderParams, tags: ['refunds'], summary: 'The refunds of a payment order, oldest first' } },
    async (request) => {
      const { order } = request.params as { order: string };
      return okEnvelope(request, await ctx.refunds.listForOrder(principalOf(request), order));
    },
  );

  api.get(
    '/merchant/refunds/:refund',
    { ...merchantRoute(ctx, 'collections:read'), schema: { params: RefundParams, tags: ['refunds'], summary: 'Retrieve a refund' } },
    async (request) => {
      const { refund } = request.params as { refund: string };
      return okEnvelope(request, await ctx.refunds.retrieve(principalOf(request), refund));
    },
  );
}
