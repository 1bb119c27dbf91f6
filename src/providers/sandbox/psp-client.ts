/**
 * HTTP client of the sandbox PSP (collections), used through the Provider interface, plus the
 * sandbox-only controls (pay, fail, stats) that the admin API and the checkout's "Simulate
 * payment" button use. Every call is bounded by a timeout; an answer that does not fit is an
 * error, never a guessed status.
 */
import type { CollectionIssued, CollectionRequest, CollectionStatus, ProviderCallback, RefundRequest, RefundStatus, RefundSubmitResult } from '../provider.js';
import { ProviderError } from '../provider.js';
import { exchange, type HttpAnswer, type HttpExchange } from '../http.js';

interface CollectionJson {
  reference: string;
  provider_reference: string;
  amount_paise: number;
  upi_uri: string;
  status: string;
  utr: string | null;
  paid_at: string | null;
  failure_reason: string | null;
}

export interface SandboxCollectionView {
  reference: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  utr: string | null;
  paid_at: string | null;
  failure_reason: string | null;
}

/** What the sandbox's `GET /stats` answers (`tijori sandbox stats`, contract §2), as read on this side of the wire. */
export interface SandboxStats {
  payin_status_checks: Record<string, number>;
  payout_executions: Record<string, number>;
  refund_executions: Record<string, number>;
}

export type SandboxDecision = { ok: true; collection: SandboxCollectionView } | { ok: false; reason: 'not_found' | 'already_decided'; message: string };

async function call(url: string, init: HttpExchange): Promise<{ status: number; body: unknown }> {
  let res: HttpAnswer;
  try {
    res = await exchange(url, init);
  } catch (err) {
    throw new ProviderError(`sandbox PSP unreachable or too slow: ${(err as Error).message}`, true);
  }
  try {
    return { status: res.status, body: JSON.parse(res.text) as unknown };
  } catch {
    throw new ProviderError(`sandbox PSP answered HTTP ${res.status} without JSON`, res.status >= 500);
  }
}

