/**
 * The event log of an organization (contract §5, §7): its events with their delivery state, a
 * destination's delivery log, replay of one event or of every failed delivery in a time range, and
 * the "Send a test event" of the console. The console, the CLI (admin API) and the order pages all
 * call this one service.
 *
 * Replay never changes an event: its body, stored once when it was recorded, is delivered byte for
 * byte; replay only makes its delivery due now with a fresh retry schedule (the earlier attempts
 * stay in the log). Every replay is written to the audit log.
 */
import { AppError, type FieldIssue, validationError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import { newRowId } from '../../store/row-id.js';
import * as repo from '../../store/repos/callbacks-repo.js';
import * as logRepo from '../../store/repos/event-log-repo.js';
import { findOrg } from '../../store/repos/clients-repo.js';
import { type Actor, recordAudit } from '../console/audit.js';
import { DESTINATION_KINDS, type DestinationKind } from './destinations.js';
import { destinationKindOf, isEventKind, TEST_EVENT_KIND } from './events.js';
import { rowsPage } from '../shared/list-page.js';

export const DELIVERY_STATES = ['failed', 'pending', 'delivered'] as const;
export type DeliveryStateFilter = (typeof DELIVERY_STATES)[number];

/** The longest range `replayFailed` accepts in one call: a typo in a date should not re-send a year. */
export const REPLAY_RANGE_MAX_DAYS = 31;

export interface EventListQuery {
  orgId: string;
  type?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  delivery?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface EventView {
  event_id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  created_at: string;
  delivery_state: logRepo.DeliveryState;
  deliveries: number;
  reference: string | null;
}

export class EventLogService {
  constructor(private readonly deps: { db: Db }) {}

  /** Newest first; `next_cursor` is the last event's id when there may be more. */
  async list(q: EventListQuery): Promise<{ rows: EventView[]; next_cursor: string | null }> {
    const issues: FieldIssue[] = [];
    if (q.type !== undefined && q.type !== TEST_EVENT_KIND && !isEventKind(q.type)) issues.push({ field: 'type', issue: 'not an event type' });
    if (q.delivery !== undefined && !(DELIVERY_STATES as readonly string[]).includes(q.delivery)) issues.push({ field: 'delivery', issue: 'must be failed, pending or delivered' });
    if (q.cursor !== undefined && !isUuid(q.cursor)) issues.push({ field: 'cursor', issue: 'not a cursor of this list' });
    if (issues.length > 0) throw validationError(issues);
    if (!isUuid(q.orgId) || !(await findOrg(this.deps.db, q.orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
    // A list: from the standby while it is within REPLICA_MAX_LAG_MS (contract §10).
    const rows = await this.deps.db.replicaReads.read((r) =>
      logRepo.listEvents(r, {
        orgId: q.orgId,
        kind: q.type,
        from: q.from,
        to: q.to,
        state: q.delivery as DeliveryStateFilter | undefined,
        beforeId: q.cursor,
        limit: q.limit + 1,
      }),
    );
    return rowsPage(
      rows,
      q.limit,
      (r) => ({
        event_id: r.id,
        type: r.kind,
        aggregate_type: r.aggregate_type,
        aggregate_id: r.aggregate_id,
        created_at: r.created_at.toISOString(),
        delivery_state: r.delivery_state,
        deliveries: r.deliveries,
        reference: r.reference,
      }),
      (last) => last.id,
    );
  }

  /** One event of the organization: its exact body and every delivery with its attempts. */
  async show(orgId: string, eventId: string) {
    const event = isUuid(eventId) ? await repo.findEvent(this.deps.db, eventId) : null;
    if (!event || event.org_id !== orgId) throw new AppError('NOT_FOUND', 'No such event.');
    const { deliveries, attempts } = await repo.deliveriesOfEvent(this.deps.db, event.id);
    return {
      event_id: event.id,
      type: event.kind,
      body: event.body,
      deliveries: deliveries.map((d) => ({
        delivery_id: d.id,
        event_id: event.id,
        event: event.kind,
        target: d.target,
        status: d.status,
        attempts: attempts
          .filter((a) => a.delivery_id === d.id)
          .map((a) => ({
            attempt_no: a.attempt_no,
            status_code: a.status_code,
            latency_ms: a.latency_ms,
            error: a.error,
            response_snippet: a.response_snippet,
            attempted_at: a.attempted_at.toISOString(),
          })),
      })),
    };
  }

  /**
   * Replays one event: its deliveries (or only the one to `target`) due now with a fresh schedule,
   * plus one to a destination that subscribes to it but had none. `orgId` scopes it (the console:
   * another organization's event is "not found"); null for the operator.
   */
  async replay(input: { eventId: string; orgId: string | null; target?: string | undefined; actor: Actor }): Promise<{ event_id: string; requeued: number }> {
    const only = input.target;
    if (only !== undefined && only !== 'order' && !DESTINATION_KINDS.includes(only as DestinationKind)) {
      throw validationError([{ field: 'target', issue: 'must be payin, payout or order' }]);
    }
    return this.deps.db.tx(async (tx) => {
      const event = isUuid(input.eventId) ? await repo.findEvent(tx, input.eventId) : null;
      if (!event || (input.orgId !== null && event.org_id !== input.orgId)) throw new AppError('NOT_FOUND', 'No such event.');
      const target = event.kind === TEST_EVENT_KIND ? null : destinationKindOf(event.kind);
      const requeued = await repo.requeueEvent(tx, { eventId: event.id, orgId: event.org_id, kind: event.kind, target, only: only as repo.DeliveryTarget | undefined });
      await recordAudit(tx, input.actor, {
        orgId: event.org_id,
        action: 'event.replayed',
        targetType: 'event',
        targetId: event.id,
        after: { type: event.kind, requeued, ...(only ? { target: only } : {}) },
      });
      return { event_id: event.id, requeued };
    });
  }

  /** Replays every failed delivery of the organization's events created in [from, to). Audited. */
  async replayFailed(input: { orgId: string; from: Date; to: Date; actor: Actor }): Promise<{ events: number; deliveries: number }> {
    const { from, to } = input;
    if (!(from.getTime() < to.getTime())) throw validationError([{ field: 'to', issue: 'must be after from' }]);
    if (to.getTime() - from.getTime() > REPLAY_RANGE_MAX_DAYS * 86_400_000) {
      throw validationError([{ field: 'to', issue: `the range may span at most ${REPLAY_RANGE_MAX_DAYS} days` }]);
    }
    if (!isUuid(input.orgId) || !(await findOrg(this.deps.db, input.orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
    return this.deps.db.tx(async (tx) => {
      const r = await logRepo.requeueFailed(tx, { orgId: input.orgId, from, to });
      await recordAudit(tx, input.actor, {
        orgId: input.orgId,
        action: 'events.failed_replayed',
        targetType: 'event',
        targetId: null,
        after: { from: from.toISOString(), to: to.toISOString(), events: r.events, deliveries: r.deliveries },
      });
      return r;
    });
  }

  /** The deliveries to one destination, newest first, each with every attempt (status code, excerpt, time, duration). */
  async destinationLog(q: { orgId: string; kind: string; cursor?: string | undefined; limit: number }) {
    if (!DESTINATION_KINDS.includes(q.kind as DestinationKind)) throw validationError([{ field: 'kind', issue: 'must be payin or payout' }]);
    if (q.cursor !== undefined && !isUuid(q.cursor)) throw validationError([{ field: 'cursor', issue: 'not a cursor of this list' }]);
    const rows = await logRepo.destinationLog(this.deps.db, { orgId: q.orgId, kind: q.kind as DestinationKind, beforeId: q.cursor, limit: q.limit + 1 });
    return rowsPage(
      rows,
      q.limit,
      (d) => ({
        delivery_id: d.delivery_id,
        event_id: d.event_id,
        event: d.kind,
        status: d.status,
        created_at: d.created_at.toISOString(),
        attempts: d.attempt_log.map((a) => ({ ...a, attempted_at: new Date(a.attempted_at).toISOString() })),
      }),
      (last) => last.delivery_id,
    );
  }

  /**
   * "Send a test event": an event of type `test`, signed like any other, delivered only to this
   * destination (whatever it subscribes to, and even while it is disabled: it is how one checks a
   * repaired endpoint). Audited.
   */
  async sendTest(input: { orgId: string; kind: string; actor: Actor; now?: Date }): Promise<{ event_id: string; type: string }> {
    if (!DESTINATION_KINDS.includes(input.kind as DestinationKind)) throw validationError([{ field: 'kind', issue: 'must be payin or payout' }]);
    const kind = input.kind as DestinationKind;
    const id = newRowId();
    const now = input.now ?? new Date();
    const body = JSON.stringify({
      event: TEST_EVENT_KIND,
      event_id: id,
      created_at: now.toISOString(),
      data: { destination: kind, message: 'A test event sent from the Tijori console. No money moved; answer 2xx.' },
    });
    return this.deps.db.tx(async (tx) => {
      const made = await logRepo.insertTestEvent(tx, { id, orgId: input.orgId, kind, body, createdAt: now });
      if (!made) throw new AppError('NOT_FOUND', `No ${kind} destination is configured.`);
      await recordAudit(tx, input.actor, { orgId: input.orgId, action: 'destination.test_sent', targetType: 'destination', targetId: kind, after: { event_id: id } });
      return { event_id: id, type: TEST_EVENT_KIND };
    });
  }
}
