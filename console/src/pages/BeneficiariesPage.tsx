/**
 * "Beneficiaries": the organization's saved beneficiaries, newest first, masked (last four digits
 * only), IFSC with the bank's name, the API client that saved each; "Search" by name, last four
 * digits, IFSC or id; "Previous"/"Next" over the API's keyset cursors.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { apiPage, describe } from '../api.js';
import { ErrorLine, Time } from '../components.js';
import { TableScroll } from './money/links.js';

interface Beneficiary {
  id: string;
  name: string;
  account_number_last4: string;
  ifsc: string;
  bank_name: string;
  status: string;
  saved_by: { client_id: string; name: string | null } | null;
  created_at: string;
}

const PAGE_SIZE = 25;

export function BeneficiariesPage() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [rows, setRows] = useState<Beneficiary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1] ?? null;

  useEffect(() => {
    let live = true;
    setRows(null);
    setError(null);
    const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (search) q.set('search', search);
    if (cursor) q.set('cursor', cursor);
    apiPage<Beneficiary>(`/beneficiaries?${q.toString()}`).then(
      (p) => {
        if (!live) return;
        setRows(p.rows);
        setNext(p.next);
      },
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, [search, cursor]);

  function apply(e: FormEvent) {
    e.preventDefault();
    setSearch(text.trim());
    setCursors([null]);
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
      <ErrorLine error={error} />
      {rows === null ? (
        error ? null : <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No beneficiaries match.</p>
      ) : (
        <TableScroll label="Beneficiaries">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Account</th>
                <th scope="col">IFSC</th>
                <th scope="col">Bank</th>
                <th scope="col">Saved by</th>
                <th scope="col">Status</th>
                <th scope="col">Saved</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.id}>
                  <td>{b.name}</td>
                  <td>
                    <code title={`account number ending ${b.account_number_last4}`}>••{b.account_number_last4}</code>
                  </td>
                  <td>
                    <code>{b.ifsc}</code>
                  </td>
                  <td>{b.bank_name}</td>
                  <td>{b.saved_by ? <code title={b.saved_by.name ?? undefined}>{b.saved_by.client_id}</code> : '—'}</td>
                  <td>{b.status}</td>
                  <td>
                    <Time iso={b.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="pager" role="group" aria-label="Pages of beneficiaries">
        <button type="button" className="secondary" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </button>
        <span>Page {cursors.length}</span>
        <button type="button" className="secondary" disabled={!next} onClick={() => next && setCursors((c) => [...c, next])}>
          Next
        </button>
      </div>
    </>
  );
}
