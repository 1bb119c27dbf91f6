/**
 * "Balances" (contract §9): per provider account, what the ledger holds — collected, refunded, the
 * provider's fees and taxes, settled into the bank, and still unsettled (`collections_receivable`)
 * — and collected against settled per day over the last 30 days, as a chart and as a table, for the
 * provider account chosen above the chart (or all of them together).
 * Figures come from the journal as `tijori ledger balances` prints them (no second computation).
 */
import { lazy, Suspense, useState } from 'react';
import { Loadable, useResource } from '../../data.js';
import { formatPaise } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { useTimeZone, zoneName } from '../../timezone.js';
import { AppLink, TableScroll } from '../money/links.js';
import type { LedgerDay } from './LedgerChart.js';
import { providerWords } from './words.js';
import type { Answer } from '../../wire.js';

const LedgerChart = lazy(() => import('./LedgerChart.js'));

export type Balances = Answer<'consoleLedgerBalances'>;
export type Figures = Balances['totals'];
type Account = Balances['accounts'][number];

const ROWS: Array<[keyof Figures, string]> = [
  ['collected_paise', 'Collected'],
  ['refunded_paise', 'Refunded'],
  ['fees_paise', 'Fees'],
  ['taxes_paise', 'Taxes (GST on fees)'],
  ['adjustments_paise', 'Adjustments'],
  ['settled_paise', 'Settled'],
  ['unsettled_paise', 'Unsettled'],
];

const DAILY_COLUMNS: Column<LedgerDay>[] = [
  { title: 'Day', cell: (d) => d.date },
  { title: 'Collected', cell: (d) => formatPaise(d.collected_paise), numeric: true },
  { title: 'Settled', cell: (d) => formatPaise(d.settled_paise), numeric: true },
];

function AccountCard({ title, f, testId }: { title: string; f: Figures; testId: string }) {
  return (
    <div className="figures" data-testid={testId}>
      <h3>{title}</h3>
      <dl>
        {ROWS.map(([k, label]) => (
          <div key={k} className="figure" data-figure={k}>
            <dt>{label}</dt>
            <dd>{formatPaise(f[k])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

const ALL = 'all';
const accountTitle = (a: Account): string => `${a.name} (${providerWords(a.provider)})`;

export function BalancesPage() {
  const zone = useTimeZone();
  const { data, error } = useResource<Balances>(`/balances?tz=${encodeURIComponent(zone)}`);
  // The chart is one provider account's (the page is per account): the first one until another is chosen.
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <>
      <h1>Balances</h1>
      <p className="hint">
        From the ledger, per provider account. Collected: payments confirmed; refunded: refunds completed; fees and taxes: what the provider charged in its
        settlements; settled: what it credited to your bank (net); unsettled: what it still holds for you (collected − refunded − what its settlements paid for). See{' '}
        <AppLink to="/settlements">Settlements</AppLink> for each credit and <AppLink to="/reconciliation">Reconciliation</AppLink> for where the provider and Tijori disagree.
      </p>
      <Loadable data={data} error={error}>
        {(data) => {
          const shown = chosen === ALL ? undefined : (data.accounts.find((a) => a.provider_account_id === chosen) ?? data.accounts[0]);
          const days = shown ? shown.daily : data.daily;
          const title = shown ? accountTitle(shown) : 'All accounts';
          // The table lists the days something moved (30 rows of zeros hide them, worst on a phone); the chart shows every day.
          const moved = days.filter((d) => d.collected_paise !== 0 || d.settled_paise !== 0);
          return (
            <>
              <section aria-labelledby="accounts-title">
                <h2 id="accounts-title">Provider accounts</h2>
                {data.accounts.length === 0 ? (
                  <p>No money in the ledger yet.</p>
                ) : (
                  <div className="figure-row accounts">
                    {data.accounts.map((a) => (
                      <AccountCard key={a.provider_account_id} title={accountTitle(a)} f={a} testId={`account-${a.provider_account_id}`} />
                    ))}
                    {data.accounts.length > 1 ? <AccountCard title="All accounts" f={data.totals} testId="account-totals" /> : null}
                  </div>
                )}
              </section>
              <section aria-labelledby="daily-title">
                <h2 id="daily-title">Collected against settled, last 30 days</h2>
                {data.accounts.length > 1 ? (
                  <p className="chart-account">
                    <label htmlFor="chart-account">Provider account</label>{' '}
                    <select id="chart-account" value={shown ? shown.provider_account_id : ALL} onChange={(e) => setChosen(e.target.value)}>
                      {data.accounts.map((a) => (
                        <option key={a.provider_account_id} value={a.provider_account_id}>
                          {accountTitle(a)}
                        </option>
                      ))}
                      <option value={ALL}>All accounts</option>
                    </select>
                  </p>
                ) : null}
                <p className="hint">
                  {title}. Days in {data.time_zone} ({zoneName(data.time_zone)}), up to today ({data.today}); a settlement counts on the day the provider settled it.{' '}
                  <span className="key collected">Collected</span> <span className="key settled">Settled</span>
                </p>
                <Suspense fallback={<p>Loading the chart…</p>}>
                  <LedgerChart days={days} label={title} />
                </Suspense>
                <details>
                  <summary>Daily figures (days with money moved)</summary>
                  <TableScroll label="Collected and settled per day">
                    <RowsTable columns={DAILY_COLUMNS} rows={moved} rowKey={(d) => d.date} alignTitles empty="Nothing collected or settled in these 30 days." />
                  </TableScroll>
                </details>
              </section>
            </>
          );
        }}
      </Loadable>
    </>
  );
}
