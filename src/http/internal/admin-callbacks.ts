/** Admin API for callback destinations and deliveries (called by `tijori destination|callbacks ...`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { DestinationBody, DestinationParams, EventParams, OrgParams } from './schemas/callbacks.js';

export async function registerAdminCallbackRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.put('/orgs/:org/destinations/:kind', { schema: { params: DestinationParams, body: DestinationBody } }, async (request, reply) => {
    const { org, kind } = request.params;
    const { url } = request.body;
    const d = await ctx.destinations.set({ orgId: org, kind, url });
    return reply.code(d.created ? 201 : 200).send(okEnvelope(request, { kind: d.kind, url: d.url, signing_secret: d.signing_secret }));
  });

  admin.get('/orgs/:org/destinations', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params;
    return okEnvelope(request, { org_id: org, destinations: await ctx.destinations.list(org) });
  });

  admin.post('/events/:event_id/replay', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params;
    return okEnvelope(request, await ctx.deliveries.replay(event_id));
  });

  admin.get('/events/:event_id/deliveries', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params;
    return okEnvelope(request, await ctx.deliveries.show(event_id));
  });
}
