/** `tijori callbacks replay EVENT_ID` (contract §2). */
import type { CliCommand } from '../command.js';

export const callbacksReplay: CliCommand = {
  name: 'callbacks replay',
  summary: 'Re-queues delivery of one event to every destination it applies to, due now.',
  args: [{ name: 'EVENT_ID', help: 'the event (evt_...)' }],
  async run({ admin, args }) {
    const r = await admin.request<{ event_id: string; requeued: number }>('POST', `/admin/events/${encodeURIComponent(args[0] as string)}/replay`);
    return { json: { event_id: r.event_id, requeued: r.requeued }, text: `event ${r.event_id}: ${r.requeued} delivery(ies) re-queued, due now` };
  },
};
