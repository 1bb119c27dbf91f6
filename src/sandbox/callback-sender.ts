/**
 * How the sandbox, like a real PSP, delivers its signed callbacks to the service: at once, then a
 * few retries while the service is down or answers non-2xx. The same body (and event id) is sent
 * in every attempt, so the service's intake deduplicates. Retries live in memory: a sandbox
 * restart drops undelivered callbacks, and the service then learns the outcome through its status
 * checks (live check on retrieval, expiry worker), exactly as with a real PSP that gave up.
 */
import type { Logger } from '../observability/logger.js';
import { exchange } from './http.js';
import { SANDBOX_SIGNATURE_HEADER, signSandboxBody } from './signing.js';

export const CALLBACK_RETRY_DELAYS_MS = [0, 250, 1_000, 3_000, 10_000];
const ATTEMPT_TIMEOUT_MS = 5_000;

export interface CallbackSender {
  send(body: Record<string, unknown>): void;
  /** Cancels pending retries (server shutdown). */
  close(): void;
}

export function createCallbackSender(opts: { url: () => string; secret: string; log: Logger; delaysMs?: number[] }): CallbackSender {
  const timers = new Set<NodeJS.Timeout>();
  const aborter = new AbortController();
  const delays = opts.delaysMs ?? CALLBACK_RETRY_DELAYS_MS;

  async function attempt(text: string): Promise<boolean> {
    try {
      const res = await exchange(opts.url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(opts.secret, text) },
        body: text,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        signal: aborter.signal,
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  function schedule(text: string, index: number, id: unknown): void {
    if (aborter.signal.aborted) return;
    if (index >= delays.length) {
      opts.log.warn({ callback_id: id }, 'sandbox callback not delivered; giving up');
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(text).then((ok) => {
        if (!ok) schedule(text, index + 1, id);
      });
    }, delays[index]);
    timers.add(timer);
  }

  return {
    send(body) {
      schedule(JSON.stringify(body), 0, body.id);
    },
    close() {
      aborter.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
