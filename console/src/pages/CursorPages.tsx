/**
 * A list read a page at a time, newest first, with "Previous"/"Next" over the API's keyset cursors
 * (a page stays right while new rows arrive): the money lists and the beneficiaries.
 */
import { useState } from 'react';
import { type Page, type Poll, usePage } from '../data.js';

export interface PagerState {
  /** 1 for the first page. */
  page: number;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
}

/**
 * The rows of `endpoint?params` at the current page; `params` is the list's query (filter, limit)
 * without the cursor; new `params` (a new filter) start again at the first page. `restart(params)`,
 * called when a filter is applied with the params it will have, reads the first page again when
 * they are the ones shown (the same filter applied again reads today's rows). "Next" waits for the
 * page's answer, which holds the cursor of the page after it.
 */
export function useCursorPages<T>(endpoint: string, params: string, opts: { poll?: Poll<Page<T>> } = {}) {
  // cursors[i] is the cursor that fetched page i (null for the first page), for the list of `of`.
  const [state, setState] = useState<{ of: string; cursors: Array<string | null> }>({ of: params, cursors: [null] });
  const cursors = state.of === params ? state.cursors : [null];
  const setCursors = (f: (c: Array<string | null>) => Array<string | null>) => setState({ of: params, cursors: f(cursors) });
  const q = new URLSearchParams(params);
  const cursor = cursors[cursors.length - 1] ?? null;
  if (cursor) q.set('cursor', cursor);
  // Each page is its own query (data.tsx), keyed by its path with the cursor.
  const { data, error, reload } = usePage<T>(`${endpoint}?${q.toString()}`, opts);
  const next = data?.next ?? null;

  const pager: PagerState = {
    page: cursors.length,
    hasNext: next !== null,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: () => next && setCursors((c) => [...c, next]),
  };
  return {
    rows: data?.rows ?? null,
    error,
    pager,
    restart: (next: string) => {
      if (next !== params) return;
      if (cursors.length === 1) reload();
      else setCursors(() => [null]);
    },
  };
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
