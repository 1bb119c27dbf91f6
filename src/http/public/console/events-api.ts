/**
 * The console's event log and the developer controls of callback destinations (contract §5, §7;
 * docs/callbacks.md): the event list and replay (`events.replay`: admin, developer), a
 * destination's delivery log, "Send a test event", its subscribed event types and re-enabling
 * (`destinations.manage`), and the notices of signed-in pages (a disabled destination). The same
 * services as the CLI act; every change is audited by them.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { actorOf, sessionOf } from './session.js';

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
const strict = { additionalProperties: false } as const;
const EventQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    delivery: Type.Optional(Type.String({ maxLength: 16 })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  strict,
);
const EventParams = Type.Object({ event_id: Type.String({ minLength: 1, maxLength: 64 }) });
const ReplayBody = Type.Object({ target: Type.Optional(Type.String({ maxLength: 16 })) }, strict);
const ReplayFailedBody = Type.Object({ from: Type.String({ maxLength: 40, pattern: ISO_TIME }), to: Type.String({ maxLength: 40, pattern: ISO_TIME }) }, strict);
const KindParams = Type.Object({ kind: Type.String({ maxLength: 10 }) });
const LogQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 64 })), limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) }, strict);
const EventsBody = Type.Object({ events: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 }) }, strict);

function limitOf(limit: string | undefined, fallback: number): number {
  return Math.min(Math.max(Number(limit ?? fallback), 1), 200);
}

export async function registerEventsApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const hide = { hide: true, tags: ['console'] };

  api.get('/events', { schema: { ...hide, querystring: EventQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query as Static<typeof EventQuery>;
    const page = await ctx.events.list({
      orgId: sessionOf(request).user.org_id,
      type: q.type || undefined,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      delivery: q.delivery || undefined,
      cursor: q.cursor || undefined,
      limit: limitOf(q.limit, 50),
    });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.get('/events/:event_id', { schema: { ...hide, params: EventParams }, config: { console: 'read' } }, async (request) => {
    const { event_id } = request.params as Static<typeof EventParams>;
    return okEnvelope(request, await ctx.events.show(sessionOf(request).user.org_id, event_id));
  });

  api.post('/events/:event_id/replay', { schema: { ...hide, params: EventParams, body: ReplayBody }, config: { console: 'events.replay' } }, async (request) => {
    const { event_id } = request.params as Static<typeof EventParams>;
    const { target } = request.body as Static<typeof ReplayBody>;
    return okEnvelope(request, await ctx.events.replay({ eventId: event_id, orgId: sessionOf(request).user.org_id, target, actor: actorOf(request) }));
  });

  api.post('/events/replay-failed', { schema: { ...hide, body: ReplayFailedBody }, config: { console: 'events.replay' } }, async (request) => {
    const b = request.body as Static<typeof ReplayFailedBody>;
    return okEnvelope(request, await ctx.events.replayFailed({ orgId: sessionOf(request).user.org_id, from: new Date(b.from), to: new Date(b.to), actor: actorOf(request) }));
  });

  api.get('/destinations/:kind/deliveries', { schema: { ...hide, params: KindParams, querystring: LogQuery }, config: { console: 'read' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    const q = request.query as Static<typeof LogQuery>;
    const page = await ctx.events.destinationLog({ orgId: sessionOf(request).user.org_id, kind, cursor: q.cursor || undefined, limit: limitOf(q.limit, 20) });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.post('/destinations/:kind/test', { schema: { ...hide, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    return okEnvelope(request, await ctx.events.sendTest({ orgId: sessionOf(request).user.org_id, kind, actor: actorOf(request) }));
  });

  api.put('/destinations/:kind/events', { schema: { ...hide, params: KindParams, body: EventsBody }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    const { events } = request.body as Static<typeof EventsBody>;
    return okEnvelope(request, await ctx.destinations.setEvents(sessionOf(request).user.org_id, kind, events, actorOf(request)));
  });

  api.post('/destinations/:kind/enable', { schema: { ...hide, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    return okEnvelope(request, await ctx.destinations.enable(sessionOf(request).user.org_id, kind, actorOf(request)));
  });

  /** What a signed-in page announces: the organization's disabled destinations (shown to admins and developers). */
  api.get('/notices', { schema: hide, config: { console: 'read' } }, async (request) => {
    const list = await ctx.destinations.list(sessionOf(request).user.org_id);
    return okEnvelope(request, {
      disabled_destinations: list.filter((d) => d.status === 'disabled').map((d) => ({ kind: d.kind, url: d.url, disabled_at: d.disabled_at })),
    });
  });
}
