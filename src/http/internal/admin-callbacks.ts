/** Admin API for callback destinations, deliveries and the event log (called by `tijori destination|callbacks|event ...`). */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
const DestinationParams = Type.Object({ org: Type.String({ maxLength: 64 }), kind: Type.String({ maxLength: 16 }) });
// The URL's rules (HTTPS, length, public address) are checked by the service, for one clear message.
const DestinationBody = Type.Object(
  { url: Type.String({ maxLength: 4096 }), events: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })) },
  { additionalProperties: false },
);
const EventParams = Type.Object({ event_id: Type.String({ maxLength: 64 }) });
const EventListQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    delivery: Type.Optional(Type.String({ maxLength: 16 })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
const ReplayFailedBody = Type.Object(
  { from: Type.String({ maxLength: 40, pattern: ISO_TIME }), to: Type.String({ maxLength: 40, pattern: ISO_TIME }) },
  { additionalProperties: false },
);

export async function registerAdminCallbackRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.put('/orgs/:org/destinations/:kind', { schema: { params: DestinationParams, body: DestinationBody } }, async (request, reply) => {
    const { org, kind } = request.params as Static<typeof DestinationParams>;
    const { url, events } = request.body as Static<typeof DestinationBody>;
    const d = await ctx.destinations.set({ orgId: org, kind, url, events, actor: OPERATOR });
    return reply.code(d.created ? 201 : 200).send(okEnvelope(request, { kind: d.kind, url: d.url, signing_secret: d.signing_secret, events: d.events }));
  });

  admin.post('/orgs/:org/destinations/:kind/enable', { schema: { params: DestinationParams } }, async (request) => {
    const { org, kind } = request.params as Static<typeof DestinationParams>;
    return okEnvelope(request, await ctx.destinations.enable(org, kind, OPERATOR));
  });

  admin.get('/orgs/:org/destinations', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params as Static<typeof OrgParams>;
    return okEnvelope(request, { org_id: org, destinations: await ctx.destinations.list(org) });
  });

  admin.get('/orgs/:org/events', { schema: { params: OrgParams, querystring: EventListQuery } }, async (request) => {
    const { org } = request.params as Static<typeof OrgParams>;
    const q = request.query as Static<typeof EventListQuery>;
    const page = await ctx.events.list({
      orgId: org,
      type: q.type,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      delivery: q.delivery,
      cursor: q.cursor,
      limit: Math.min(Math.max(Number(q.limit ?? 100), 1), 500),
    });
    return okEnvelope(request, { events: page.rows, next_cursor: page.next_cursor });
  });

  admin.post('/orgs/:org/events/replay-failed', { schema: { params: OrgParams, body: ReplayFailedBody } }, async (request) => {
    const { org } = request.params as Static<typeof OrgParams>;
    const b = request.body as Static<typeof ReplayFailedBody>;
    return okEnvelope(request, await ctx.events.replayFailed({ orgId: org, from: new Date(b.from), to: new Date(b.to), actor: OPERATOR }));
  });

  admin.post('/events/:event_id/replay', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params as Static<typeof EventParams>;
    return okEnvelope(request, await ctx.events.replay({ eventId: event_id, orgId: null, actor: OPERATOR }));
  });

  admin.get('/events/:event_id/deliveries', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params as Static<typeof EventParams>;
    return okEnvelope(request, await ctx.deliveries.show(event_id));
  });
}
