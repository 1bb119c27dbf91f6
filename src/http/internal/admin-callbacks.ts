/** Admin API for callback destinations, deliveries and the event log (called by `tijori destination|callbacks|event ...`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR, recordAudit } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';
import { DestinationBody, DestinationParams, EventListQuery, EventParams, OrgParams, ReplayFailedBody } from './schemas/callbacks.js';

export async function registerAdminCallbackRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.put('/orgs/:org/destinations/:kind', { schema: { params: DestinationParams, body: DestinationBody } }, async (request, reply) => {
    const { org, kind } = request.params;
    const { url, events, scheme } = request.body;
    const d = await ctx.destinations.set({ orgId: org, kind, url, events, scheme, actor: OPERATOR });
    return reply.code(d.created ? 201 : 200).send(okEnvelope(request, { kind: d.kind, url: d.url, signing_secret: d.signing_secret, events: d.events, scheme: d.scheme }));
  });

  // Secret rotation without downtime (contract §11): `tijori destination rotate-secret` / `activate-secret`.
  admin.post('/orgs/:org/destinations/:kind/rotate-secret', { schema: { params: DestinationParams } }, async (request) => {
    const { org, kind } = request.params;
    const r = await ctx.destinations.rotateSecret(org, kind, (tx, k) => recordAudit(tx, OPERATOR, { orgId: org, action: 'destination.secret_rotated', targetType: 'destination', targetId: k }));
    return okEnvelope(request, r);
  });

  admin.post('/orgs/:org/destinations/:kind/activate-secret', { schema: { params: DestinationParams } }, async (request) => {
    const { org, kind } = request.params;
    const r = await ctx.destinations.activateSecret(org, kind, (tx, k) =>
      recordAudit(tx, OPERATOR, { orgId: org, action: 'destination.secret_activated', targetType: 'destination', targetId: k, after: { by: 'hand' } }),
    );
    return okEnvelope(request, r);
  });

  admin.post('/orgs/:org/destinations/:kind/enable', { schema: { params: DestinationParams } }, async (request) => {
    const { org, kind } = request.params;
    return okEnvelope(request, await ctx.destinations.enable(org, kind, OPERATOR));
  });

  admin.get('/orgs/:org/destinations', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params;
    return okEnvelope(request, { org_id: org, destinations: await ctx.destinations.list(org) });
  });

  admin.get('/orgs/:org/events', { schema: { params: OrgParams, querystring: EventListQuery } }, async (request) => {
    const { org } = request.params;
    const q = request.query;
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
    const { org } = request.params;
    const b = request.body;
    return okEnvelope(request, await ctx.events.replayFailed({ orgId: org, from: new Date(b.from), to: new Date(b.to), actor: OPERATOR }));
  });

  admin.post('/events/:event_id/replay', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params;
    return okEnvelope(request, await ctx.events.replay({ eventId: event_id, orgId: null, actor: OPERATOR }));
  });

  admin.get('/events/:event_id/deliveries', { schema: { params: EventParams } }, async (request) => {
    const { event_id } = request.params;
    return okEnvelope(request, await ctx.deliveries.show(event_id));
  });
}
