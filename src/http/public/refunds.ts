/** Merchant API: refunds of payment orders (contract §6). Schemas: schemas/refunds.ts. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';
import { IdempotencyKeyHeaders, refTo, REPLAYED_HEADER, REQUEST_ID_HEADER } from './schemas/common.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, CREATE_ERRORS, errorResponses, PATH_ID_ERRORS } from './schemas/errors.js';
import { OrderParams } from './schemas/payment-orders.js';
import { CreateRefundRequest, RefundEnvelope, RefundListEnvelope, RefundParams } from './schemas/refunds.js';

const TAGS = ['refunds'];

export async function registerRefundRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/merchant/payment-orders/:order/refunds',
    {
      ...merchantRoute(ctx, 'collections:write'),
      preValidation: financialCreateChecks,
      schema: {
        operationId: 'createRefund',
        tags: TAGS,
        summary: 'Refund a PAID or MANUALLY_CONFIRMED payment order, fully or partly',
        description:
          'Scope `collections:write`. Idempotent by `Idempotency-Key`. The refund waits in PENDING_REVIEW for a reviewer unless the organization skips review. ' +
          '409 INVALID_STATE unless the order is PAID or MANUALLY_CONFIRMED; 422 REFUND_EXCEEDS_AMOUNT past the order amount.',
        headers: IdempotencyKeyHeaders,
        params: OrderParams,
        body: refTo(CreateRefundRequest),
        response: {
          201: { ...refTo(RefundEnvelope), description: 'The refund (contract §6).', headers: { ...REQUEST_ID_HEADER, ...REPLAYED_HEADER } },
          ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, ...CREATE_ERRORS, 404, 'INVALID_STATE', 'REFUND_EXCEEDS_AMOUNT'),
        },
      },
    },
    async (request, reply) => {
      const res = await ctx.refunds.create({
        principal: principalOf(request),
        scope: idempotencyScopeOf(request),
        orderRef: request.params.order,
        body: request.body,
        requestId: request.id,
      });
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payment-orders/:order/refunds',
    {
      ...merchantRoute(ctx, 'collections:read'),
      schema: {
        operationId: 'listOrderRefunds',
        tags: TAGS,
        summary: 'The refunds of a payment order, oldest first',
        description: 'Scope `collections:read`.',
        params: OrderParams,
        response: {
          200: { ...refTo(RefundListEnvelope), description: 'The refunds of the payment order.', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, ...PATH_ID_ERRORS),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.refunds.listForOrder(principalOf(request), request.params.order)),
  );

  api.get(
    '/merchant/refunds/:refund',
    {
      ...merchantRoute(ctx, 'collections:read'),
      schema: {
        operationId: 'getRefund',
        tags: TAGS,
        summary: 'Retrieve a refund',
        description: 'Scope `collections:read`. `{refund}` is its `id` or `refund_id`.',
        params: RefundParams,
        response: {
          200: { ...refTo(RefundEnvelope), description: 'The refund (contract §6).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, ...PATH_ID_ERRORS),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.refunds.retrieve(principalOf(request), request.params.refund)),
  );
}
