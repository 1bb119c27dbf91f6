/** The public listener: the merchant API under /api/v1, health probes and the OpenAPI document. */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createBaseApp } from '../base-app.js';
import { registerCheckoutRoutes } from './checkout/routes.js';
import { registerConsole } from './console/index.js';
import { documentedResponses } from './openapi-responses.js';
import { registerPublicRoutes } from './routes.js';

export const API_PREFIX = '/api/v1';

export async function buildPublicApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = createBaseApp(ctx, 'public');
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tijori merchant API',
        version: '1.0.0',
        description: 'Hosted collections (PayIn), direct payouts (PayOut) and signed callbacks. Amounts are integers in paise.',
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          clientId: { type: 'apiKey', in: 'header', name: 'X-Service-Client-Id' },
          clientSecret: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ clientId: [], clientSecret: [] }],
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const response = documentedResponses(String(method), url);
      return { schema: response ? { ...schema, response } : schema, url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url };
    },
  });

  app.get('/healthz', { schema: { hide: true } }, async (request) => ({ status: 'ok', request_id: request.id }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const up = await ctx.db.ping();
    ctx.metrics.dbUp.set(up ? 1 : 0);
    return reply.code(up ? 200 : 503).send({ status: up ? 'ready' : 'database unavailable', request_id: request.id });
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
