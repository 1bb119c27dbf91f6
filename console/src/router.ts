/** A tiny history-API router: the console's pages are few and flat, so no router library. */
import { useEffect, useState } from 'react';

export const BASE = '/console';

export function navigate(path: string): void {
  window.history.pushState(null, '', `${BASE}${path}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The path below /console ("/" for the overview). */
export function usePath(): string {
  const [path, setPath] = useState(() => current());
  useEffect(() => {
    const on = () => setPath(current());
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return path;
}

function current(): string {
  const p = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return p === '' ? '/' : p.replace(/\/+$/, '') || '/';
}
