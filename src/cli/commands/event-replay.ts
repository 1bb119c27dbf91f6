/**
 * `tijori event replay --event ID` or `tijori event replay --org ORG --failed --from ISO --to ISO`
 * (contract §7): one event again, or every failed delivery of events created in a time range. The
 * body is the event's, byte for byte; the delivery gets a fresh retry schedule. Audited.
 */
import { optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const eventReplay: CliCommand = {
  name: 'event replay',
  summary: 'Delivers one event again, or every failed delivery of an organization in a time range.',
  flags: {
    event: { type: 'string', value: 'ID', help: 'the event to replay' },
    org: { type: 'string', value: 'ORG', help: 'with --failed: the organization (id)' },
    failed: { type: 'boolean', help: 'replay every failed delivery of events created in [--from, --to)' },
    from: { type: 'string', value: 'ISO', help: 'with --failed: start of the range (ISO 8601 with zone)' },
    to: { type: 'string', value: 'ISO', help: 'with --failed: end of the range (ISO 8601 with zone)' },
  },
  async run({ admin, flags }) {
    const event = optionalString(flags, 'event');
    if (event !== undefined) {
      if (flags.failed === true || optionalString(flags, 'org') !== undefined) throw new UsageError('give either --event ID, or --org ORG --failed --from ISO --to ISO');
      const r = await admin.request<{ event_id: string; requeued: number }>('POST', `/admin/events/${encodeURIComponent(event)}/replay`);
      return { json: { event_id: r.event_id, requeued: r.requeued }, text: `event ${r.event_id}: ${r.requeued} delivery(ies) re-queued, due now` };
    }
    if (flags.failed !== true) throw new UsageError('give either --event ID, or --org ORG --failed --from ISO --to ISO');
    const org = requireString(flags, 'org');
    const body = { from: requireString(flags, 'from'), to: requireString(flags, 'to') };
    const r = await admin.request<{ events: number; deliveries: number }>('POST', `/admin/orgs/${encodeURIComponent(org)}/events/replay-failed`, body);
    return {
      json: { org_id: org, from: body.from, to: body.to, events: r.events, deliveries: r.deliveries },
      text: `${r.deliveries} failed delivery(ies) of ${r.events} event(s) re-queued, due now`,
    };
  },
};
