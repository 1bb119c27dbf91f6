/**
 * "Beneficiaries": the organization's saved beneficiaries, newest first, masked (last four digits
 * only), IFSC with the bank's name, the API client that saved each; "Search" by name, last four
 * digits, IFSC or id; "Previous"/"Next" over the API's keyset cursors.
 */
import { type FormEvent, useState } from 'react';
import { Time } from '../components.js';
import { Loadable } from '../data.js';
import { byId, type Column, RowsTable } from './columns.js';
import { Pager, useCursorPages } from './CursorPages.js';
import { TableScroll } from './money/links.js';
import type { RowOf } from '../wire.js';

type Beneficiary = RowOf<'consoleListBeneficiaries'>;

const PAGE_SIZE = 25;

const COLUMNS: Column<Beneficiary>[] = [
  { title: 'Name', cell: (b) => b.name },
  { title: 'Account', cell: (b) => <code title={`account number ending ${b.account_number_last4}`}>••{b.account_number_last4}</code> },
  { title: 'IFSC', cell: (b) => <code>{b.ifsc}</code> },
  { title: 'Bank', cell: (b) => b.bank_name },
  { title: 'Saved by', cell: (b) => (b.saved_by ? <code title={b.saved_by.name ?? undefined}>{b.saved_by.client_id}</code> : '—') },
  { title: 'Status', cell: (b) => b.status },
  { title: 'Saved', cell: (b) => <Time iso={b.created_at} /> },
];

export function BeneficiariesPage() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (search) params.set('search', search);
  const { rows, error, pager, restart } = useCursorPages<Beneficiary>('/beneficiaries', params.toString());

  function apply(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (text.trim()) next.set('search', text.trim());
    setSearch(text.trim());
    restart(next.toString());
  }

  return (
    <>
      <h1>Beneficiaries</h1>
      <p className="hint">Bank accounts your API clients have paid out to. Account numbers are shown by their last four digits only.</p>
      <form className="filters" onSubmit={apply} role="search" aria-label="Filter beneficiaries">
        <div>
          <label htmlFor="beneficiaries-search">Search</label>
          <input id="beneficiaries-search" type="search" value={text} placeholder="name, last 4 digits, IFSC" onChange={(e) => setText(e.target.value)} spellCheck={false} />
        </div>
        <button type="submit">Apply</button>
      </form>
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No beneficiaries match.</p>
          ) : (
            <TableScroll label="Beneficiaries">
              <RowsTable columns={COLUMNS} rows={rows} rowKey={byId} />
            </TableScroll>
          )
        }
      </Loadable>
      <Pager label="Pages of beneficiaries" pager={pager} />
    </>
  );
}
