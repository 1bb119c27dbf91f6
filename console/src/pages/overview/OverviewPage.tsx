/**
 * "Overview": today's and this month's collections and payouts of the organization (count,
 * amount succeeded, success rate) and the month's daily amounts as charts. Days are the viewer's
 * calendar days: the browser's time zone is sent to the API (which defaults to Asia/Kolkata).
 */
import { lazy, Suspense } from 'react';
import { ErrorLine, Loading } from '../../components.js';
import { Loadable, useResource } from '../../data.js';
import { formatPaise } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { AppLink, TableScroll } from '../money/links.js';
import { useTimeZone, zoneName } from '../../timezone.js';
import type { Answer } from '../../wire.js';

const DailyChart = lazy(() => import('./DailyChart.js'));

type Totals = Flow['today'];
type Flow = Overview['collections'];
type Overview = Answer<'consoleOverview'>;

const rate = (r: number | null): string => (r === null ? '—' : `${(r * 100).toLocaleString('en-IN', { maximumFractionDigits: 1 })}%`);


function Figures({ title, t }: { title: string; t: Totals }) {
  return (
    <div className="figures">
      <h3>{title}</h3>
      <dl>
        <dt>Count</dt>
        <dd>{t.count.toLocaleString('en-IN')}</dd>
        {t.net_paise !== undefined ? (
          <>
            <dt>Net (collected − refunds)</dt>
            <dd>{formatPaise(t.net_paise)}</dd>
            <dt>Collected (gross)</dt>
            <dd>{formatPaise(t.amount_paise)}</dd>
            <dt>Refunded</dt>
            <dd>{formatPaise(t.refunded_paise ?? 0)}</dd>
          </>
        ) : (
          <>
            <dt>Paid out</dt>
            <dd>{formatPaise(t.amount_paise)}</dd>
          </>
        )}
        <dt>Pending</dt>
        <dd>{formatPaise(t.pending_amount_paise)}</dd>
        <dt>Failed</dt>
        <dd>{formatPaise(t.failed_amount_paise)}</dd>
        <dt>Success rate</dt>
        <dd>{rate(t.success_rate)}</dd>
      </dl>
    </div>
  );
}

const DAILY_COLUMNS: Column<Flow['daily'][number]>[] = [
  { title: 'Day', cell: (d) => d.date },
  { title: 'Count', cell: (d) => d.count, numeric: true },
  { title: 'Succeeded', cell: (d) => d.succeeded, numeric: true },
  { title: 'Failed', cell: (d) => d.failed, numeric: true },
  { title: 'Amount', cell: (d) => formatPaise(d.amount_paise), numeric: true },
];

function FlowSection({ id, title, flow, color, monthName }: { id: string; title: string; flow: Flow; color: string; monthName: string }) {
  return (
    <section className="flow" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="figure-row">
        <Figures title="Today" t={flow.today} />
        <Figures title="This month" t={flow.month} />
      </div>
      <h3>Daily amount, {monthName}</h3>
      <Suspense fallback={<p>Loading the chart…</p>}>
        <DailyChart days={flow.daily} label={`${title} succeeded per day`} color={color} />
      </Suspense>
      <details>
        <summary>Daily figures ({title.toLowerCase()})</summary>
        <TableScroll label={`Daily ${title.toLowerCase()}`}>
          <RowsTable columns={DAILY_COLUMNS} rows={flow.daily} rowKey={(d) => d.date} alignTitles />
        </TableScroll>
      </details>
    </section>
  );
}

/**
 * What the providers still hold for the merchant: the ledger's `collections_receivable` over every
 * provider account (the Balances page's "Unsettled", from the same answer).
 */
function Unsettled() {
  const { data, error } = useResource<{ totals: { unsettled_paise: number } }>('/balances');
  const paise = data?.totals.unsettled_paise ?? null;
  return (
    <section className="flow" aria-labelledby="unsettled-title">
      <h2 id="unsettled-title">Unsettled</h2>
      <ErrorLine error={error} />
      <p data-testid="overview-unsettled">
        {paise === null ? (error ? null : <Loading inline />) : <><strong>{formatPaise(paise)}</strong> collected and not yet settled to your bank by the providers. </>}
        <AppLink to="/balances">See Balances</AppLink>
      </p>
    </section>
  );
}

export function OverviewPage() {
  const zone = useTimeZone();
  const { data, error } = useResource<Overview>(`/overview?tz=${encodeURIComponent(zone)}`);

  const monthName = data ? new Date(`${data.month}-01T12:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';
  return (
    <>
      <h1>Overview</h1>
      <Loadable data={data} error={error}>
        {(data) => (
          <>
            <p className="hint">
              Today is {data.today} in {data.time_zone} ({zoneName(data.time_zone)}); days run midnight to midnight there (change it with Time zone at the top). Collected and paid out: what succeeded (collections paid, payouts credited); net takes off refunds completed in the period; pending: still open; failed: finished without money moving. Success rate: succeeded of those finished; open ones wait.
            </p>
            <Unsettled />
            <FlowSection id="collections" title="Collections" flow={data.collections} color="#0b5cad" monthName={monthName} />
            <FlowSection id="payouts" title="Payouts" flow={data.payouts} color="#1a7f37" monthName={monthName} />
          </>
        )}
      </Loadable>
    </>
  );
}
