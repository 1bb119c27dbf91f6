/** Merchant API: payment orders (API §4.1, §4.2) and their cancellation. Schemas: schemas/payment-orders.ts. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';
import { IdempotencyKeyHeaders, refTo, REPLAYED_HEADER, REQUEST_ID_HEADER } from './schemas/common.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, CREATE_ERRORS, errorResponses, PATH_ID_ERRORS } from './schemas/errors.js';
import { CreatePaymentOrderRequest, ListPaymentOrdersQuery, OrderParams, PaymentOrderEnvelope, PaymentOrderListEnvelope } from './schemas/payment-orders.js';

const TAGS = ['payment orders'];

export async function registerPaymentOrderRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/merchant/payment-orders',
    {
      ...merchantRoute(ctx, 'collections:write'),
      preValidation: financialCreateChecks,
      schema: {
        operationId: 'createPaymentOrder',
        tags: TAGS,
        summary: 'Create a payment order (CHECKOUT or INTENT)',
        description: 'Scope `collections:write`. Idempotent by `Idempotency-Key`: a repeat returns the original order.',
        headers: IdempotencyKeyHeaders,
        body: refTo(CreatePaymentOrderRequest),
        response: {
          201: { ...refTo(PaymentOrderEnvelope), description: 'The payment order (API §2.2); `next_action` as per mode.', headers: { ...REQUEST_ID_HEADER, ...REPLAYED_HEADER } },
          ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, ...CREATE_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const res = await ctx.paymentOrders.create({ principal: principalOf(request), scope: idempotencyScopeOf(request), body: request.body, requestId: request.id });
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payment-orders/:order',
    {
      ...merchantRoute(ctx, 'collections:read'),
      schema: {
        operationId: 'getPaymentOrder',
        tags: TAGS,
        summary: 'Retrieve the authoritative state of a payment order',
        description: 'Scope `collections:read`. For an open order the provider may be asked live (at most every 2 s).',
        params: OrderParams,
        response: {
          200: { ...refTo(PaymentOrderEnvelope), description: 'The payment order (API §2.2).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, ...PATH_ID_ERRORS),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.paymentOrders.retrieve(principalOf(request), request.params.order)),
  );

  api.post(
    '/merchant/payment-orders/:order/cancel',
    {
      ...merchantRoute(ctx, 'collections:write'),
      schema: {
        operationId: 'cancelPaymentOrder',
        tags: TAGS,
        summary: 'Cancel an open payment order',
        description: 'Scope `collections:write`. No body. An order that is no longer open answers 409 INVALID_STATE.',
        params: OrderParams,
        response: {
          200: { ...refTo(PaymentOrderEnvelope), description: 'The cancelled payment order.', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 'INVALID_STATE'),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.paymentOrders.cancel(principalOf(request), request.params.order)),
  );

  api.get(
    '/merchant/payment-orders',
    {
      ...merchantRoute(ctx, 'collections:read'),
      schema: {
        operationId: 'listPaymentOrders',
        tags: TAGS,
        summary: 'List the calling client\'s payment orders, newest first',
        description:
          'Scope `collections:read`. Only payment orders created by the calling API client. Keyset pages: pass `next_cursor` as `cursor` for the next, older page; ' +
          'payment orders created meanwhile never shift a page (no item is skipped or repeated). `created_from`/`created_to` are inclusive. ' +
          'A malformed filter or a cursor this API did not issue is 422 VALIDATION_FAILED.',
        querystring: ListPaymentOrdersQuery,
        response: {
          200: { ...refTo(PaymentOrderListEnvelope), description: 'One page of payment orders (contract §7).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 'VALIDATION_FAILED'),
        },
      },
    },
    async (request) => {
      const page = await ctx.paymentOrders.list(principalOf(request), request.query);
      return { success: true as const, data: page.data, next_cursor: page.next_cursor, request_id: request.id };
    },
  );
}
