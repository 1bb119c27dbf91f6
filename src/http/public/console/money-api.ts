/**
 * The console's money pages' API (issue #19 item 3, docs/console.md): payment orders and payouts
 * of the signed-in user's organization. Every role may read them (contract §5). Registered inside
 * the console API's plugin, so its session guard and envelope apply.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { ConsoleMoney, type MoneyListQuery } from '../../../services/console/money.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { sessionOf } from './session.js';

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 40 })),
    created_from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    created_to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
const RefParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 100 }) });

function listQuery(orgId: string, q: Static<typeof ListQuery>): MoneyListQuery {
  return {
    orgId,
    ...(q.status ? { status: q.status } : {}),
    ...(q.created_from ? { from: new Date(q.created_from) } : {}),
    ...(q.created_to ? { to: new Date(q.created_to) } : {}),
    ...(q.search ? { search: q.search } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
    limit: Math.min(Math.max(Number(q.limit ?? 25), 1), 100),
  };
}

export async function registerMoneyApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const money = new ConsoleMoney({ db: ctx.db, vault: ctx.vault, publicBaseUrl: () => ctx.publicBaseUrl() });
  const hide = { hide: true, tags: ['console'] };

  api.get('/payment-orders', { schema: { ...hide, querystring: ListQuery }, config: { console: 'read' } }, async (request) => {
    const page = await money.listOrders(listQuery(sessionOf(request).user.org_id, request.query as Static<typeof ListQuery>));
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/payment-orders/:ref', { schema: { ...hide, params: RefParams }, config: { console: 'read' } }, async (request) => {
    const { ref } = request.params as Static<typeof RefParams>;
    return okEnvelope(request, await money.order(sessionOf(request).user.org_id, ref));
  });

  api.get('/payouts', { schema: { ...hide, querystring: ListQuery }, config: { console: 'read' } }, async (request) => {
    const page = await money.listPayouts(listQuery(sessionOf(request).user.org_id, request.query as Static<typeof ListQuery>));
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/payouts/:ref', { schema: { ...hide, params: RefParams }, config: { console: 'read' } }, async (request) => {
    const { ref } = request.params as Static<typeof RefParams>;
    return okEnvelope(request, await money.payout(sessionOf(request).user.org_id, ref));
  });
}
