/**
 * RazorpayX Payouts behind the Provider interface (contract §8, issue #22 item 2). Payouts only:
 * the collection side is not offered by this provider and its methods say so.
 *
 * Never twice (architecture habit 2, rzp-docs api/x/payout-idempotency.md): the service persists
 * the attempt first and then calls `submitPayout` once; the composite `POST /v1/payouts` carries
 * `X-Payout-Idempotency` = our transaction id and `reference_id` = the same id, and its body is a
 * pure function of the stored payout, so any resend under that key is byte-identical (Razorpay
 * answers a different body under a used key with a BAD_REQUEST). A timeout, a 5xx, a 409 (the
 * same key still in flight) or an answer that does not parse is UNKNOWN: the service then asks
 * `GET /v1/payouts?account_number=...&reference_id=...` and never sends under another key.
 *
 * Facts and sources: /work/shared/design/providers.md §3 and docs/providers.md "RazorpayX Payouts".
 */
import { AppError, validationError } from '../../domain/errors.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import { hasDuplicateKeys } from '../../security/strict-json.js';
import type {
  CollectionIssued,
  CollectionRequest,
  CollectionStatus,
  PayoutRequest,
  PayoutStatus,
  PayoutSubmitResult,
  Provider,
  ProviderCallback,
  RefundRequest,
  RefundStatus,
  RefundSubmitResult,
} from '../provider.js';
import { ProviderError } from '../provider.js';
import type { AnomalySink } from '../anomalies.js';
import { exchange, type HttpAnswer } from '../http.js';
import { isLivemode, parseRazorpayXConfig, type RazorpayXConfig } from './config.js';
import { readPayoutEntity } from './payout-entity.js';
import { EVENT_ID_HEADER, headerValue, isFresh, SIGNATURE_HEADER, verifyRazorpaySignature } from './webhook.js';
import { decoded, parsedJson, str } from '../decode.js';
import { Collection, RzpError, WebhookEnvelope, WithReference } from './schemas.js';
import { RazorpayXAccount } from './account.js';
import { compositePayoutBody } from './payout-body.js';
export { RAZORPAYX_WEBHOOK_MAX_AGE_MS, RAZORPAYX_WEBHOOK_MAX_SKEW_MS } from './webhook.js';

export interface RazorpayXOptions {
  /** Bound of every call; past it the outcome is UNKNOWN (payouts) or no answer (inquiries). */
  timeoutMs?: number;
  /** Where anomalies (unknown statuses, unusable answers) are logged and counted (/metrics). */
  log?: Pick<Logger, 'warn' | 'error' | 'info'>;
  metrics?: Metrics;
  /** Where anomalies are recorded durably for the console (the account's sink, src/services/providers/provider-anomalies.ts). */
  anomalies?: AnomalySink;
  /** NODE_ENV=production: plain http:// is refused even to loopback. */
  production?: boolean;
  /** The clock of the webhook secret overlap (tests). */
  now?: () => Date;
}

/** An answer's body as an object, or null (not JSON, or not an object). */
function readJson(text: string): object | null {
  const v = parsedJson(text);
  return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
}

/** Razorpay's error shape: `{"error": {"code", "description", "source", "step", "reason", "metadata", "field"}}`. */
function errorOf(body: unknown): { code: string | null; description: string | null; field: string | null } {
  const e = decoded(RzpError, body)?.error;
  return { code: str(e?.code), description: str(e?.description), field: str(e?.field) };
}

export class RazorpayXProvider implements Provider {
  readonly name = 'razorpayx';
  readonly livemode: boolean;
  readonly config: RazorpayXConfig;
  private readonly timeoutMs: number;
  private readonly authorization: string;
  private readonly now: () => Date;
  /** The account's balance and statement (issue #33 item 6). */
  readonly payoutAccount: RazorpayXAccount;

