/**
 * The console's data layer (issue #30 item 5), over TanStack Query (@tanstack/react-query, bundled
 * from node_modules like React): every read of the console API goes through one of the hooks here,
 * keyed by its path, so no page keeps its own `useEffect`, liveness flag or reload counter.
 *
 * - `useResource(path)`: one GET, read when first shown and again whenever its resource changes;
 *   `useLookup(key, read)` the same for a read that is not a GET (the set-up link's look-up).
 * - `useCursorPages(endpoint, params)`: a list a page at a time ("Previous"/"Next", CursorPages.tsx).
 * - `usePagedList(path)`: a list that grows with "Load older …" (events, audit log, delivery log).
 * - `useChange()`: a change (POST, PUT, PATCH, DELETE) with `busy` and an error line; after a
 *   success it invalidates the resources it names, and every mounted read of them is read again.
 *
 * A query's key is `[resource, path]`, the resource being the path's first segment
 * (`/payouts/TJP1/inquiries` → `/payouts`): invalidating `/payouts` reads again every payout list,
 * page and inquiry log on screen. What no page shows any more is dropped at once (`gcTime: 0`), so
 * opening a page reads it afresh, as the console always did ("Loading…", then today's rows);
 * components shown together share one read of a path (the Organization page's members and the
 * Users page's list are one query while both are mounted). No retry (an error is said at once) and
 * no refetch on window focus (a page changes only when its person or a change asks).
 */
import { type InfiniteData, QueryClient, QueryClientProvider, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { api, apiPage, describe } from './api.js';
import { ErrorLine, Loading } from './components.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, gcTime: 0 },
    mutations: { retry: false },
  },
});

export function DataProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** The resource a path belongs to: its first segment ("/payouts/TJP1?x=1" → "/payouts"). */
export function resourceOf(path: string): string {
  return `/${path.split(/[/?]/)[1] ?? ''}`;
}

const keyOf = (path: string) => [resourceOf(path), path] as const;

/** A read's state: `data` null until the first answer, `error` the last failure in words. */
export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** Read it again now (a "Refresh" button). */
  reload: () => void;
}

/** Read again every `every` ms while `while(data)` holds (a bulk file being paid). */
export interface Poll<T> {
  every: number;
  while: (data: T) => boolean;
}

/**
 * One GET query of `path` through `get(path, poll)`; `poll` as `Poll`, each read it makes marked as
 * an automatic refresh (`X-Console-Poll`: not counted as use of the session, so an idle session
 * still ends).
 */
function useGet<T>(path: string | null, get: (path: string, poll: boolean) => Promise<T>, poll: Poll<T> | undefined): Loaded<T> {
  const polling = (data: T | undefined) => poll !== undefined && data !== undefined && poll.while(data);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: keyOf(path ?? ''),
    queryFn: ({ queryKey }) => get(path as string, polling(client.getQueryData<T>(queryKey))),
    enabled: path !== null,
    refetchInterval: (query) => (polling(query.state.data) ? (poll?.every ?? false) : false),
  });
  return { data: q.data ?? null, error: q.error ? describe(q.error) : null, reload: () => void q.refetch() };
}

/** GET `path` (null: nothing to read yet, or not allowed); `poll`: see `Poll`. */
export function useResource<T>(path: string | null, opts: { poll?: Poll<T> } = {}): Loaded<T> {
  return useGet<T>(path, (p, poll) => api<T>('GET', p, undefined, undefined, undefined, { poll }), opts.poll);
}

/**
 * A read that is not a GET: the set-up link's look-up, a POST so that its token stays out of
 * addresses and logs. `key` names it (null: nothing to read).
 */
export function useLookup<T>(key: string | null, read: () => Promise<T>): Loaded<T> {
  const q = useQuery({ queryKey: ['/lookup', key ?? ''], queryFn: read, enabled: key !== null });
  return { data: q.data ?? null, error: q.error ? describe(q.error) : null, reload: () => void q.refetch() };
}

/** One page of a keyset list: its rows and the cursor of the next page. */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** GET `path` as one page of rows (the answer's `next_cursor` kept); null: nothing to read yet. */
export function usePage<T>(path: string | null, opts: { poll?: Poll<Page<T>> } = {}): Loaded<Page<T>> {
  return useGet<Page<T>>(path, (p, poll) => apiPage<T>(p, { poll }), opts.poll);
}

/**
 * A list that grows: `path(null)` is its first page, `path(cursor)` each older one; `more()` appends
 * the next. A change of the first page's path (a new filter) starts again from the first page.
 */
export function usePagedList<T>(path: (cursor: string | null) => string) {
  const first = path(null);
  const q = useInfiniteQuery<Page<T>, Error, InfiniteData<Page<T>>, readonly [string, string], string | null>({
    queryKey: keyOf(first),
    queryFn: ({ pageParam }) => apiPage<T>(path(pageParam)),
    initialPageParam: null,
    getNextPageParam: (last) => last.next,
  });
  return {
    rows: q.data ? q.data.pages.flatMap((p) => p.rows) : null,
    next: q.hasNextPage ? 'more' : null,
    error: q.error ? describe(q.error) : null,
    more: async () => void (await q.fetchNextPage()),
    reload: () => void q.refetch(),
  };
}

/** Reads again every mounted read of these resources ("/api-clients", "/users", …). */
export function useInvalidate(): (...resources: string[]) => Promise<void> {
  const client = useQueryClient();
  return (...resources) => client.invalidateQueries({ predicate: (q) => resources.includes(q.queryKey[0] as string) });
}

/**
 * Changes made from one place of a page: `run(fn, invalidates)` disables its buttons while `fn`
 * runs (`busy`), puts a failure on the error line (`error`; `setError` for a check made before
 * sending), and after a success reads the named resources again. Answers `fn`'s result, or
 * undefined when it failed.
 */
export function useChange() {
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run<R>(fn: () => Promise<R>, invalidates: readonly string[] = []): Promise<R | undefined> {
    setBusy(true);
    setError(null);
    try {
      const r = await fn();
      if (invalidates.length) void invalidate(...invalidates);
      return r;
    } catch (e) {
      setError(describe(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}

/**
 * The one way a page says a read's state: the error line (unless the page shows errors in its own
 * line: `showError={false}`), "Loading…" until the first answer (not once it failed), then
 * `children(data)`.
 */
export function Loadable<T>({ data, error, showError = true, children }: { data: T | null; error: string | null; showError?: boolean; children: (data: T) => ReactNode }) {
  return (
    <>
      {showError ? <ErrorLine error={error} /> : null}
      {data === null ? error ? null : <Loading /> : children(data)}
    </>
  );
}
