/**
 * How a payout is shown to merchants: the `data` of API §2.3 (create and retrieval) and the event
 * payloads of §6.4. Only the last four digits of an account number ever appear here.
 */
import type { API_PAYOUT_STATUSES, PayoutAttemptStatus } from '../../domain/payout.js';
import type { AttemptRow, PayoutRow } from '../../store/repos/payouts-repo.js';

type PayoutFacts = Pick<
  PayoutRow,
  | 'id' | 'transaction_id' | 'client_reference' | 'amount_paise' | 'currency' | 'mode' | 'beneficiary_id' | 'beneficiary_name'
  | 'beneficiary_last4' | 'beneficiary_ifsc' | 'beneficiary_bank_name' | 'livemode'
>;

export function beneficiaryView(p: PayoutFacts) {
  return {
    id: p.beneficiary_id,
    name: p.beneficiary_name,
    account_number_last4: p.beneficiary_last4,
    ifsc: p.beneficiary_ifsc,
    bank_name: p.beneficiary_bank_name,
  };
}

/**
 * Merchants see an attempt as PROCESSING until the bank decides it. An attempt proven not executed
 * shows as FAILED: it moved no money, and a later attempt (same reference) carries the payout on.
 */
export function attemptStatusView(status: PayoutAttemptStatus): (typeof API_PAYOUT_STATUSES)[number] {
  switch (status) {
    case 'PENDING_SUBMIT':
    case 'PROCESSING':
    case 'UNKNOWN':
      return 'PROCESSING';
    case 'SUCCESS':
      return 'SUCCESS';
    case 'FAILED':
    case 'NOT_EXECUTED':
      return 'FAILED';
    case 'REVERSED':
      return 'REVERSED';
  }
}

type AttemptFacts = Pick<AttemptRow, 'status' | 'bank_reference' | 'utr'>;

export function payoutView(p: PayoutRow, attempts: AttemptFacts[]) {
  return {
    id: p.id,
    transaction_id: p.transaction_id,
    client_reference: p.client_reference,
    amount_paise: p.amount_paise,
    currency: p.currency,
    mode: p.mode,
    status: p.status,
    beneficiary: beneficiaryView(p),
    attempts: attempts.map((a) => ({ status: attemptStatusView(a.status), bank_reference: a.bank_reference, utr: a.utr })),
    bank_reference: p.bank_reference,
    utr: p.utr,
    processed_at: p.processed_at ? new Date(p.processed_at).toISOString() : null,
    failure_reason: p.failure_reason,
    remarks: p.remarks,
    livemode: p.livemode,
    created_at: new Date(p.created_at).toISOString(),
  };
}

/**
 * payoutView for the merchant API: an API client's payouts are never console payouts (those
 * belong to the console principal, migration 0023), so their status is always one of API §3.2.
 */
export function merchantPayoutView(p: PayoutRow, attempts: AttemptFacts[]) {
  const v = payoutView(p, attempts);
  const status = v.status;
  if (status === 'PENDING_APPROVAL' || status === 'REJECTED') throw new Error(`payout ${p.id} in ${status} reached the merchant API`);
  return { ...v, status };
}

/** The fields every `payout.*` event's `data` opens with. */
export function payoutEventBase(p: PayoutFacts) {
  return {
    payout_id: p.id,
    transaction_id: p.transaction_id,
    client_reference: p.client_reference,
    amount_paise: p.amount_paise,
    currency: p.currency,
    mode: p.mode,
    // Contract §7: every event's `data` says whether real money moved.
    livemode: p.livemode,
  };
}

export function createdEventData(p: PayoutFacts, createdAt: Date) {
  return { ...payoutEventBase(p), status: 'PROCESSING', beneficiary: beneficiaryView(p), created_at: createdAt.toISOString() };
}

/** Exactly the fields of API §6.4 `payout.success`. */
export function successEventData(p: PayoutFacts, s: { bankReference: string; utr: string; processedAt: Date }) {
  return {
    ...payoutEventBase(p),
    status: 'SUCCESS',
    beneficiary: beneficiaryView(p),
    bank_reference: s.bankReference,
    utr: s.utr,
    processed_at: s.processedAt.toISOString(),
  };
}

export function failedEventData(p: PayoutFacts, f: { reason: string; bankReference: string | null; failedAt: Date }) {
  return {
    ...payoutEventBase(p),
    status: 'FAILED',
    beneficiary: beneficiaryView(p),
    failure_reason: f.reason,
    bank_reference: f.bankReference,
    failed_at: f.failedAt.toISOString(),
  };
}

/**
 * `payout.reversed` (opt-in, contract §7; issue #22): a payout that had succeeded was undone by the
 * bank and its amount credited back. It keeps the UTR and time of the success it undid.
 */
export function reversedEventData(
  p: PayoutFacts,
  r: { reason: string; bankReference: string | null; utr: string | null; processedAt: Date | string | null; reversedAt: Date },
) {
  return {
    ...payoutEventBase(p),
    status: 'REVERSED',
    beneficiary: beneficiaryView(p),
    failure_reason: r.reason,
    bank_reference: r.bankReference,
    utr: r.utr,
    processed_at: r.processedAt ? new Date(r.processedAt).toISOString() : null,
    reversed_at: r.reversedAt.toISOString(),
  };
}
