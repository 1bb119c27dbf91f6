/**
 * "Overview": today's and this month's collections and payouts of the organization (count,
 * amount succeeded, success rate) and the month's daily amounts as charts. Days are the viewer's
 * calendar days: the browser's time zone is sent to the API (which defaults to Asia/Kolkata).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { api, describe } from '../../api.js';
import { ErrorLine } from '../../components.js';
import { formatPaise } from '../../format.js';
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
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="num">Count</th>
                <th scope="col" className="num">Succeeded</th>
                <th scope="col" className="num">Failed</th>
                <th scope="col" className="num">Amount</th>
              </tr>
            </thead>
            <tbody>
              {flow.daily.map((d) => (
                <tr key={d.date}>
                  <td>{d.date}</td>
                  <td className="num">{d.count}</td>
                  <td className="num">{d.succeeded}</td>
                  <td className="num">{d.failed}</td>
                  <td className="num">{formatPaise(d.amount_paise)}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
  const [paise, setPaise] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api<{ totals: { unsettled_paise: number } }>('GET', '/balances').then(
      (b) => live && setPaise(b.totals.unsettled_paise),
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="flow" aria-labelledby="unsettled-title">
      <h2 id="unsettled-title">Unsettled</h2>
      <ErrorLine error={error} />
      <p data-testid="overview-unsettled">
        {paise === null ? (error ? null : 'Loading…') : <><strong>{formatPaise(paise)}</strong> collected and not yet settled to your bank by the providers. </>}
        <AppLink to="/balances">See Balances</AppLink>
      </p>
    </section>
  );
}

export function OverviewPage() {
  const [data, setData] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const zone = useTimeZone();

  useEffect(() => {
    let live = true;
    setData(null);
    api<Overview>('GET', `/overview?tz=${encodeURIComponent(zone)}`).then(
      (o) => live && setData(o),
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, [zone]);

  const monthName = data ? new Date(`${data.month}-01T12:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';
  return (
    <>
      <h1>Overview</h1>
      <ErrorLine error={error} />
      {data === null ? (
        error ? null : <p>Loading…</p>
      ) : (
        <>
          <p className="hint">
            Today is {data.today} in {data.time_zone} ({zoneName(data.time_zone)}); days run midnight to midnight there (change it with Time zone at the top). Collected and paid out: what succeeded (collections paid, payouts credited); net takes off refunds completed in the period; pending: still open; failed: finished without money moving. Success rate: succeeded of those finished; open ones wait.
          </p>
          <Unsettled />
          <FlowSection id="collections" title="Collections" flow={data.collections} color="#0b5cad" monthName={monthName} />
          <FlowSection id="payouts" title="Payouts" flow={data.payouts} color="#1a7f37" monthName={monthName} />
        </>
      )}
    </>
  );
}
