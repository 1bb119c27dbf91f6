/** Admin API for payout routes (called by `tijori route create`). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';

const RouteBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    modes: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 3 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    /** Contract §8: the provider account the route sends through; without it, the built-in sandbox. */
    provider_account: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export async function registerAdminRouteRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.post('/routes', { schema: { body: RouteBody } }, async (request, reply) => {
    const b = request.body as { org: string; modes: string[]; name?: string; provider_account?: string };
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
