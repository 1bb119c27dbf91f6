/**
 * The state of a settings page whose rows its buttons change (API clients, users, provider
 * accounts), made of the data layer's two pieces (data.tsx): the rows of GET `path` (null while
 * loading; `pick` takes them out of an answer that wraps them), and `act`, which runs one change
 * with every button disabled (`busy`), puts a failure on the error line and then reads the
 * resource again, so the table shows what the service now holds.
 */
import { resourceOf, useChange, useResource } from '../data.js';

export function useListActions<T, A = T[]>(path: string, pick: (answer: A) => T[] = (a) => a as unknown as T[]) {
  const read = useResource<A>(path);
  const change = useChange();
  const act = async (fn: () => Promise<void>): Promise<void> => void (await change.run(fn, [resourceOf(path)]));
  return {
    rows: read.data === null ? null : pick(read.data),
    error: change.error ?? read.error,
    setError: change.setError,
    busy: change.busy,
    load: read.reload,
    act,
  };
}