  /** `rawConfig`: the account's config file, `{base_url, key_id, key_secret, account_number, webhook_secret}` (contract §8). */
  constructor(
    rawConfig: unknown,
    private readonly opts: RazorpayXOptions = {},
  ) {
    this.config = parseRazorpayXConfig(rawConfig, { production: opts.production ?? process.env.NODE_ENV === 'production' });
    this.livemode = isLivemode(this.config);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.authorization = `Basic ${Buffer.from(`${this.config.keyId}:${this.config.keySecret}`).toString('base64')}`;
    this.now = opts.now ?? (() => new Date());
    this.payoutAccount = new RazorpayXAccount((path) => this.call('GET', path), this.config.accountNumber);
  }

  /**
   * Counts, logs and records an answer or event that Tijori cannot use; it never moves money.
   * `reference`: the payout (our transaction id) it concerns, when known.
   */
  private anomaly(kind: string, detail: Record<string, unknown> & { operation: string; reference?: string | null }): void {
    this.opts.metrics
      ?.counter('tijori_provider_anomalies_total', 'Provider answers and events that could not be used (unknown status, missing UTR, unparseable), by provider and kind', ['provider', 'kind'])
      .inc({ provider: this.name, kind });
    this.opts.log?.error({ provider: this.name, anomaly: kind, ...detail }, 'unusable provider answer; no money state moved');
    const { operation, reference, ...rest } = detail;
    this.opts.anomalies?.({ kind, operation, ...(reference ? { resource: { type: 'payout' as const, ref: reference } } : {}), detail: rest });
  }

