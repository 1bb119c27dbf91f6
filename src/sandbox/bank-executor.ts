/**
 * The sandbox bank's back office: a loop that executes due transfers (state in its own tables, so
 * a restart resumes where it stopped) and delivers its signed `payout.updated` callbacks with
 * retries. Several instances may run it: rows are claimed with FOR UPDATE SKIP LOCKED, and a
 * transfer is decided at most once (status guard), so it executes at most once.
 */
import * as repo from './repos/bank-repo.js';
import type { SandboxDeps } from './deps.js';
import { exchange } from './http.js';
import { SANDBOX_SIGNATURE_HEADER, signSandboxBody } from './signing.js';
import { sandboxUtr } from './utr.js';

const TICK_MS = 25;
/** Ticks that found nothing before the executor only asks whether anything is due (1 s). */
const IDLE_TICKS_BEFORE_ASKING = 40;
/** Longest wait between ticks while they keep failing (database down): a warning every 10 s, not 40 a second. */
const MAX_BACKOFF_MS = 10_000;
/** Transfers decided per tick: far above what the service submits, so the sandbox never holds payouts back. */
const EXECUTE_BATCH = 500;
/** Callbacks sent at once (each its own HTTP exchange with the intake), and rounds of them per tick. */
const CALLBACK_BATCH = 64;
const CALLBACK_ROUNDS_PER_TICK = 8;
const CALLBACK_TIMEOUT_MS = 5_000;
/** A claimed callback is tried again after this if its sender never recorded an answer (it stopped). */
const CALLBACK_LEASE_MS = CALLBACK_TIMEOUT_MS * 2;
/** Delay before the 2nd, 3rd, ... callback try; after the last the bank gives up (inquiry still works). */
const CALLBACK_RETRY_MS = [250, 1_000, 3_000, 10_000, 30_000];

export function callbackBody(t: repo.TransferRow): Record<string, unknown> {
  return {
    id: t.id,
    type: 'payout.updated',
    reference: t.reference,
    status: t.status,
    utr: t.utr,
    bank_reference: t.bank_reference,
    processed_at: t.processed_at ? t.processed_at.toISOString() : null,
    reason: t.reason,
  };
}

/**
 * Decides every due transfer of a batch with one statement (status, UTR, ledger entry, the lease
 * of its first callback); returns them, for their callbacks.
 */
async function executeDue(deps: SandboxDeps): Promise<repo.TransferRow[]> {
  return deps.db.tx(async (tx) => {
    const due = await repo.lockDueTransfers(tx, EXECUTE_BATCH);
    return repo.decideTransfers(
      tx,
      due.map((t) =>
        t.outcome === 'EXECUTE'
          ? { id: t.id, status: 'SUCCESS', utr: sandboxUtr(t.mode), reason: null }
          : { id: t.id, status: 'FAILED', utr: null, reason: 'ACCOUNT_CLOSED: the beneficiary account is closed' },
      ),
      CALLBACK_LEASE_MS,
    );
  });
}

async function post(deps: SandboxDeps, body: string, signal: AbortSignal): Promise<boolean> {
  try {
    const res = await exchange(deps.callbackUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(deps.signingSecret, body) },
      body,
      timeoutMs: CALLBACK_TIMEOUT_MS,
      signal,
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** Sends the callbacks of claimed transfers together and records the answers in two statements. */
async function sendCallbacks(deps: SandboxDeps, due: repo.TransferRow[], signal: AbortSignal): Promise<void> {
  const delivered = await Promise.all(due.map((t) => post(deps, JSON.stringify(callbackBody(t)), signal)));
  const finished: string[] = [];
  const retries: Array<{ id: string; delayMs: number }> = [];
  due.forEach((t, i) => {
    const delayMs = CALLBACK_RETRY_MS[t.callback_attempts - 1];
    if (delivered[i]) finished.push(t.id);
    else if (delayMs === undefined) {
      deps.log.warn({ reference: t.reference }, 'sandbox bank callback not delivered; giving up');
      finished.push(t.id);
    } else retries.push({ id: t.id, delayMs });
  });
  await repo.finishCallbacks(deps.db, finished);
  await repo.rescheduleCallbacks(deps.db, retries);
}

/** One round of callback retries (and of leases a stopped instance left): claims due ones and sends them. */
async function deliverDueCallbacks(deps: SandboxDeps, signal: AbortSignal): Promise<number> {
  const due = await repo.claimDueCallbacks(deps.db, CALLBACK_BATCH, CALLBACK_LEASE_MS);
  await sendCallbacks(deps, due, signal);
  return due.length;
}

export interface BankExecutor {
  stop(): Promise<void>;
}

export function startBankExecutor(deps: SandboxDeps): BankExecutor {
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  /** Ticks failed in a row: the next one waits longer (up to MAX_BACKOFF_MS), as the service's workers do. */
  let failures = 0;
  /**
   * Ticks in a row that found nothing. Past IDLE_TICKS_BEFORE_ASKING (a second) a tick first asks
   * whether anything is due; before that it runs in full, so that while payouts flow no tick pays
   * the question on top of its work.
   */
  let idleTicks = 0;
  const tick = async () => {
    try {
      // Idle, a tick was four round trips (BEGIN, the locking look-up, COMMIT, the callback claim)
      // 40 times a second, whatever else the service did: after an idle second, one look-up until
      // something is due.
      const due = idleTicks < IDLE_TICKS_BEFORE_ASKING ? { transfers: true, callbacks: true } : await repo.dueWork(deps.db);
      // The callbacks of what was just decided go out at once, CALLBACK_BATCH at a time.
      const decided = due.transfers ? await executeDue(deps) : [];
      for (let i = 0; i < decided.length; i += CALLBACK_BATCH) await sendCallbacks(deps, decided.slice(i, i + CALLBACK_BATCH), aborter.signal);
      // Retries: a full round leaves more due; send on until the backlog is gone (at most a few rounds a tick).
      let retried = 0;
      for (let round = 0; due.callbacks && round < CALLBACK_ROUNDS_PER_TICK; round++) {
        const n = await deliverDueCallbacks(deps, aborter.signal);
        retried += n;
        if (n < CALLBACK_BATCH) break;
      }
      idleTicks = decided.length > 0 || retried > 0 ? 0 : idleTicks + 1;
      failures = 0;
    } catch (err) {
      failures++;
      deps.log.warn({ err: (err as Error).message, failures }, 'sandbox bank tick failed');
    }
  };
  const schedule = () => {
    if (aborter.signal.aborted) return;
    timer = setTimeout(
      () => {
        current = tick().then(schedule);
      },
      failures === 0 ? TICK_MS : Math.min(TICK_MS * 2 ** failures, MAX_BACKOFF_MS),
    );
  };
  schedule();
  return {
    async stop() {
      aborter.abort();
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
