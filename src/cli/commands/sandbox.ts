/**
 * `tijori sandbox pay ORDER [--utr UTR] [--no-callback]`, `tijori sandbox fail ORDER [--no-callback]`
 * and `tijori sandbox stats` (contract §2). The service only forwards to the sandbox PSP, which
 * decides the collection like a payer's bank would; the order changes through the sandbox's
 * callback (or, with --no-callback, the next status check).
 */
import { CliError } from '../admin-client.js';
import { optionalString } from '../args.js';
import type { CliCommand } from '../registry.js';

interface Decided {
  id: string;
  order_id: string;
  callback: boolean;
  collection: { status: string; utr: string | null; paid_at: string | null; failure_reason: string | null };
}

const USAGE = 'usage: tijori sandbox pay ORDER [--utr UTR] [--no-callback] | fail ORDER [--no-callback] | stats';

export const sandboxCommand: CliCommand = {
  group: 'sandbox',
  usage: 'sandbox pay ORDER [--utr UTR] [--no-callback] | sandbox fail ORDER [--no-callback] | sandbox stats',
  async run({ admin, sub, args, flags }) {
    const callback = flags['no-callback'] !== true;
    if (sub === 'stats') {
      const s = await admin.request<{ payin_status_checks: Record<string, number>; payout_executions: Record<string, number>; refund_executions: Record<string, number> }>(
        'GET',
        '/admin/sandbox/stats',
      );
      const json = { payin_status_checks: s.payin_status_checks ?? {}, payout_executions: s.payout_executions ?? {}, refund_executions: s.refund_executions ?? {} };
      return { json, text: JSON.stringify(json, null, 2) };
    }
    if (sub !== 'pay' && sub !== 'fail') throw new CliError(USAGE);
    const order = args[0];
    if (!order) throw new CliError(`ORDER is required\n${USAGE}`);
    const utr = optionalString(flags, 'utr');
    if (sub === 'fail' && utr) throw new CliError('--utr applies to pay only');
    const body = sub === 'pay' ? { callback, ...(utr ? { utr } : {}) } : { callback };
    const d = await admin.request<Decided>('POST', `/admin/sandbox/payment-orders/${encodeURIComponent(order)}/${sub}`, body);
    const json = { id: d.id, order_id: d.order_id, status: d.collection.status, utr: d.collection.utr, callback: d.callback };
    const text =
      d.collection.status === 'SUCCESS'
        ? `sandbox paid ${d.order_id} (UTR ${d.collection.utr})${callback ? '; callback sent to the service' : '; no callback (the status API knows)'}`
        : `sandbox failed ${d.order_id}${callback ? '; callback sent to the service' : '; no callback (the status API knows)'}`;
    return { json, text };
  },
};
