/**
 * The console's event log and the developer controls of callback destinations (contract §5, §7;
 * docs/callbacks.md): the event list and replay (`events.replay`: admin, developer), a
 * destination's delivery log, "Send a test event", its subscribed event types and re-enabling
 * (`destinations.manage`), and the notices of signed-in pages (a disabled destination). The same
 * services as the CLI act; every change is audited by them.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { consoleOperation as op } from './schemas/common.js';
import { actorOf, sessionOf } from './session.js';
import * as A from './schemas/answers.js';

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

/** The OpenAPI entries of these routes (tag console; docs/console.md "The console in the OpenAPI document"). */
export const EVENTS_OPS = {
  listEvents: op({ data: A.List(A.EventRow), operationId: 'consoleListEvents', summary: "The organization's events, newest first", access: 'read', description: '`data`: events with their delivery state; filter by type, date and delivery state; keyset pages.' }),
  getEvent: op({ data: A.EventDetail, operationId: 'consoleGetEvent', summary: 'One event with its body and deliveries', access: 'read', description: '`data`: the event, its body and each delivery with its attempts.' }),
  replayEvent: op({ data: A.Replayed, operationId: 'consoleReplayEvent', summary: 'Replay one event', access: 'change', description: '`data`: the new deliveries (same body bytes, new schedule).' }),
  replayFailed: op({ data: A.ReplayedFailed, operationId: 'consoleReplayFailedDeliveries', summary: 'Replay every failed delivery in a time range', access: 'change', description: '`data`: how many deliveries were replayed.' }),
  deliveryLog: op({ data: A.List(A.LogRow), operationId: 'consoleDestinationDeliveryLog', summary: "A destination's delivery log", access: 'read', description: '`data`: deliveries with each attempt (status code, answer excerpt, time, duration); keyset pages.' }),
  sendTestEvent: op({ data: A.TestEvent, operationId: 'consoleSendTestEvent', summary: 'Send a signed test event to a destination', access: 'change', description: '`data`: the test event and its delivery.' }),
  setEvents: op({ data: A.DestinationEvents, operationId: 'consoleSetDestinationEvents', summary: 'Choose the event types a destination receives', access: 'change', description: '`data`: `{kind, events}`.' }),
  enableDestination: op({ data: A.DestinationEnabled, operationId: 'consoleEnableDestination', summary: 'Re-enable a disabled destination', access: 'change', description: '`data`: the destination; its parked deliveries are sent again.' }),
  notices: op({ data: A.Notices, operationId: 'consoleNotices', summary: 'Notices for signed-in pages', access: 'read', description: '`data`: notices, such as a disabled destination.' }),
};

function limitOf(limit: string | undefined, fallback: number): number {
  return Math.min(Math.max(Number(limit ?? fallback), 1), 200);
}

export async function registerEventsApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/events', { schema: { ...EVENTS_OPS.listEvents, querystring: EventQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
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

  api.get('/events/:event_id', { schema: { ...EVENTS_OPS.getEvent, params: EventParams }, config: { console: 'read' } }, async (request) => {
    const { event_id } = request.params;
    return okEnvelope(request, await ctx.events.show(sessionOf(request).user.org_id, event_id));
  });

  api.post('/events/:event_id/replay', { schema: { ...EVENTS_OPS.replayEvent, params: EventParams, body: ReplayBody }, config: { console: 'events.replay' } }, async (request) => {
    const { event_id } = request.params;
    const { target } = request.body;
    return okEnvelope(request, await ctx.events.replay({ eventId: event_id, orgId: sessionOf(request).user.org_id, target, actor: actorOf(request) }));
  });

  api.post('/events/replay-failed', { schema: { ...EVENTS_OPS.replayFailed, body: ReplayFailedBody }, config: { console: 'events.replay' } }, async (request) => {
    const b = request.body;
    return okEnvelope(request, await ctx.events.replayFailed({ orgId: sessionOf(request).user.org_id, from: new Date(b.from), to: new Date(b.to), actor: actorOf(request) }));
  });

  api.get('/destinations/:kind/deliveries', { schema: { ...EVENTS_OPS.deliveryLog, params: KindParams, querystring: LogQuery }, config: { console: 'read' } }, async (request) => {
    const { kind } = request.params;
    const q = request.query;
    const page = await ctx.events.destinationLog({ orgId: sessionOf(request).user.org_id, kind, cursor: q.cursor || undefined, limit: limitOf(q.limit, 20) });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  api.post('/destinations/:kind/test', { schema: { ...EVENTS_OPS.sendTestEvent, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    return okEnvelope(request, await ctx.events.sendTest({ orgId: sessionOf(request).user.org_id, kind, actor: actorOf(request) }));
  });

  api.put('/destinations/:kind/events', { schema: { ...EVENTS_OPS.setEvents, params: KindParams, body: EventsBody }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    const { events } = request.body;
    return okEnvelope(request, await ctx.destinations.setEvents(sessionOf(request).user.org_id, kind, events, actorOf(request)));
  });

  api.post('/destinations/:kind/enable', { schema: { ...EVENTS_OPS.enableDestination, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    return okEnvelope(request, await ctx.destinations.enable(sessionOf(request).user.org_id, kind, actorOf(request)));
  });

  /** What a signed-in page announces: the organization's disabled destinations (shown to admins and developers). */
  api.get('/notices', { schema: EVENTS_OPS.notices, config: { console: 'read' } }, async (request) => {
    const list = await ctx.destinations.list(sessionOf(request).user.org_id);
    return okEnvelope(request, {
      disabled_destinations: list.filter((d) => d.status === 'disabled').map((d) => ({ kind: d.kind, url: d.url, disabled_at: d.disabled_at })),
    });
  });
}
