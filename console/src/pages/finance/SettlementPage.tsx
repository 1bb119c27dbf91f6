/**
 * One settlement's page (contract §9): its totals, then its lines — each payment, refund,
 * adjustment or chargeback with its fee, tax and net, the order or refund it was matched to (a
 * link to the order's page) and the match in words — in pages, and its lines as a CSV file.
 */
import { ErrorLine, Time } from '../../components.js';
import { formatPaise, words } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { Pager, useCursorPages } from '../CursorPages.js';
import { AppLink, dash, TableScroll } from '../money/links.js';
import { Loadable, useResource } from '../../data.js';
import type { Settlement } from './SettlementsPage.js';
import { matchWords, providerWords } from './words.js';
import type { RowOf } from '../../wire.js';

type Line = RowOf<'consoleListSettlementLines'>;

const orderLink = (orderId: string | null, text: string) => (orderId ? <AppLink to={`/payment-orders/${encodeURIComponent(orderId)}`}><code>{text}</code></AppLink> : <code>{text}</code>);

const COLUMNS: Column<Line>[] = [
  { title: 'Type', cell: (l) => words(l.type) },
  {
    title: 'Order or refund',
    cell: (l) => (l.refund_id ? <>Refund {orderLink(l.order_id, l.refund_id)}</> : l.order_id ? orderLink(l.order_id, l.order_id) : '—'),
  },
  { title: 'Provider payment id', cell: (l) => <code>{dash(l.provider_payment_id)}</code> },
  { title: 'Amount', numeric: true, cell: (l) => formatPaise(l.amount_paise) },
  { title: 'Fee', numeric: true, cell: (l) => formatPaise(l.fee_paise) },
  { title: 'Tax', numeric: true, cell: (l) => formatPaise(l.tax_paise) },
  { title: 'Net', numeric: true, cell: (l) => formatPaise(l.net_paise) },
  { title: 'Match', cell: (l) => <span className={l.match === 'MATCHED' ? undefined : 'warn'}>{matchWords(l.match)}</span> },
];

export function SettlementPage({ id }: { id: string }) {
  const { data: s, error } = useResource<Settlement>(`/settlements/${encodeURIComponent(id)}`);
  const { rows, error: linesError, pager } = useCursorPages<Line>(`/settlements/${encodeURIComponent(id)}/lines`, 'limit=50');
  return (
    <>
      <p>
        <AppLink to="/settlements">← Settlements</AppLink>
      </p>
      <h1>Settlement {s ? dash(s.utr ?? s.provider_settlement_id) : ''}</h1>
      <ErrorLine error={error} />
      {s ? (
        <div className="figures">
          <dl>
            <dt>Settled at</dt>
            <dd><Time iso={s.settled_at} /></dd>
            <dt>Provider account</dt>
            <dd>{s.provider_account_name} ({providerWords(s.provider)})</dd>
            <dt>Provider's settlement id</dt>
            <dd><code>{s.provider_settlement_id}</code></dd>
            <dt>Gross</dt>
            <dd>{formatPaise(s.gross_paise)}</dd>
            <dt>Fees</dt>
            <dd>{formatPaise(s.fees_paise)}</dd>
            <dt>Tax</dt>
            <dd>{formatPaise(s.tax_paise)}</dd>
            <dt>Refunds deducted</dt>
            <dd>{formatPaise(s.refunds_paise)}</dd>
            <dt>Adjustments</dt>
            <dd>{formatPaise(s.adjustments_paise)}</dd>
            <dt>Net to your bank</dt>
            <dd>{formatPaise(s.net_paise)}</dd>
            <dt>Breaks</dt>
            <dd>{s.breaks === 0 ? 'None' : <AppLink to="/reconciliation">{`${s.breaks} (${s.open_breaks} open)`}</AppLink>}</dd>
          </dl>
        </div>
      ) : null}
      <h2>Lines{s ? ` (${s.lines})` : ''}</h2>
      <p className="export">
        <a href={`/console/api/settlements/${encodeURIComponent(id)}/lines/export`} download>
          Export lines as CSV
        </a>
      </p>
      <Loadable data={rows} error={linesError}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No lines.</p>
          ) : (
            <TableScroll label="Settlement lines">
              <RowsTable columns={COLUMNS} rows={rows} rowKey={(l) => l.line_id} alignTitles />
            </TableScroll>
          )
        }
      </Loadable>
      <Pager label="Pages of lines" pager={pager} />
    </>
  );
}
