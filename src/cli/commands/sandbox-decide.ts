/**
 * What `tijori sandbox pay` and `sandbox fail` share: the service only forwards to the sandbox PSP,
 * which decides the collection like a payer's bank would; the order changes through the sandbox's
 * callback (or, with --no-callback, the next status check).
 */
import type { AdminClient } from '../admin-client.js';
import type { CommandResult } from '../command.js';

interface Decided {
  id: string;
  order_id: string;
  callback: boolean;
  collection: { status: string; utr: string | null; paid_at: string | null; failure_reason: string | null };
}

export const ORDER_ARG = { name: 'ORDER', help: "the payment order's id or order_id" };
export const NO_CALLBACK_FLAG = {
  type: 'boolean',
  help: "do not send the sandbox's provider callback; only its status API knows",
} as const;

export async function decide(admin: AdminClient, order: string, how: 'pay' | 'fail', body: { callback: boolean; utr?: string }): Promise<CommandResult> {
  const d = await admin.request<Decided>('POST', `/admin/sandbox/payment-orders/${encodeURIComponent(order)}/${how}`, body);
  const json = { id: d.id, order_id: d.order_id, status: d.collection.status, utr: d.collection.utr, callback: d.callback };
  const tail = body.callback ? '; callback sent to the service' : '; no callback (the status API knows)';
  const text = d.collection.status === 'SUCCESS' ? `sandbox paid ${d.order_id} (UTR ${d.collection.utr})${tail}` : `sandbox failed ${d.order_id}${tail}`;
  return { json, text };
}
