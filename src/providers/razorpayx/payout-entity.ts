/**
 * RazorpayX's payout entity → Tijori's PayoutStatus. Every status the documents name is mapped
 * explicitly (rzp-docs api/x/payouts/entity.md, x/payouts/states-life-cycle.md); anything else is
 * an anomaly: reported, never guessed into a money move.
 *
 * | RazorpayX    | Tijori   | why |
 * |--------------|----------|-----|
 * | pending      | PENDING  | awaiting approval at RazorpayX (Approval Workflow); no money moved |
 * | queued       | PENDING  | low balance or a bank down; no money moved yet |
 * | scheduled    | PENDING  | waiting for its time (states-life-cycle.md); no money moved yet |
 * | processing   | PENDING  | at the bank; IMPS may stay here T+3 working days ("deemed success"): never a failure |
 * | processed    | SUCCESS  | credited; needs a UTR (else still PENDING: the UTR comes with `payout.updated`) |
 * | reversed     | REVERSED | undone, amount credited back (after `processed`; before it, the service makes it FAILED) |
 * | failed       | FAILED   | failed at the partner bank |
 * | rejected     | FAILED   | rejected in the Approval Workflow; no money moved |
 * | cancelled    | FAILED   | cancelled while queued/scheduled; no money moved |
 */
import type { PayoutStatus } from '../provider.js';
import { decoded, str } from '../decode.js';
import { Named, PayoutEntity } from './schemas.js';

export type RazorpayXPayoutStatus = 'pending' | 'queued' | 'scheduled' | 'processing' | 'processed' | 'reversed' | 'failed' | 'rejected' | 'cancelled';

export const RAZORPAYX_PAYOUT_STATUSES: readonly RazorpayXPayoutStatus[] = [
  'pending', 'queued', 'scheduled', 'processing', 'processed', 'reversed', 'failed', 'rejected', 'cancelled',
];

/** What a payout entity says, or why it cannot be used. */
export type EntityReading =
  | { ok: true; status: Exclude<PayoutStatus, { status: 'NOT_FOUND' }>; providerStatus: RazorpayXPayoutStatus; referenceId: string | null; payoutId: string }
  | { ok: false; problem: 'not_a_payout' | 'unknown_status' | 'missing_utr'; providerStatus: string | null; payoutId: string | null };

function reasonOf(entity: PayoutEntity, fallback: string): string {
  const d = entity.status_details;
  const text = d ? [str(d.reason), str(d.description)].filter(Boolean).join(': ') : '';
  return text || fallback;
}

/** What can still be said of something that is not a usable payout entity (for the anomaly record). */
function named(entity: unknown): { providerStatus: string | null; payoutId: string | null } {
  const o = decoded(Named, entity);
  return { providerStatus: str(o?.status), payoutId: str(o?.id) };
}

/**
 * Reads one payout entity. `at` is when this news is from (the webhook's created_at, or the time of
 * the inquiry): the entity itself carries no processed or reversed time.
 */
export function readPayoutEntity(entity: unknown, at: Date): EntityReading {
  const e = Array.isArray(entity) ? null : decoded(PayoutEntity, entity);
  if (!e) return { ok: false, problem: 'not_a_payout', ...(Array.isArray(entity) ? { providerStatus: null, payoutId: null } : named(entity)) };
  const payoutId = e.id;
  const status = str(e.status);
  const referenceId = str(e.reference_id);
  const base = { providerStatus: status as RazorpayXPayoutStatus, referenceId, payoutId };
  switch (status) {
    case 'pending':
    case 'queued':
    case 'scheduled':
    case 'processing':
      return { ok: true, ...base, status: { status: 'PENDING', providerReference: payoutId } };
    case 'processed': {
      const utr = str(e.utr);
      // The documents' own samples show `processed` with utr null (NEFT: the UTR follows within
      // ~90 s by payout.updated). Without a UTR it is no success yet: the service waits for it.
      if (!utr) return { ok: false, problem: 'missing_utr', providerStatus: status, payoutId };
      return { ok: true, ...base, status: { status: 'SUCCESS', providerReference: payoutId, utr, processedAt: at } };
    }
    case 'reversed':
      return { ok: true, ...base, status: { status: 'REVERSED', providerReference: payoutId, reason: reasonOf(e, 'reversed by the bank'), reversedAt: at } };
    case 'failed':
      return { ok: true, ...base, status: { status: 'FAILED', providerReference: payoutId, reason: reasonOf(e, 'failed at the bank') } };
    case 'rejected':
      return { ok: true, ...base, status: { status: 'FAILED', providerReference: payoutId, reason: reasonOf(e, 'rejected at RazorpayX') } };
    case 'cancelled':
      return { ok: true, ...base, status: { status: 'FAILED', providerReference: payoutId, reason: reasonOf(e, 'cancelled at RazorpayX') } };
    default:
      return { ok: false, problem: 'unknown_status', providerStatus: status, payoutId };
  }
}
