/**
 * "Balances" (contract §9): per provider account, what the ledger holds — collected, refunded, the
 * provider's fees and taxes, settled into the bank, and still unsettled (`collections_receivable`)
 * — and collected against settled per day over the last 30 days, as a chart and as a table.
 * Figures come from the journal as `tijori ledger balances` prints them (no second computation).
 */
import { lazy, Suspense, useCallback } from 'react';
import { api } from '../../api.js';
import { ErrorLine } from '../../components.js';
import { formatPaise } from '../../format.js';
import { useTimeZone, zoneName } from '../../timezone.js';
import { AppLink, TableScroll } from '../money/links.js';
import { useRead } from '../useRead.js';
import { providerWords } from './words.js';
import type { Answer } from '../../wire.js';

const LedgerChart = lazy(() => import('./LedgerChart.js'));

export type Figures = Balances['totals'];
export type Balances = Answer<'consoleLedgerBalances'>;

const ROWS: Array<[keyof Figures, string]> = [
  ['collected_paise', 'Collected'],
  ['refunded_paise', 'Refunded'],
  ['fees_paise', 'Fees'],
  ['taxes_paise', 'Taxes (GST on fees)'],
  ['adjustments_paise', 'Adjustments'],
  ['settled_paise', 'Settled'],
  ['unsettled_paise', 'Unsettled'],
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

export function BalancesPage() {
  const zone = useTimeZone();
  const { data, error } = useRead(useCallback(() => api<Balances>('GET', `/balances?tz=${encodeURIComponent(zone)}`), [zone]));
  // The table lists the days something moved (30 rows of zeros hide them, worst on a phone); the chart shows every day.
  const moved = data?.daily.filter((d) => d.collected_paise !== 0 || d.settled_paise !== 0) ?? [];
  return (
    <>
      <h1>Balances</h1>
      <p className="hint">
        From the ledger, per provider account. Collected: payments confirmed; refunded: refunds completed; fees and taxes: what the provider charged in its
        settlements; settled: what it credited to your bank (net); unsettled: what it still holds for you (collected − refunded − what its settlements paid for). See{' '}
        <AppLink to="/settlements">Settlements</AppLink> for each credit and <AppLink to="/reconciliation">Reconciliation</AppLink> for where the provider and Tijori disagree.
      </p>
      <ErrorLine error={error} />
      {data === null ? (
        error ? null : <p>Loading…</p>
      ) : (
        <>
          <section aria-labelledby="accounts-title">
            <h2 id="accounts-title">Provider accounts</h2>
            {data.accounts.length === 0 ? (
              <p>No money in the ledger yet.</p>
            ) : (
              <div className="figure-row accounts">
                {data.accounts.map((a) => (
                  <AccountCard key={a.provider_account_id} title={`${a.name} (${providerWords(a.provider)})`} f={a} testId={`account-${a.provider_account_id}`} />
                ))}
                {data.accounts.length > 1 ? <AccountCard title="All accounts" f={data.totals} testId="account-totals" /> : null}
              </div>
            )}
          </section>
          <section aria-labelledby="daily-title">
            <h2 id="daily-title">Collected against settled, last 30 days</h2>
            <p className="hint">
              Days in {data.time_zone} ({zoneName(data.time_zone)}), up to today ({data.today}); a settlement counts on the day the provider settled it.{' '}
              <span className="key collected">Collected</span> <span className="key settled">Settled</span>
            </p>
            <Suspense fallback={<p>Loading the chart…</p>}>
              <LedgerChart days={data.daily} />
            </Suspense>
            <details>
              <summary>Daily figures (days with money moved)</summary>
              <TableScroll label="Collected and settled per day">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      <th scope="col" className="num">Collected</th>
                      <th scope="col" className="num">Settled</th>
                    </tr>
                  </thead>
                  <tbody>
                    {moved.length === 0 ? (
                      <tr>
                        <td colSpan={3}>Nothing collected or settled in these 30 days.</td>
                      </tr>
                    ) : null}
                    {moved.map((d) => (
                      <tr key={d.date}>
                        <td>{d.date}</td>
                        <td className="num">{formatPaise(d.collected_paise)}</td>
                        <td className="num">{formatPaise(d.settled_paise)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </details>
          </section>
        </>
      )}
    </>
  );
}
