/** The refund as the merchant API and its events show it (contract §6), and its references. */
import type { RefundWithOrder } from '../store/repos/refunds-repo.js';
import { base32 } from './payment-order-view.js';

/** `RF` + the refund's UUID in Crockford base32: our reference, and the provider's idempotency key. */
export function refundIdFor(id: string): string {
  return `RF${base32(Buffer.from(id.replace(/-/g, ''), 'hex'))}`;
}

/** Contract §7: false for the sandbox provider. */
export function livemodeOf(provider: string): boolean {
  return provider !== 'sandbox';
}

export function refundView(r: RefundWithOrder): Record<string, unknown> {
  return {
    id: r.id,
    refund_id: r.refund_id,
    order_id: r.order_id,
    amount_paise: r.amount_paise,
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    provider_reference: r.provider_reference,
    livemode: r.livemode,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}
