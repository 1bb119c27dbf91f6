/**
 * The Provider adapter for the sandbox: reaches the sandbox server (src/sandbox/) over HTTP only,
 * like any real provider adapter, and imports none of its code. Collections live in
 * psp-client.ts, payouts in bank-client.ts.
 */
import { AppError } from '../../domain/errors.js';
import { hasDuplicateKeys } from '../../security/strict-json.js';
import type { Provider, ProviderCallback } from '../provider.js';
import type { SandboxDecision, SandboxStats } from './psp-client.js';
import { createBankClient, parseBankCallback } from './bank-client.js';
import { createPspClient, parsePspCallback } from './psp-client.js';
import { createSandboxSettlementClient, type SandboxSettled } from './settlement-client.js';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from './signature.js';

export interface SandboxAdapterOptions {
  baseUrl: () => string;
  signingSecret: string;
  /** Bound of every call; a call past it is a timeout (an unknown outcome for payouts). */
  timeoutMs?: number;
}

/**
 * Sandbox-only controls: deciding a collection the way a payer's bank would, and the sandbox's
 * counters. Used by the admin API (`tijori sandbox ...`) and the checkout's "Simulate payment".
 */
export interface SandboxControls {
  payCollection(reference: string, opts: { utr?: string | undefined; amountPaise?: number | undefined; callback: boolean }): Promise<SandboxDecision>;
  failCollection(reference: string, opts: { callback: boolean }): Promise<SandboxDecision>;
  stats(): Promise<SandboxStats>;
  /** The sandbox PSP settles now (`tijori sandbox settle`): one merchant's, or every merchant's. */
  settle(merchant: string | null): Promise<SandboxSettled[]>;
}

export type SandboxProvider = Provider & { controls: SandboxControls };

export function createSandboxProvider(opts: SandboxAdapterOptions): SandboxProvider {
  const timeoutMs = opts.timeoutMs ?? 3_000;
  const psp = createPspClient({ baseUrl: opts.baseUrl, timeoutMs });
  const bank = createBankClient({ baseUrl: opts.baseUrl, timeoutMs });
  const settlements = createSandboxSettlementClient({ baseUrl: opts.baseUrl, timeoutMs });
  return {
    name: 'sandbox',
    // No real money ever moves here.
    livemode: false,
    controls: { payCollection: psp.pay, failCollection: psp.fail, stats: psp.stats, settle: settlements.settle },
    createCollection: psp.createCollection,
    collectionStatus: psp.collectionStatus,
    submitPayout: bank.submitPayout,
    payoutStatus: bank.payoutStatus,
    submitRefund: psp.submitRefund,
    refundStatus: psp.refundStatus,
    fetchSettlements: settlements.fetchSettlements,
    fetchSettlementLines: settlements.fetchSettlementLines,
    parseCallback(rawBody, headers): ProviderCallback | null {
      const sig = headers[SANDBOX_SIGNATURE_HEADER];
      if (!verifySandboxSignature(opts.signingSecret, rawBody, Array.isArray(sig) ? sig[0] : sig)) return null;
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        return null;
      }
      // Signed, but a key twice: which one the provider meant is unknowable; refuse, never guess.
      if (hasDuplicateKeys(rawBody, body)) throw new AppError('INVALID_JSON', 'The callback body names a key twice in one object.');
      if (!body || typeof body !== 'object') return null;
      const type = (body as { type?: unknown }).type;
      if (type === 'collection.updated') return parsePspCallback(body as Record<string, unknown>);
      if (type === 'payout.updated') return parseBankCallback(body as Record<string, unknown>);
      return null;
    },
  };
}
