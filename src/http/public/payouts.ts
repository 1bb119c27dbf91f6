/** POST /merchant/payouts and GET /merchant/payouts/{payout} (API §4.3, §4.4). Schemas: schemas/payouts.ts. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';
import { IdempotencyKeyHeaders, refTo, REPLAYED_HEADER, REQUEST_ID_HEADER } from './schemas/common.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, CREATE_ERRORS, errorResponses, PATH_ID_ERRORS } from './schemas/errors.js';
import { CreatePayoutRequest, ListPayoutsQuery, PayoutCreatedEnvelope, PayoutEnvelope, PayoutListEnvelope, PayoutParams } from './schemas/payouts.js';

const TAGS = ['payouts'];

export async function registerPayoutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/merchant/payouts',
    {
      ...merchantRoute(ctx, 'payouts:write'),
      preValidation: financialCreateChecks,
      schema: {
        operationId: 'createPayout',
        tags: TAGS,
        summary: 'Create a payout (submitted directly; no approval step)',
        description:
          'Scope `payouts:write`. HTTP 201 means submitted, not final: the payout is final only with SUCCESS and a UTR. ' +
          'Idempotent by `Idempotency-Key`: a repeat returns the original payout.',
        headers: IdempotencyKeyHeaders,
        body: refTo(CreatePayoutRequest),
        response: {
          201: { ...refTo(PayoutCreatedEnvelope), description: 'The payout (API §2.3), submitted.', headers: { ...REQUEST_ID_HEADER, ...REPLAYED_HEADER } },
          ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, ...CREATE_ERRORS, 'BENEFICIARY_INVALID', 'ROUTE_INVALID', 'MODE_NOT_ENABLED'),
        },
      },
    },
    async (request, reply) => {
      const res = await ctx.payouts.create(principalOf(request), idempotencyScopeOf(request), request.id, request.body);
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payouts/:payout',
    {
      ...merchantRoute(ctx, 'payouts:read'),
      schema: {
        operationId: 'getPayout',
        tags: TAGS,
        summary: 'Retrieve a payout with its attempts, bank reference and UTR',
        description: 'Scope `payouts:read`. Only payouts created by the calling API client are visible.',
        params: PayoutParams,
        response: {
          200: { ...refTo(PayoutEnvelope), description: 'The payout (API §2.3).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, ...PATH_ID_ERRORS),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.payouts.get(principalOf(request), request.params.payout)),
  );

  api.get(
    '/merchant/payouts',
    {
      ...merchantRoute(ctx, 'payouts:read'),
      schema: {
        operationId: 'listPayouts',
        tags: TAGS,
        summary: 'List the calling client\'s payouts, newest first',
        description:
          'Scope `payouts:read`. Only payouts created by the calling API client. Keyset pages: pass `next_cursor` as `cursor` for the next, older page; ' +
          'payouts created meanwhile never shift a page (no item is skipped or repeated). `created_from`/`created_to` are inclusive. ' +
          'A malformed filter or a cursor this API did not issue is 422 VALIDATION_FAILED.',
        querystring: ListPayoutsQuery,
        response: {
          200: { ...refTo(PayoutListEnvelope), description: 'One page of payouts (contract §7).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 'VALIDATION_FAILED'),
        },
      },
    },
    async (request) => {
      const page = await ctx.payouts.list(principalOf(request), request.query);
      return { success: true as const, data: page.data, next_cursor: page.next_cursor, request_id: request.id };
    },
  );
}
