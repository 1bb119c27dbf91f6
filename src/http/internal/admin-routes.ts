/** Admin API for payout routes (called by `tijori route create`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { RouteBody } from './schemas/routes.js';

export async function registerAdminRouteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/routes', { schema: { body: RouteBody } }, async (request, reply) => {
    const b = request.body;
    const account = b.provider_account === undefined ? null : await ctx.providerAccounts.forRoute(b.org, b.provider_account);
    const route = await ctx.routes.create({
      orgId: b.org,
      modes: b.modes,
      name: b.name,
      provider: account?.provider ?? ctx.providers.sandbox.name,
      providerAccountId: account?.id ?? null,
    });
    return reply.code(201).send(
      okEnvelope(request, {
        bank_connection_id: route.id,
        modes: route.modes,
        name: route.name,
        org_id: route.org_id,
        provider: route.provider,
        provider_account_id: route.provider_account_id,
        is_default: route.is_default,
      }),
    );
  });
}
