/** Loads one resource's page data; an error becomes a message. */
import { useEffect, useState } from 'react';
import { api, describe } from '../../api.js';

export function useDetail<T>(path: string): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    api<T>('GET', path).then(
      (d) => live && setData(d),
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return { data, error };
}
