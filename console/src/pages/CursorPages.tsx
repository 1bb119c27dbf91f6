/**
 * A list read a page at a time, newest first, with "Previous"/"Next" over the API's keyset cursors
 * (a page stays right while new rows arrive): the money lists and the beneficiaries.
 */
import { useCallback, useState } from 'react';
import { apiPage } from '../api.js';
import { useRead } from './useRead.js';

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
 * new filter. "Next" waits for the page's answer, which holds the cursor of the page after it.
 */
export function useCursorPages<T>(endpoint: string, params: string) {
  // cursors[i] is the cursor that fetched page i (null for the first page).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  // A new `cursors` array (restart, Previous, Next) reads again, even when the query is the same.
  const read = useCallback(() => {
    const q = new URLSearchParams(params);
    const cursor = cursors[cursors.length - 1] ?? null;
    if (cursor) q.set('cursor', cursor);
    return apiPage<T>(`${endpoint}?${q.toString()}`);
  }, [endpoint, params, cursors]);
  const { data, error } = useRead(read);
  const next = data?.next ?? null;

  const pager: PagerState = {
    page: cursors.length,
    hasNext: next !== null,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: () => next && setCursors((c) => [...c, next]),
  };
  return { rows: data?.rows ?? null, error, pager, restart: () => setCursors([null]) };
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
