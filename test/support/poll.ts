/** The one polling loop of the test suite; the per-area helpers (waitFor, eventually, until) adapt it. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface PollOptions<T> {
  /** Named in the timeout error. */
  what: string;
  timeoutMs: number;
  stepMs: number;
  /** When the probe's value ends the wait; default: any truthy value. */
  accept?: (value: T) => boolean;
}

/** Calls `probe` every `stepMs` until `accept` takes its value; throws after `timeoutMs`. */
export async function poll<T>(probe: () => Promise<T>, o: PollOptions<T>): Promise<T> {
  const accept = o.accept ?? Boolean;
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const v = await probe();
    if (accept(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${o.what}`);
    await sleep(o.stepMs);
  }
}
