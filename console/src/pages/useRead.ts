/**
 * What `read` answers, read again whenever `read` changes (make it with useCallback over what it
 * reads): null until the answer comes, an error as its message. An answer that comes after `read`
 * changed is dropped, so a slow old read never shows over the new one.
 */
import { useEffect, useState } from 'react';
import { describe } from '../api.js';

export function useRead<T>(read: () => Promise<T>): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    read().then(
      (d) => live && setData(d),
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, [read]);
  return { data, error };
}
