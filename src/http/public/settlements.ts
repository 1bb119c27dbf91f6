/**
 * Merchant API: settlements and their lines (contract §9, "Merchant API"). Scope
 * `settlements:read`, organization-wide: a settlement covers the orders of every client of the
 * organization. Schemas: schemas/settlements.ts.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';
import { refTo, REQUEST_ID_HEADER } from './schemas/common.js';
import { AUTHENTICATED_ERRORS, errorResponses } from './schemas/errors.js';
import {
  ListSettlementLinesQuery,
  ListSettlementsQuery,
  SettlementEnvelope,
  SettlementLineListEnvelope,
  SettlementListEnvelope,
  SettlementParams,
} from './schemas/settlements.js';

const TAGS = ['settlements'];
const SCOPE = 'Scope `settlements:read` (organization-wide: the settlements of every client\'s orders).';

export async function registerSettlementRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/merchant/settlements',
    {
      ...merchantRoute(ctx, 'settlements:read'),
      schema: {
        operationId: 'listSettlements',
        tags: TAGS,
        summary: "List the organization's settlements, newest first",
        description:
          `${SCOPE} Keyset pages by \`settled_at\`: pass \`next_cursor\` as \`cursor\` for the next, older page; settlements imported meanwhile never shift a page. ` +
          '`created_from`/`created_to` (inclusive) bound `settled_at`. A malformed filter or a cursor this API did not issue is 422 VALIDATION_FAILED.',
        querystring: ListSettlementsQuery,
        response: {
          200: { ...refTo(SettlementListEnvelope), description: 'One page of settlements (contract §7, §9).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 'VALIDATION_FAILED'),
        },
      },
    },
    async (request) => {
      const page = await ctx.merchantSettlements.list(principalOf(request).orgId, request.query);
      return { success: true as const, data: page.data, next_cursor: page.next_cursor, request_id: request.id };
    },
  );

  api.get(
    '/merchant/settlements/:settlement',
    {
      ...merchantRoute(ctx, 'settlements:read'),
      schema: {
        operationId: 'getSettlement',
        tags: TAGS,
        summary: 'Retrieve one settlement with its totals',
        description: `${SCOPE} \`net_paise = gross − fees − tax − refunds − adjustments\`. 404 for a settlement of another organization; 422 for an id that is not a UUID.`,
        params: SettlementParams,
        response: {
          200: { ...refTo(SettlementEnvelope), description: 'The settlement (contract §9).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, 'VALIDATION_FAILED'),
        },
      },
    },
    async (request) => okEnvelope(request, await ctx.merchantSettlements.get(principalOf(request).orgId, request.params.settlement)),
  );

  api.get(
    '/merchant/settlements/:settlement/lines',
    {
      ...merchantRoute(ctx, 'settlements:read'),
      schema: {
        operationId: 'listSettlementLines',
        tags: TAGS,
        summary: "List a settlement's lines",
        description:
          `${SCOPE} Each payment, refund, adjustment or chargeback the settlement covers, with its fee and tax and how it matched Tijori's records. ` +
          'Keyset pages in a fixed order (a settlement\'s lines never change). 404 for a settlement of another organization; 422 for an id that is not a UUID or a cursor this API did not issue.',
        params: SettlementParams,
        querystring: ListSettlementLinesQuery,
        response: {
          200: { ...refTo(SettlementLineListEnvelope), description: 'One page of lines (contract §9).', headers: REQUEST_ID_HEADER },
          ...errorResponses(...AUTHENTICATED_ERRORS, 404, 'VALIDATION_FAILED'),
        },
      },
    },
    async (request) => {
      const page = await ctx.merchantSettlements.lines(principalOf(request).orgId, request.params.settlement, request.query);
      return { success: true as const, data: page.data, next_cursor: page.next_cursor, request_id: request.id };
    },
  );
}
