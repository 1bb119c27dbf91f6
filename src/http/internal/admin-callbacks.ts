/** Admin API for callback destinations and deliveries (called by `tijori destination|callbacks ...`). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';

const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
const DestinationParams = Type.Object({ org: Type.String({ maxLength: 64 }), kind: Type.String({ maxLength: 16 }) });
// The URL's rules (HTTPS, length, public address) are checked by the service, for one clear message.
const DestinationBody = Type.Object({ url: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });
const EventParams = Type.Object({ event_id: Type.String({ maxLength: 64 }) });

export async function registerAdminCallbackRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.put('/orgs/:org/destinations/:kind', { schema: { params: DestinationParams, body: DestinationBody } }, async (request, reply) => {
    const { org, kind } = request.params as { org: string; kind: string };
    const { url } = request.body as { url: string };
    const d = await ctx.destinations.set({ orgId: org, kind, url });
    return reply.code(d.created ? 201 : 200).send(okEnvelope(request, { kind: d.kind, url: d.url, signing_secret: d.signing_secret }));
  });

  admin.get('/orgs/:org/destinations', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params as { org: string };
    return okEnvelope(request, { org_id: org, destinations: await ctx.destinations.list(org) });
  });

  admin.post('/events/:event_id/replay', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params as { event_id: string };
    return okEnvelope(request, await ctx.deliveries.replay(event_id));
  });

  admin.get('/events/:event_id/deliveries', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params as { event_id: string };
    return okEnvelope(request, await ctx.deliveries.show(event_id));
  });
}
