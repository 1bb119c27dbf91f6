/**
 * HTTP client of the sandbox bank (payouts). Every call is bounded by a timeout. The mapping is
 * deliberately conservative: only a 2xx "ACCEPTED" is acceptance and only a 4xx or an explicit
 * "REJECTED" is a refusal; timeouts, resets, 5xx and anything unparseable are UNKNOWN, which the
 * service resolves by status inquiry and never by resending.
 */
import type { PayoutRequest, PayoutStatus, PayoutSubmitResult, ProviderCallback } from '../provider.js';
import { ProviderError } from '../provider.js';
import { exchange, type HttpAnswer, type HttpExchange } from '../http.js';
import { str } from '../decode.js';

type Json = Record<string, unknown>;


function readJson(res: HttpAnswer): Json | null {
  try {
    const v: unknown = JSON.parse(res.text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

/** The bank's status body → PayoutStatus; null for an answer that fits no known shape. */
export function toPayoutStatus(body: Json): PayoutStatus | null {
  const bankRef = str(body.bank_reference);
  switch (body.status) {
    case 'NOT_FOUND':
      return { status: 'NOT_FOUND' };
    case 'PENDING':
      return bankRef ? { status: 'PENDING', providerReference: bankRef } : null;
    case 'SUCCESS': {
      const utr = str(body.utr);
      const at = str(body.processed_at);
      const processedAt = at ? new Date(at) : null;
      if (!bankRef || !utr || !processedAt || Number.isNaN(processedAt.getTime())) return null;
      return { status: 'SUCCESS', providerReference: bankRef, utr, processedAt };
    }
    case 'FAILED':
      return bankRef ? { status: 'FAILED', providerReference: bankRef, reason: str(body.reason) ?? 'failed at the bank' } : null;
    default:
      return null;
  }
}

export function createBankClient(opts: { baseUrl: () => string; timeoutMs: number }) {
  const call = (path: string, init: Omit<HttpExchange, 'timeoutMs'> = {}) => exchange(`${opts.baseUrl()}${path}`, { ...init, timeoutMs: opts.timeoutMs });

  return {
    async submitPayout(req: PayoutRequest): Promise<PayoutSubmitResult> {
      let res: HttpAnswer;
      let body: Json | null;
      try {
        res = await call('/bank/payouts', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            reference: req.reference,
            amount_paise: req.amountPaise,
            mode: req.mode,
            beneficiary: { name: req.beneficiary.name, account_number: req.beneficiary.accountNumber, ifsc: req.beneficiary.ifsc },
            remarks: req.remarks,
          }),
        });
        body = readJson(res);
      } catch (err) {
        const e = err as Error;
        return { outcome: 'UNKNOWN', error: e.name === 'TimeoutError' ? `no answer within ${opts.timeoutMs} ms` : `transport error: ${e.message}` };
      }
      if (res.status >= 500) return { outcome: 'UNKNOWN', error: `bank answered HTTP ${res.status}` };
      if (res.status >= 400) return { outcome: 'REJECTED', reason: str(body?.reason) ?? str(body?.message) ?? `bank refused the request (HTTP ${res.status})` };
      const bankRef = str(body?.bank_reference);
      if (res.ok && body?.status === 'ACCEPTED' && bankRef) return { outcome: 'ACCEPTED', providerReference: bankRef };
      if (res.ok && body?.status === 'REJECTED') return { outcome: 'REJECTED', reason: str(body.reason) ?? 'rejected by the bank' };
      return { outcome: 'UNKNOWN', error: `unexpected bank answer (HTTP ${res.status})` };
    },

    /** Throws ProviderError when the bank gives no usable answer: the caller inquires again later. */
    async payoutStatus(reference: string): Promise<PayoutStatus> {
      let res: HttpAnswer;
      let body: Json | null;
      try {
        res = await call(`/bank/payouts/${encodeURIComponent(reference)}`);
        body = readJson(res);
      } catch (err) {
        throw new ProviderError(`status inquiry failed: ${(err as Error).message}`, true);
      }
      const parsed = body && (res.ok || res.status === 404) ? toPayoutStatus(body) : null;
      if (!parsed) throw new ProviderError(`unusable status answer (HTTP ${res.status})`, true);
      return parsed;
    },

    /** `tijori sandbox stats`, payout side: executions per reference (our transaction_id). */
    async payoutExecutionStats(): Promise<Record<string, number>> {
      const res = await call('/bank/stats/payouts');
      if (!res.ok) throw new ProviderError(`sandbox stats failed (HTTP ${res.status})`, false);
      return JSON.parse(res.text) as Record<string, number>;
    },
  };
}

/** Standalone form of payoutExecutionStats for the CLI / admin side, given the sandbox address. */
export async function fetchPayoutExecutionStats(sandboxUrl: string, timeoutMs = 5_000): Promise<Record<string, number>> {
  return createBankClient({ baseUrl: () => sandboxUrl, timeoutMs }).payoutExecutionStats();
}

/** A verified `payout.updated` callback body → ProviderCallback; null when it does not fit. */
export function parseBankCallback(body: Record<string, unknown>): ProviderCallback | null {
  const eventId = str(body.id);
  const reference = str(body.reference);
  if (!eventId || !reference || body.type !== 'payout.updated') return null;
  const status = toPayoutStatus(body);
  if (!status) return null;
  return { eventId, kind: 'payout', reference, status };
}
