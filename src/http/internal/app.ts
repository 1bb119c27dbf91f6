/**
 * The internal listener: the admin API used by the `tijori` CLI (bearer ADMIN_TOKEN), provider
 * callback intake and Prometheus metrics. Never exposed to merchants.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createBaseApp } from '../base-app.js';
import { adminAuth } from './admin-auth.js';
import { registerAdminClientRoutes } from './admin-clients.js';
import { registerInternalRoutes } from './routes.js';

export async function buildInternalApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = createBaseApp(ctx, 'internal');
  app.get('/healthz', async (request) => ({ status: 'ok', request_id: request.id }));
  app.get('/metrics', async (_req, reply) => {
    ctx.metrics.dbUp.set((await ctx.db.ping()) ? 1 : 0);
    return reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
  });
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminAuth(ctx));
      await registerAdminClientRoutes(admin, ctx);
    },
    { prefix: '/admin' },
  );
  await registerInternalRoutes(app, ctx);
  return app;
}
