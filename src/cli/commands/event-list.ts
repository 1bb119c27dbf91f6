/** `tijori event list --org ORG [--type T] [--from ISO] [--to ISO] [--delivery failed|pending|delivered]` (contract §7). */
import { optionalInt, optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface EventRow {
  event_id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  created_at: string;
  delivery_state: string;
  deliveries: number;
}

export const eventList: CliCommand = {
  name: 'event list',
  summary: "Lists an organization's events, newest first, with their delivery state.",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    type: { type: 'string', value: 'TYPE', help: 'only this event type (e.g. collection.received)' },
    from: { type: 'string', value: 'ISO', help: 'created at or after (ISO 8601 with zone)' },
    to: { type: 'string', value: 'ISO', help: 'created before (ISO 8601 with zone)' },
    delivery: { type: 'string', value: 'failed|pending|delivered', help: 'only events in this delivery state' },
    limit: { type: 'string', value: 'N', help: 'at most N events (1-500, default 100)' },
    cursor: { type: 'string', value: 'CURSOR', help: 'the next_cursor of the previous page' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const query = new URLSearchParams();
    for (const name of ['type', 'from', 'to', 'delivery', 'cursor']) {
      const v = optionalString(flags, name);
      if (v !== undefined) query.set(name, v);
    }
    const limit = optionalInt(flags, 'limit');
    if (limit !== undefined) query.set('limit', String(limit));
    const qs = query.toString();
    const page = await admin.request<{ events: EventRow[]; next_cursor: string | null }>('GET', `/admin/orgs/${encodeURIComponent(org)}/events${qs ? `?${qs}` : ''}`);
    const lines = page.events.map((e) => `${e.created_at}  ${e.event_id}  ${e.type.padEnd(28)} ${e.delivery_state}`);
    if (page.next_cursor) lines.push(`more: --cursor ${page.next_cursor}`);
    return { json: { events: page.events, next_cursor: page.next_cursor }, text: lines.length === 0 ? `no events in ${org}` : lines.join('\n') };
  },
};
