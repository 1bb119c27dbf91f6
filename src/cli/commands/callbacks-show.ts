/** `tijori callbacks show EVENT_ID`: the deliveries of one event and every attempt. */
import type { CliCommand } from '../command.js';

interface Delivery {
  target: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  attempt_log: Array<{ attempt: number; at: string; status_code: number | null; latency_ms: number; error: string | null }>;
}

function describe(eventId: string, deliveries: Delivery[]): string {
  if (deliveries.length === 0) return `event ${eventId}: no deliveries (no destination applied when it was recorded)`;
  const lines = [`event ${eventId}:`];
  for (const d of deliveries) {
    lines.push(`  ${d.target}: ${d.status}, ${d.attempts} attempt(s)${d.next_attempt_at ? `, next at ${d.next_attempt_at}` : ''}`);
    for (const a of d.attempt_log) lines.push(`    #${a.attempt} ${a.at} ${a.status_code ?? '-'} ${a.latency_ms} ms${a.error ? ` ${a.error}` : ''}`);
  }
  return lines.join('\n');
}

export const callbacksShow: CliCommand = {
  name: 'callbacks show',
  summary: 'Shows the deliveries of one event and every attempt with its answer.',
  args: [{ name: 'EVENT_ID', help: 'the event (evt_...)' }],
  async run({ admin, args }) {
    const r = await admin.request<{ event_id: string; deliveries: Delivery[] }>('GET', `/admin/events/${encodeURIComponent(args[0] as string)}/deliveries`);
    return { json: { event_id: r.event_id, deliveries: r.deliveries }, text: describe(r.event_id, r.deliveries) };
  },
};
