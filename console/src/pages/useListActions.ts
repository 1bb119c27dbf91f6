/**
 * The state of a settings page whose rows its buttons change (API clients, users, provider
 * accounts): the rows as `read` answers them (null while loading), and `act`, which runs one change
 * with every button disabled (`busy`), puts a failure on the error line and reads the rows again
 * after a success, so the table shows what the service now holds.
 */
import { useCallback, useEffect, useState } from 'react';
import { describe } from '../api.js';

/** `read` is called again whenever it changes: pass a function defined once, outside the component. */
export function useListActions<T>(read: () => Promise<T[]>) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    read().then(setRows, (e) => setError(describe(e)));
  }, [read]);
  useEffect(load, [load]);

  async function act(fn: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
      load();
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  }

  return { rows, error, setError, busy, load, act };
}
