/** "Payment orders": the organization's collections, newest first, searched by any reference. */
import { Status, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { AppLink, dash } from './links.js';
import type { Column } from '../columns.js';
import { MoneyList } from './MoneyList.js';
import type { RowOf } from '../../wire.js';
import { PAYMENT_ORDER_STATUSES } from '../../generated/server.js';

export const ORDER_STATUSES = PAYMENT_ORDER_STATUSES;

type OrderRow = RowOf<'consoleListPaymentOrders'>;

const columns: Column<OrderRow>[] = [
  { title: 'Created', cell: (o) => <Time iso={o.created_at} /> },
  { title: 'Order', cell: (o) => <AppLink to={`/payment-orders/${o.id}`}><code>{o.order_id}</code></AppLink> },
  { title: 'Your reference', cell: (o) => dash(o.merchant_order_reference) },
  { title: 'Amount', cell: (o) => formatPaise(o.amount_paise), numeric: true },
  { title: 'Status', cell: (o) => <Status status={o.status} /> },
  { title: 'UTR', cell: (o) => dash(o.utr) },
];

export function PaymentOrdersPage() {
  return (
    <MoneyList<OrderRow>
      title="Payment orders"
      endpoint="/payment-orders"
      noun="orders"
      statuses={ORDER_STATUSES}
      columns={columns}
      searchHint="order_id, your reference, UTR"
    />
  );
}
