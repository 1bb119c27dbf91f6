/**
 * The console API of the Overview, Beneficiaries and Payout routes pages (reads, every role) and
 * the API clients page's edit of scopes, IP allow list and rate limit (clients.manage: admin and
 * developer). Registered inside the console API's plugin, so its session guard and envelope apply.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { ConsoleOverview } from '../../../services/console/overview.js';
import { ConsolePayoutSetup } from '../../../services/console/payout-setup.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { actorOf, sessionOf } from './session.js';

const hide = { hide: true, tags: ['console'] };
const OverviewQuery = Type.Object(
  {
    tz: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone of the viewer; default Asia/Kolkata' })),
    date: Type.Optional(Type.String({ maxLength: 10, description: "the day taken as today (YYYY-MM-DD); default: today in tz" })),
  },
  { additionalProperties: false },
);
const BeneficiaryQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 200 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
const ClientChangeBody = Type.Object(
  {
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 })),
    allowed_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

export async function registerPagesApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const overview = new ConsoleOverview(ctx.db);
  const setup = new ConsolePayoutSetup(ctx.db);

  api.get<{ Querystring: Static<typeof OverviewQuery> }>('/overview', { schema: { ...hide, querystring: OverviewQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await overview.overview(sessionOf(request).user.org_id, { zone: q.tz, date: q.date }));
  });

  api.get<{ Querystring: Static<typeof BeneficiaryQuery> }>('/beneficiaries', { schema: { ...hide, querystring: BeneficiaryQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    const page = await setup.beneficiaries({
      orgId: sessionOf(request).user.org_id,
      search: q.search,
      cursor: q.cursor,
      limit: Math.min(Math.max(Number(q.limit ?? 25), 1), 100),
    });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/payout-routes', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await setup.payoutRoutes(sessionOf(request).user.org_id));
  });

  api.patch<{ Params: Static<typeof ClientParams>; Body: Static<typeof ClientChangeBody> }>(
    '/api-clients/:client_id',
    { schema: { ...hide, params: ClientParams, body: ClientChangeBody }, config: { console: 'clients.manage' } },
    async (request) => {
      const b = request.body;
      const changes = { scopes: b.scopes, allowIps: b.allowed_ips, rateLimitPerMinute: b.rate_limit_per_minute };
      return okEnvelope(request, await ctx.console.apiClients.update(sessionOf(request).user.org_id, request.params.client_id, changes, actorOf(request)));
    },
  );
}
