/** The two refund events (API §6.3): `collection.refund.requested` and `collection.refund.completed`. */
import type { PaymentOrderRow } from '../../store/repos/payment-orders-repo.js';
import type { RefundWithOrder } from '../../store/repos/refunds-repo.js';
import type { EventInput } from '../callbacks/events.js';
import { callbackSecretContext } from '../payin/payment-order-secrets.js';
import { refundView } from './refund-view.js';

/**
 * Data: the refund as the API shows it, plus the order's merchant_order_reference. Delivered to the
 * organization's PayIn destination and to the order's own callback_url, like the order's events.
 */
export function refundEvent(kind: 'collection.refund.requested' | 'collection.refund.completed', r: RefundWithOrder, order: PaymentOrderRow): EventInput {
  return {
    orgId: r.org_id,
    kind,
    aggregateType: 'payment_order',
    aggregateId: order.id,
    data: { ...refundView(r), merchant_order_reference: order.merchant_order_reference },
    extraDestination:
      order.callback_url && order.callback_secret_enc ? { url: order.callback_url, secretEnc: order.callback_secret_enc, secretContext: callbackSecretContext(order.id) } : null,
  };
}
