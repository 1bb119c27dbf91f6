/**
 * The provider checks log (migration 0029, docs/console.md "Provider checks and inquiries"): what
 * each status call to a provider asked, what came back and what the service did with it. The
 * callers (live check, expiry worker, payout inquiry) record a check in the transaction that
 * applies its answer; a call that got no answer is recorded on its own, best effort: the log is an
 * observation, so failing to write it never stops the money flow it describes.
 */
import { storableText } from '../../providers/anomalies.js';
import type { Logger } from '../../observability/logger.js';
import type { CollectionStatus, PayoutStatus } from '../../providers/provider.js';
import type { Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/provider-checks-repo.js';
import { within } from '../shared/within.js';

export type { CheckFacts } from '../../store/repos/provider-checks-repo.js';

/** A collection status answer as the log keeps it: the normalised answer and its facts. */
export function collectionAnswer(st: CollectionStatus): { answer: repo.CheckAnswer; detail: Record<string, unknown> | null } {
  switch (st.status) {
    case 'NOT_FOUND':
      return { answer: 'NOT_FOUND', detail: null };
    case 'PENDING':
      return { answer: 'PENDING', detail: { provider_status: st.providerStatus } };
    case 'SUCCESS':
      return {
        answer: 'SUCCESS',
        detail: { provider_status: st.providerStatus, utr: st.utr, amount_paise: st.amountPaise, provider_reference: st.providerReference, paid_at: st.paidAt.toISOString() },
      };
    case 'FAILED':
      return { answer: 'FAILED', detail: { provider_status: st.providerStatus, reason: st.reason } };
  }
}

/** A payout status answer as the log keeps it (bank reference and UTR when the bank gave them). */
export function payoutAnswer(st: PayoutStatus): { answer: repo.CheckAnswer; detail: Record<string, unknown> | null } {
  switch (st.status) {
    case 'NOT_FOUND':
      return { answer: 'NOT_FOUND', detail: null };
    case 'PENDING':
      return { answer: 'PENDING', detail: { bank_reference: st.providerReference } };
    case 'SUCCESS':
      return { answer: 'SUCCESS', detail: { bank_reference: st.providerReference, utr: st.utr, processed_at: st.processedAt.toISOString() } };
    case 'FAILED':
      return { answer: 'FAILED', detail: { bank_reference: st.providerReference, reason: st.reason } };
    case 'REVERSED':
      return { answer: 'REVERSED', detail: { bank_reference: st.providerReference, reason: st.reason, reversed_at: st.reversedAt.toISOString() } };
  }
}

/** The error of a call that got no usable answer, kept short (never a credential: adapters' messages name no secret). */
export function noAnswer(err: unknown): { answer: 'NO_ANSWER'; detail: Record<string, unknown> } {
  const message = err instanceof Error ? err.message : String(err);
  return { answer: 'NO_ANSWER', detail: { error: message.slice(0, 300) } };
}

/** Writes a check outside any transaction, logging instead of throwing (see the module's comment). */
export async function recordBestEffort(log: Logger, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'a provider check could not be recorded');
  }
}

/**
 * Provider-given text as PostgreSQL stores it: a jsonb value refuses \u0000 and a lone surrogate
 * (an emoji cut in half by a provider's message truncation), and the order's check is written in
 * the transaction that applies the answer, so an unstorable string would roll the state move back.
 * The log must never stop the money flow it describes.
 */
export function storableFacts(c: repo.CheckFacts): repo.CheckFacts {
  const storable = (v: unknown): unknown => {
    if (typeof v === 'string') return storableText(v);
    if (Array.isArray(v)) return v.map(storable);
    if (v !== null && typeof v === 'object' && !(v instanceof Date)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableText(k), storable(x)]));
    return v;
  };
  return { ...c, reason: storableText(c.reason), provider: storableText(c.provider), reference: storableText(c.reference), outcome: storableText(c.outcome), detail: c.detail === null ? null : (storable(c.detail) as Record<string, unknown>) };
}

export const recordOrderCheck = (q: Queryable, orderId: string, c: repo.CheckFacts) => repo.insertOrderCheck(q, orderId, storableFacts(c));
export const recordAttemptInquiry = (q: Queryable, attemptId: string, c: repo.CheckFacts) => repo.insertAttemptInquiry(q, attemptId, storableFacts(c));

/** An answer as the log describes it (collectionAnswer, payoutAnswer, noAnswer). */
export type AnswerFacts = { answer: repo.CheckAnswer; detail: Record<string, unknown> | null };

/** One status call to a provider: its answer (or why there is none), and the log entry that describes it. */
export interface ProviderCall<A> {
  result: { answer: A } | { error: Error };
  /** The checks log entry of this call: what it asked, the answer as described, what it led to, how long the call took. */
  facts(answer: AnswerFacts, outcome: string): repo.CheckFacts;
}

/**
 * Asks a provider for a status and times the call (the time taken is the call's, not the
 * recording's), for the checks log: the one way the live check, the expiry worker's final check
 * and the payout inquiry ask. With `timeoutMs`, no answer within it (plus 100 ms of slack for the
 * adapter's own time-out) is an error "no answer within … ms". Never throws.
 */
export async function askProvider<P extends { name: string }, A>(c: {
  reason: string;
  reference: string;
  provider: () => Promise<P>;
  ask: (provider: P) => Promise<A>;
  timeoutMs?: number;
}): Promise<ProviderCall<A>> {
  let providerName = 'unknown';
  const started = performance.now();
  let result: ProviderCall<A>['result'];
  try {
    const provider = await c.provider();
    providerName = provider.name;
    const answer = c.timeoutMs === undefined ? await c.ask(provider) : await within(c.ask(provider), c.timeoutMs + 100);
    result = answer === null ? { error: new Error(`no answer within ${c.timeoutMs} ms`) } : { answer: answer as A };
  } catch (err) {
    result = { error: err instanceof Error ? err : new Error(String(err)) };
  }
  const durationMs = performance.now() - started;
  return { result, facts: (answer, outcome) => ({ reason: c.reason, provider: providerName, reference: c.reference, ...answer, outcome, durationMs }) };
}
