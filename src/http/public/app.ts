/** The public listener: the merchant API under /api/v1, health probes and the OpenAPI document. */
import type { ReadyPart } from '../../readiness.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createBaseApp } from '../base-app.js';
import { registerCheckoutRoutes } from './checkout/routes.js';
import { registerConsole } from './console/index.js';
import { API_PREFIX, registerOpenApi } from './openapi.js';
import { registerPublicRoutes } from './routes.js';

export { API_PREFIX };

export async function buildPublicApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = createBaseApp(ctx, 'public');
  await registerOpenApi(app);

  // 200 only once the database, the sandbox and the workers are ready (src/readiness.ts).
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    if (ctx.readiness.started) return { status: 'ok', request_id: request.id };
    return reply.code(503).header('retry-after', '1').send({ status: 'starting', not_ready: ctx.readiness.notReady(), request_id: request.id });
  });
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const up = await ctx.db.ping();
    ctx.metrics.dbUp.set(up ? 1 : 0);
    const notReady: ReadyPart[] = ctx.readiness.notReady().filter((p) => p !== 'database');
    if (!up) notReady.unshift('database');
    if (notReady.length === 0) return { status: 'ready', request_id: request.id };
    return reply
      .code(503)
      .header('retry-after', '1')
      .send({ status: up ? 'starting' : 'database unavailable', not_ready: notReady, request_id: request.id });
  });

  await registerCheckoutRoutes(app, ctx);
  await registerConsole(app, ctx);

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await registerPublicRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );
  return app;
}