  private call(method: 'GET' | 'POST', path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<HttpAnswer> {
    return exchange(`${this.config.baseUrl}${path}`, {
      method,
      headers: { authorization: this.authorization, accept: 'application/json', ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      timeoutMs: this.timeoutMs,
    });
  }

  /** The composite payout body (payout-body.ts): a pure function of the request, so a resend is byte-identical. */
  payoutBody(req: PayoutRequest): string {
    return compositePayoutBody(req, this.config.accountNumber);
  }

  async submitPayout(req: PayoutRequest): Promise<PayoutSubmitResult> {
    let res: HttpAnswer;
    try {
      res = await this.call('POST', '/v1/payouts', {
        headers: { 'content-type': 'application/json', 'x-payout-idempotency': req.reference },
        body: this.payoutBody(req),
      });
    } catch (err) {
      const e = err as Error;
      return { outcome: 'UNKNOWN', error: e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : `transport error: ${e.message}` };
    }
    const body = readJson(res.text);
    if (res.status >= 500) return { outcome: 'UNKNOWN', error: `RazorpayX answered HTTP ${res.status}` };
    if (res.ok) {
      if (!body) {
        this.anomaly('unparseable', { operation: 'create', reference: req.reference, http_status: res.status, body_bytes: Buffer.byteLength(res.text) });
        return { outcome: 'UNKNOWN', error: `RazorpayX answered HTTP ${res.status} with a body that does not parse` };
      }
      const reading = readPayoutEntity(body, this.now());
      if (!reading.ok) {
        if (reading.problem === 'missing_utr') return { outcome: 'ACCEPTED', providerReference: reading.payoutId! };
        this.anomaly(reading.problem, { operation: 'create', reference: req.reference, provider_status: reading.providerStatus, payout_id: reading.payoutId });
        return { outcome: 'UNKNOWN', error: `unusable create answer (${reading.problem}${reading.providerStatus ? `: ${reading.providerStatus}` : ''})` };
      }
      if (reading.referenceId !== req.reference) {
        this.anomaly('reference_mismatch', { operation: 'create', reference: req.reference, payout_id: reading.payoutId });
        return { outcome: 'UNKNOWN', error: 'the create answer names another reference_id' };
      }
      switch (reading.status.status) {
        case 'PENDING':
        case 'SUCCESS':
          // A success is recorded from the inquiry or webhook, with its UTR; here it is accepted.
          return { outcome: 'ACCEPTED', providerReference: reading.payoutId };
        case 'FAILED':
        case 'REVERSED':
          return { outcome: 'REJECTED', reason: `${reading.providerStatus}: ${reading.status.reason}` };
      }
    }
    const error = errorOf(body);
    const text = error.description ?? `HTTP ${res.status}`;
    // A BAD_REQUEST about the idempotency key other than its absence means a payout may exist
    // under it (same key, different body): only the inquiry by reference_id may decide.
    const aboutKey = error.field?.toLowerCase() === 'x-payout-idempotency' || /idempotency/i.test(text);
    const keyMissing = /missing|mandatory/i.test(text);
    if (res.status === 400 && !(aboutKey && !keyMissing)) {
      return { outcome: 'REJECTED', reason: `${error.code ?? 'BAD_REQUEST_ERROR'}: ${text}` };
    }
    // 401/403 (keys, IP allow list), 404, 409 (same key in flight), 429 and the idempotency
    // mismatch: nothing proves that no payout exists; the service inquires and never resends blindly.
    return { outcome: 'UNKNOWN', error: `RazorpayX answered HTTP ${res.status}: ${error.code ?? ''} ${text}`.trim() };
  }

  /** Looks the payout up by our reference (contract §8); throws ProviderError when there is no usable answer. */
  async payoutStatus(reference: string): Promise<PayoutStatus> {
    const q = new URLSearchParams({ account_number: this.config.accountNumber, reference_id: reference });
    let res: HttpAnswer;
    try {
      res = await this.call('GET', `/v1/payouts?${q.toString()}`);
    } catch (err) {
      throw new ProviderError(`RazorpayX status inquiry failed: ${(err as Error).message}`, true);
    }
    const body = readJson(res.text);
    if (!res.ok) {
      const e = errorOf(body);
      throw new ProviderError(`RazorpayX status inquiry answered HTTP ${res.status}${e.description ? `: ${e.description}` : ''}`, true);
    }
    const items = decoded(Collection, body)?.items ?? null;
    if (!items) {
      this.anomaly('unparseable', { operation: 'inquiry', reference, http_status: res.status, body_bytes: Buffer.byteLength(res.text) });
      throw new ProviderError('RazorpayX status inquiry: not a collection of payouts', true);
    }
    const ours = items.filter((i) => decoded(WithReference, i)?.reference_id === reference);
    // Items under another reference mean the filter was not applied: "not there" would be a guess.
    if (ours.length !== items.length) {
      this.anomaly('reference_mismatch', { operation: 'inquiry', reference, items: items.length });
      throw new ProviderError('RazorpayX status inquiry answered payouts of other references', true);
    }
    if (ours.length === 0) return { status: 'NOT_FOUND' };
    if (ours.length > 1) {
      this.anomaly('ambiguous_reference', { operation: 'inquiry', reference, items: ours.length });
      throw new ProviderError(`RazorpayX has ${ours.length} payouts under reference_id ${reference}`, false);
    }
    const reading = readPayoutEntity(ours[0], this.now());
    if (reading.ok) return reading.status;
    if (reading.problem === 'missing_utr') {
      this.anomaly('missing_utr', { operation: 'inquiry', reference, provider_status: reading.providerStatus, payout_id: reading.payoutId });
      return { status: 'PENDING', providerReference: reading.payoutId! };
    }
    this.anomaly(reading.problem, { operation: 'inquiry', reference, provider_status: reading.providerStatus, payout_id: reading.payoutId });
    throw new ProviderError(`RazorpayX payout status not understood: ${reading.providerStatus ?? 'none'}`, true);
  }

  /**
   * A verified webhook → ProviderCallback. A verified event that carries no news for a Tijori
   * payout (another event type, a payout made outside Tijori, an unknown status) is still
   * acknowledged, as a payout NOT_FOUND that the service ignores: answering 401 would make Razorpay
   * retry it for 24 hours and then disable the webhook. Null: the signature does not verify.
   */
  parseCallback(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderCallback | null {
    const signedWith = verifyRazorpaySignature(this.config, rawBody, headerValue(headers, SIGNATURE_HEADER), this.now());
    const webhooks = this.opts.metrics?.counter('tijori_provider_webhooks_total', 'Provider webhooks by provider and signature check', ['provider', 'result']);
    if (!signedWith) {
      webhooks?.inc({ provider: this.name, result: 'bad_signature' });
      return null;
    }
    webhooks?.inc({ provider: this.name, result: signedWith === 'current' ? 'verified' : 'verified_previous_secret' });
    const eventId = headerValue(headers, EVENT_ID_HEADER);
    if (!eventId) {
      this.anomaly('missing_event_id', { operation: 'webhook' });
      return null;
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      this.anomaly('unparseable', { operation: 'webhook', event_id: eventId, body_bytes: Buffer.byteLength(rawBody) });
      // Signed, so not a forgery: 422 (as Cashfree's), never "the signature does not verify".
      throw validationError([{ field: 'body', issue: 'a signed webhook that is not JSON' }]);
    }
    if (hasDuplicateKeys(rawBody, body)) throw new AppError('INVALID_JSON', 'The callback body names a key twice in one object.');
    const ignored = (reference: string): ProviderCallback => ({ eventId, kind: 'payout', reference, status: { status: 'NOT_FOUND' } });
    const event = decoded(WebhookEnvelope, body) ?? {};
    const name = str(event.event) ?? 'unknown';
    // Freshness (issue #29 item 3): no timestamp is signed, so the payload's own created_at bounds
    // how long a captured body can be replayed. Razorpay retries for 24 h; older (or undated, or
    // from the future) is acknowledged and not used — the payout's inquiry learns its state.
    const createdAtS = event.created_at !== undefined && Number.isFinite(event.created_at) ? event.created_at : null;
    if (createdAtS === null || !isFresh(createdAtS, this.now())) {
      this.anomaly('stale_webhook', { operation: 'webhook', event: name, event_id: eventId, created_at: createdAtS });
      return { eventId, kind: 'none', reference: '', note: 'stale' };
    }
    if (!name.startsWith('payout.') || name.startsWith('payout.downtime.')) return ignored(`event:${name}`.slice(0, 200));
    const entity = event.payload?.payout?.entity;
    const createdAt = new Date(createdAtS * 1000);
    const reading = readPayoutEntity(entity, createdAt);
    // De-duplicated by what the news says — the payout entity's id and status (and whether it
    // carries the UTR) — not by the event id header, which a replayed body can carry anew.
    const newsId = (payoutId: string, status: string): string => `payout:${payoutId}:${status}`;
    // Our transaction id as the entity names it, even when the entity cannot be used.
    const named = str(decoded(WithReference, entity)?.reference_id);
    if (!reading.ok && reading.problem === 'missing_utr') {
      const reference = named;
      // Processed without its UTR: not applied as a success (the UTR follows by payout.updated or inquiry).
      this.anomaly('missing_utr', { operation: 'webhook', reference, event: name, event_id: eventId, provider_status: reading.providerStatus, payout_id: reading.payoutId });
      return reference
        ? { eventId: newsId(reading.payoutId!, 'processed-without-utr'), kind: 'payout', reference, status: { status: 'PENDING', providerReference: reading.payoutId! } }
        : ignored(reading.payoutId!);
    }
    if (!reading.ok) {
      this.anomaly(reading.problem, { operation: 'webhook', reference: named, event: name, event_id: eventId, provider_status: reading.providerStatus, payout_id: reading.payoutId });
      return ignored(reading.payoutId ?? `event:${name}`.slice(0, 200));
    }
    // A payout made outside Tijori (Dashboard, another system) carries no reference of ours.
    if (!reading.referenceId) return ignored(reading.payoutId);
    return { eventId: newsId(reading.payoutId, reading.providerStatus), kind: 'payout', reference: reading.referenceId, status: reading.status };
  }

  private unsupportedError(what: string): ProviderError {
    return new ProviderError(`${what} is not supported by razorpayx (a payouts-only provider; use a collections provider account)`, false);
  }

  createCollection(_req: CollectionRequest): Promise<CollectionIssued> {
    return Promise.reject(this.unsupportedError('collections'));
  }

  collectionStatus(_reference: string): Promise<CollectionStatus> {
    return Promise.reject(this.unsupportedError('collection status'));
  }

  /** Never throws (interface): a refund of a collection this provider never made cannot be made here. */
  submitRefund(_req: RefundRequest): Promise<RefundSubmitResult> {
    return Promise.resolve({ outcome: 'FAILED', reason: 'refunds are not supported by razorpayx (a payouts-only provider)' });
  }

  refundStatus(_reference: string): Promise<RefundStatus> {
    return Promise.reject(this.unsupportedError('refund status'));
  }
}
