/**
 * The sandbox bank's back office: a loop that executes due transfers (state in its own tables, so
 * a restart resumes where it stopped) and delivers its signed `payout.updated` callbacks with
 * retries. Several instances may run it: rows are claimed with FOR UPDATE SKIP LOCKED, and a
 * transfer is decided at most once (status guard), so it executes at most once.
 */
import { randomInt } from 'node:crypto';
import * as repo from '../../store/repos/sandbox-bank-repo.js';
import type { SandboxDeps } from './server.js';
import { exchange } from './http.js';
import { SANDBOX_SIGNATURE_HEADER, signSandboxBody } from './signing.js';

const TICK_MS = 100;
const BATCH = 50;
const CALLBACK_TIMEOUT_MS = 5_000;
/** Delay before the 2nd, 3rd, ... callback try; after the last the bank gives up (inquiry still works). */
const CALLBACK_RETRY_MS = [250, 1_000, 3_000, 10_000, 30_000];

function digits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

/** UTR shapes of contract §3: IMPS 12 digits (RRN), NEFT 16 characters, RTGS 22 characters. */
export function sandboxUtr(mode: string): string {
  if (mode === 'IMPS') return digits(12);
  if (mode === 'NEFT') return `SBXSN${digits(11)}`;
  return `SBXSR${digits(17)}`;
}

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

async function executeDue(deps: SandboxDeps): Promise<number> {
  return deps.db.tx(async (tx) => {
    const due = await repo.lockDueTransfers(tx, BATCH);
    for (const t of due) {
      if (t.outcome === 'EXECUTE') {
        const utr = sandboxUtr(t.mode);
        if (await repo.decideTransfer(tx, { id: t.id, status: 'SUCCESS', utr, reason: null })) {
          await repo.insertLedgerEntry(tx, { reference: t.reference, amountPaise: t.amount_paise, utr });
        }
      } else {
        await repo.decideTransfer(tx, { id: t.id, status: 'FAILED', utr: null, reason: 'ACCOUNT_CLOSED: the beneficiary account is closed' });
      }
    }
    return due.length;
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

async function deliverCallbacks(deps: SandboxDeps, signal: AbortSignal): Promise<number> {
  const due = await repo.claimDueCallbacks(deps.db, BATCH, CALLBACK_TIMEOUT_MS * 2);
  await Promise.all(
    due.map(async (t) => {
      const ok = await post(deps, JSON.stringify(callbackBody(t)), signal);
      if (ok) return repo.finishCallback(deps.db, t.id);
      const delay = CALLBACK_RETRY_MS[t.callback_attempts - 1];
      if (delay === undefined) {
        deps.log.warn({ reference: t.reference }, 'sandbox bank callback not delivered; giving up');
        return repo.finishCallback(deps.db, t.id);
      }
      return repo.rescheduleCallback(deps.db, t.id, delay);
    }),
  );
  return due.length;
}

export interface BankExecutor {
  stop(): Promise<void>;
}

export function startBankExecutor(deps: SandboxDeps): BankExecutor {
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await executeDue(deps);
      await deliverCallbacks(deps, aborter.signal);
    } catch (err) {
      deps.log.warn({ err: (err as Error).message }, 'sandbox bank tick failed');
    }
  };
  const schedule = () => {
    if (aborter.signal.aborted) return;
    timer = setTimeout(() => {
      current = tick().then(schedule);
    }, TICK_MS);
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
