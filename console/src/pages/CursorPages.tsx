/**
 * A list read a page at a time, newest first, with "Previous"/"Next" over the API's keyset cursors
 * (a page stays right while new rows arrive): the money lists and the beneficiaries.
 */
import { useEffect, useState } from 'react';
import { apiPage, describe } from '../api.js';

export interface PagerState {
  /** 1 for the first page. */
  page: number;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
}

/**
 * The rows of `endpoint?params` at the current page; `params` is the list's query (filter, limit)
 * without the cursor. `restart()` goes back to the first page and reads it again: call it with a
 * new filter.
 */
export function useCursorPages<T>(endpoint: string, params: string) {
  // cursors[i] is the cursor that fetched page i (null for the first page).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [rows, setRows] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setRows(null);
    setError(null);
    const q = new URLSearchParams(params);
    const cursor = cursors[cursors.length - 1] ?? null;
    if (cursor) q.set('cursor', cursor);
    apiPage<T>(`${endpoint}?${q.toString()}`).then(
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
  }, [endpoint, params, cursors]);

  const pager: PagerState = {
    page: cursors.length,
    hasNext: next !== null,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: () => next && setCursors((c) => [...c, next]),
  };
  return { rows, error, pager, restart: () => setCursors([null]) };
}

/** "Previous", the page number, "Next"; `label` names the group ("Pages of payouts"). */
export function Pager({ label, pager }: { label: string; pager: PagerState }) {
  return (
    <div className="pager" role="group" aria-label={label}>
      <button type="button" className="secondary" disabled={pager.page < 2} onClick={pager.previous}>
        Previous
      </button>
      <span>Page {pager.page}</span>
      <button type="button" className="secondary" disabled={!pager.hasNext} onClick={pager.next}>
        Next
      </button>
    </div>
  );
}
