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
  },
  { additionalProperties: false },
);

export async function registerAdminRouteRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.post('/routes', { schema: { body: RouteBody } }, async (request, reply) => {
    const b = request.body as { org: string; modes: string[]; name?: string };
    const route = await ctx.routes.create({ orgId: b.org, modes: b.modes, name: b.name, provider: ctx.provider.name });
    return reply.code(201).send(
      okEnvelope(request, {
        bank_connection_id: route.id,
        modes: route.modes,
        name: route.name,
        org_id: route.org_id,
        provider: route.provider,
        is_default: route.is_default,
      }),
    );
  });
}
