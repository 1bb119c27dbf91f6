/**
 * "Settlements" (contract §9): every credit a provider made to the merchant's bank, newest settled
 * first, in pages over the API's keyset cursors, with its totals (net = gross − fees − tax −
 * refunds − adjustments), line and break counts; a row opens the settlement's lines; "Export CSV"
 * downloads every settlement (a dated file).
 */
import { Time } from '../../components.js';
import { Loadable } from '../../data.js';
import { formatPaise } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { Pager, useCursorPages } from '../CursorPages.js';
import { AppLink, dash, TableScroll } from '../money/links.js';
import { providerWords } from './words.js';
import type { RowOf } from '../../wire.js';

export type Settlement = RowOf<'consoleListSettlements'>;

const money = (k: keyof Settlement, title: string): Column<Settlement> => ({ title, numeric: true, cell: (s) => formatPaise(s[k] as number) });

const COLUMNS: Column<Settlement>[] = [
  { title: 'Settled at', cell: (s) => <Time iso={s.settled_at} /> },
  { title: 'Provider account', cell: (s) => `${s.provider_account_name} (${providerWords(s.provider)})` },
  {
    title: 'UTR',
    cell: (s) => (
      <AppLink to={`/settlements/${s.settlement_id}`} label={`Settlement ${s.utr ?? s.provider_settlement_id}`}>
        <code>{dash(s.utr ?? s.provider_settlement_id)}</code>
      </AppLink>
    ),
  },
  money('gross_paise', 'Gross'),
  money('fees_paise', 'Fees'),
  money('tax_paise', 'Tax'),
  money('refunds_paise', 'Refunds'),
  money('adjustments_paise', 'Adjustments'),
  money('net_paise', 'Net'),
  { title: 'Lines', numeric: true, cell: (s) => s.lines },
  { title: 'Breaks', numeric: true, cell: (s) => (s.breaks === 0 ? '0' : `${s.breaks} (${s.open_breaks} open)`) },
];

export function SettlementsPage() {
  const { rows, error, pager } = useCursorPages<Settlement>('/settlements', 'limit=25');
  return (
    <>
      <h1>Settlements</h1>
      <p className="hint">
        Each row is one credit of a provider to your bank. Net = gross − fees − tax − refunds − adjustments. Open a settlement (its UTR) for its lines; breaks are on{' '}
        <AppLink to="/reconciliation">Reconciliation</AppLink>.
      </p>
      <p className="export">
        {/* The API streams every settlement (not only this page); the session cookie goes with it. */}
        <a href="/console/api/settlements/export" download>
          Export CSV
        </a>
      </p>
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No settlements yet. They are fetched from each provider every hour (and by `tijori settlements sync`).</p>
          ) : (
            <TableScroll label="Settlements">
              <RowsTable columns={COLUMNS} rows={rows} rowKey={(s) => s.settlement_id} alignTitles />
            </TableScroll>
          )
        }
      </Loadable>
      <Pager label="Pages of settlements" pager={pager} />
    </>
  );
}
