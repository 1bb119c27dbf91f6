/**
 * The console API of the Overview, Beneficiaries and Payout routes pages (reads, every role) and
 * the API clients page's edit of name, scopes, IP allow list and rate limit (clients.manage: admin and
 * developer). Registered inside the console API's plugin, so its session guard and envelope apply.
 */
import { RATE_LIMIT_BOUNDS } from '../../../domain/rate-limit.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { consoleOperation as op } from './schemas/common.js';
import { actorOf, sessionOf } from './session.js';
import * as A from './schemas/answers.js';

/** The OpenAPI entries of these routes (tag console). */
export const PAGES_OPS = {
  overview: op({ data: A.Overview, operationId: 'consoleOverview', summary: "Today's and this month's collections and payouts", access: 'read', description: '`data`: count, amount and success rate for today and this month, and a daily series, in the viewer\'s zone.' }),
  beneficiaries: op({ data: A.List(A.BeneficiaryView), operationId: 'consoleListBeneficiaries', summary: "The organization's beneficiaries (masked)", access: 'read', description: '`data`: beneficiaries with the last 4 digits of the account only; keyset pages.' }),
  bankConnections: op({ data: A.List(A.BankConnection), operationId: 'consoleListPayoutRoutes', summary: 'The payout routes (bank connections)', access: 'read', description: '`data`: the routes with modes, provider and status.' }),
  updateClient: op({ data: A.UpdatedClient, operationId: 'consoleUpdateApiClient', summary: "Change an API client's name, scopes, IP allow list or rate limit", access: 'change', description: '`data`: the client after the change; a change that adds payouts:write answers `{approval_required: true, request}` instead (a second admin approves it).' }),
};
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
    name: Type.Optional(Type.String({ maxLength: 200, description: 'the new name; an empty string removes it' })),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 })),
    allowed_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit_per_minute: Type.Optional(Type.Integer(RATE_LIMIT_BOUNDS)),
  },
  { additionalProperties: false },
);

export async function registerPagesApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // ctx.console is read when a request comes, not at registration: the OpenAPI document registers these routes without a service.

  api.get('/overview', { schema: { ...PAGES_OPS.overview, querystring: OverviewQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.console.overview.overview(sessionOf(request).user.org_id, { zone: q.tz, date: q.date }));
  });

  api.get('/beneficiaries', { schema: { ...PAGES_OPS.beneficiaries, querystring: BeneficiaryQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    const page = await ctx.console.payoutSetup.beneficiaries({
      orgId: sessionOf(request).user.org_id,
      search: q.search,
      cursor: q.cursor,
      limit: Math.min(Math.max(Number(q.limit ?? 25), 1), 100),
    });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/payout-routes', { schema: PAGES_OPS.bankConnections, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.payoutSetup.bankConnections(sessionOf(request).user.org_id));
  });

  api.patch(
    '/api-clients/:client_id',
    { schema: { ...PAGES_OPS.updateClient, params: ClientParams, body: ClientChangeBody }, config: { console: 'clients.manage' } },
    async (request) => {
      const b = request.body;
      const changes = { name: b.name, scopes: b.scopes, allowIps: b.allowed_ips, rateLimitPerMinute: b.rate_limit_per_minute };
      return okEnvelope(request, await ctx.console.apiClients.update(sessionOf(request).user.org_id, request.params.client_id, changes, actorOf(request)));
    },
  );
}
