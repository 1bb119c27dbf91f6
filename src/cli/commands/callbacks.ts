/** `tijori callbacks replay EVENT_ID` (contract §2) and `tijori callbacks show EVENT_ID`. */
import type { CliCommand } from '../registry.js';
import { CliError } from '../admin-client.js';

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

export const callbacksCommand: CliCommand = {
  group: 'callbacks',
  usage: 'callbacks replay|show EVENT_ID',
  async run({ admin, sub, args }) {
    const eventId = args[0];
    if ((sub !== 'replay' && sub !== 'show') || !eventId || args.length !== 1) throw new CliError(`usage: tijori ${this.usage} [--json]`);
    const path = `/admin/events/${encodeURIComponent(eventId)}`;
    if (sub === 'replay') {
      const r = await admin.request<{ event_id: string; requeued: number }>('POST', `${path}/replay`);
      return { json: { event_id: r.event_id, requeued: r.requeued }, text: `event ${r.event_id}: ${r.requeued} delivery(ies) re-queued, due now` };
    }
    const r = await admin.request<{ event_id: string; deliveries: Delivery[] }>('GET', `${path}/deliveries`);
    return { json: { event_id: r.event_id, deliveries: r.deliveries }, text: describe(r.event_id, r.deliveries) };
  },
};
