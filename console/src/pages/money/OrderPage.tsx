/** One payment order: its facts, every state move with time and cause, its provider checks, its refunds, its callbacks. */
import { Status, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { Callbacks } from './Callbacks.js';
import { AppLink, dash } from './links.js';
import { OrderRefunds } from './OrderRefunds.js';
import { OrderProviderChecks } from './ProviderChecks.js';
import { TableSection } from './TableSection.js';
import { Loadable, useResource } from '../../data.js';
import type { Column } from '../columns.js';
import { ProviderAnomalies } from '../ProviderAnomalies.js';
import type { Answer } from '../../wire.js';

type OrderDetail = Answer<'consoleGetPaymentOrder'>;

type StateMove = OrderDetail['history'][number];

const MOVE_COLUMNS: Column<StateMove>[] = [
  { title: 'When', cell: (h) => <Time iso={h.at} /> },
  { title: 'From', cell: (h) => dash(h.from_status) },
  { title: 'To', cell: (h) => h.to_status },
  { title: 'Cause', cell: (h) => h.cause },
  { title: 'Detail', cell: (h) => (h.detail === null ? '—' : JSON.stringify(h.detail)), wrap: true },
];

export function OrderPage({ id }: { id: string }) {
  const { data, error } = useResource<OrderDetail>(`/payment-orders/${encodeURIComponent(id)}`);
  return (
    <>
      <p>
        <AppLink to="/payment-orders">← Payment orders</AppLink>
      </p>
      <h1>Payment order {data ? <code>{data.order.order_id}</code> : null}</h1>
      <Loadable data={data} error={error}>
        {(data) => (
          <>
            <dl className="facts">
              <dt>Amount</dt>
              <dd>{formatPaise(data.order.amount_paise)}</dd>
              <dt>Status</dt>
              <dd>
                <Status status={data.order.status} /> (provider: {data.order.provider_status})
              </dd>
              <dt>Payer</dt>
              <dd>
                {data.payer && (data.payer.name || data.payer.email || data.payer.phone)
                  ? [data.payer.name, data.payer.email, data.payer.phone].filter(Boolean).join(' · ') + (data.payer.masked ? ' (masked for your role)' : '')
                  : '—'}
              </dd>
              <dt>Your reference</dt>
              <dd>{dash(data.order.merchant_order_reference)}</dd>
              <dt>UTR</dt>
              <dd>{dash(data.order.utr)}</dd>
              <dt>Purpose</dt>
              <dd>{data.order.purpose}</dd>
              <dt>Mode</dt>
              <dd>
                {data.order.response_mode}
                {data.order.livemode ? '' : ' (sandbox)'}
              </dd>
              <dt>Created</dt>
              <dd>
                <Time iso={data.order.created_at} />
              </dd>
              <dt>Confirmed</dt>
              <dd>{data.order.confirmed_at ? <Time iso={data.order.confirmed_at} /> : '—'}</dd>
              <dt>Settlement</dt>
              <dd>
                {data.order.settlement ? (
                  <>
                    <code>{data.order.settlement.settlement_id}</code>, UTR {dash(data.order.settlement.utr)}, settled <Time iso={data.order.settlement.settled_at} />
                  </>
                ) : (
                  'Not settled yet'
                )}
              </dd>
              <dt>Id</dt>
              <dd>
                <code>{data.order.id}</code>
              </dd>
            </dl>
            {/* A state move has no id; the history never reorders, so its place keys it. */}
            <TableSection id="history-title" title="State moves" columns={MOVE_COLUMNS} rows={data.history} rowKey={(_, i) => i} />
            <OrderProviderChecks orderRef={data.order.id} />
            <OrderRefunds refunds={data.refunds} order={data.order} />
            <ProviderAnomalies id="order" query={`payment_order=${encodeURIComponent(data.order.order_id)}`} title="Provider anomalies" />
            <Callbacks deliveries={data.callbacks} />
          </>
        )}
      </Loadable>
    </>
  );
}
