/** The refund as the merchant API and its events show it (contract §6), and its references. */
import type { RefundStatus } from '../../domain/refund.js';
import type { RefundWithOrder } from '../../store/repos/refunds-repo.js';
import { base32 } from '../payin/payment-order-view.js';

/** `RF` + the refund's UUID in Crockford base32: our reference, and the provider's idempotency key. */
export function refundIdFor(id: string): string {
  return `RF${base32(Buffer.from(id.replace(/-/g, ''), 'hex'))}`;
}

/** Contract §7: false for the sandbox provider. */
export function livemodeOf(provider: string): boolean {
  return provider !== 'sandbox';
}

/** A refund in answers and event payloads (contract §6); schemas/refunds.ts documents the same shape. */
export interface RefundView {
  id: string;
  refund_id: string;
  order_id: string;
  amount_paise: number;
  currency: 'INR';
  reason: string | null;
  status: RefundStatus;
  provider_reference: string | null;
  livemode: boolean;
  created_at: string;
  completed_at: string | null;
}

export function refundView(r: RefundWithOrder): RefundView {
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