function json(body: unknown): { method: 'POST'; headers: Record<string, string>; body: string } {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

interface RefundJson {
  reference: string;
  provider_reference: string;
  status: string;
  failure_reason: string | null;
  completed_at: string | null;
}

/** Maps the PSP's refund JSON to the provider-neutral status; throws on anything unexpected. */
export function toRefundStatus(b: Partial<RefundJson>): RefundStatus {
  if (b.status === 'COMPLETED') {
    const completedAt = new Date(b.completed_at ?? '');
    if (typeof b.provider_reference !== 'string' || Number.isNaN(completedAt.getTime())) throw new ProviderError('sandbox PSP reported a completed refund without its reference and time', false);
    return { status: 'COMPLETED', providerReference: b.provider_reference, completedAt };
  }
  if (b.status === 'FAILED') return { status: 'FAILED', reason: b.failure_reason ?? 'failed' };
  throw new ProviderError(`sandbox PSP reported an unknown refund status ${JSON.stringify(b.status)}`, false);
}

/** Maps the PSP's collection JSON to the provider-neutral status; throws on anything unexpected. */
export function toCollectionStatus(c: Partial<CollectionJson>): CollectionStatus {
  switch (c.status) {
    case 'PENDING':
      return { status: 'PENDING', providerStatus: 'PENDING' };
    case 'SUCCESS': {
      const paidAt = new Date(c.paid_at ?? '');
      if (typeof c.utr !== 'string' || !/^[0-9]{12}$/.test(c.utr) || Number.isNaN(paidAt.getTime())) {
        throw new ProviderError('sandbox PSP reported SUCCESS without a valid UTR and time', false);
      }
      if (!Number.isSafeInteger(c.amount_paise) || typeof c.provider_reference !== 'string' || c.provider_reference === '') {
        throw new ProviderError('sandbox PSP reported SUCCESS without the amount paid and its reference', false);
      }
      return { status: 'SUCCESS', providerStatus: 'SUCCESS', utr: c.utr, paidAt, amountPaise: c.amount_paise!, providerReference: c.provider_reference };
    }
    case 'FAILED':
      return { status: 'FAILED', providerStatus: 'FAILED', reason: c.failure_reason ?? 'failed' };
    default:
      throw new ProviderError(`sandbox PSP reported an unknown status ${JSON.stringify(c.status)}`, false);
  }
}

export function createPspClient(opts: { baseUrl: () => string; timeoutMs: number }) {
  const url = (path: string) => `${opts.baseUrl()}${path}`;
  const ref = (reference: string) => encodeURIComponent(reference);

  async function decide(reference: string, action: 'pay' | 'fail', body: Record<string, unknown>): Promise<SandboxDecision> {
    const r = await call(url(`/psp/collections/${ref(reference)}/${action}`), { ...json(body), timeoutMs: opts.timeoutMs });
    const b = r.body as CollectionJson & { error?: string; message?: string };
    if (r.status === 200) return { ok: true, collection: { reference: b.reference, status: b.status as SandboxCollectionView['status'], utr: b.utr, paid_at: b.paid_at, failure_reason: b.failure_reason } };
    if (r.status === 404) return { ok: false, reason: 'not_found', message: b.message ?? 'not found' };
    if (r.status === 409) return { ok: false, reason: 'already_decided', message: b.message ?? 'already decided' };
    throw new ProviderError(`sandbox PSP answered HTTP ${r.status} to ${action}`, r.status >= 500);
  }

  return {
    async createCollection(req: CollectionRequest): Promise<CollectionIssued> {
      const r = await call(url('/psp/collections'), {
        ...json({
          reference: req.reference,
          amount_paise: req.amountPaise,
          note: req.note,
          payee_name: req.payeeName,
          expires_at: req.expiresAt.toISOString(),
          ...(req.merchantCategoryCode ? { merchant_category_code: req.merchantCategoryCode } : {}),
          ...(req.merchant ? { merchant: req.merchant } : {}),
        }),
        timeoutMs: opts.timeoutMs,
      });
      const b = r.body as Partial<CollectionJson>;
      if ((r.status === 200 || r.status === 201) && typeof b.upi_uri === 'string' && typeof b.provider_reference === 'string') {
        return { providerReference: b.provider_reference, upiUri: b.upi_uri };
      }
      throw new ProviderError(`sandbox PSP refused the collection (HTTP ${r.status})`, r.status >= 500);
    },

    async collectionStatus(reference: string, o: { timeoutMs?: number } = {}): Promise<CollectionStatus> {
      const r = await call(url(`/psp/collections/${ref(reference)}`), { method: 'GET', timeoutMs: o.timeoutMs ?? opts.timeoutMs });
      if (r.status === 404) return { status: 'NOT_FOUND' };
      if (r.status !== 200) throw new ProviderError(`sandbox PSP status inquiry answered HTTP ${r.status}`, true);
      return toCollectionStatus(r.body as Partial<CollectionJson>);
    },

    pay(reference: string, o: { utr?: string | undefined; amountPaise?: number | undefined; callback: boolean }): Promise<SandboxDecision> {
      return decide(reference, 'pay', { callback: o.callback, ...(o.utr ? { utr: o.utr } : {}), ...(o.amountPaise !== undefined ? { amount_paise: o.amountPaise } : {}) });
    },

    fail(reference: string, o: { callback: boolean }): Promise<SandboxDecision> {
      return decide(reference, 'fail', { callback: o.callback });
    },

    /** Never throws: anything but a definite answer is UNKNOWN (inquire, never resend blindly). */
    async submitRefund(req: RefundRequest): Promise<RefundSubmitResult> {
      let r: { status: number; body: unknown };
      try {
        r = await call(url('/psp/refunds'), {
          ...json({ reference: req.reference, collection_reference: req.collectionReference, amount_paise: req.amountPaise }),
          timeoutMs: opts.timeoutMs,
        });
      } catch (err) {
        return { outcome: 'UNKNOWN', error: (err as Error).message };
      }
      const b = r.body as Partial<RefundJson> & { error?: string; message?: string };
      if (r.status === 200 || r.status === 201) {
        try {
          const status = toRefundStatus(b);
          if (status.status === 'COMPLETED') return { outcome: 'COMPLETED', providerReference: status.providerReference, completedAt: status.completedAt };
          if (status.status === 'FAILED') return { outcome: 'FAILED', reason: status.reason };
        } catch (err) {
          return { outcome: 'UNKNOWN', error: (err as Error).message };
        }
        return { outcome: 'UNKNOWN', error: 'sandbox PSP answered the refund without a final status' };
      }
      if (r.status === 409 || r.status === 422) return { outcome: 'FAILED', reason: `refused by the provider: ${b.message ?? b.error ?? r.status}` };
      return { outcome: 'UNKNOWN', error: `sandbox PSP answered HTTP ${r.status} to the refund` };
    },

    async refundStatus(reference: string): Promise<RefundStatus> {
      const r = await call(url(`/psp/refunds/${ref(reference)}`), { method: 'GET', timeoutMs: opts.timeoutMs });
      if (r.status === 404) return { status: 'NOT_FOUND' };
      if (r.status !== 200) throw new ProviderError(`sandbox PSP refund inquiry answered HTTP ${r.status}`, true);
      return toRefundStatus(r.body as Partial<RefundJson>);
    },

    async stats(): Promise<SandboxStats> {
      const r = await call(url('/stats'), { method: 'GET', timeoutMs: opts.timeoutMs });
      if (r.status !== 200) throw new ProviderError(`sandbox stats answered HTTP ${r.status}`, false);
      return r.body as SandboxStats;
    },
  };
}

export type PspClient = ReturnType<typeof createPspClient>;

/** The sandbox's `collection.updated` callback body -> ProviderCallback; null when malformed. */
export function parsePspCallback(body: Record<string, unknown>): ProviderCallback | null {
  const { id, reference } = body;
  if (typeof id !== 'string' || id === '' || typeof reference !== 'string' || reference === '') return null;
  try {
    const status = toCollectionStatus(body as Partial<CollectionJson>);
    if (status.status === 'PENDING') return null;
    return { eventId: id, kind: 'collection', reference, status };
  } catch {
    return null;
  }
}
