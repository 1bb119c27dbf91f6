/**
 * The provider adapter interface: what Tijori needs from a UPI PSP (collections) and a bank
 * (payouts). Every call has a timeout. Answers that do not fit these shapes are errors, never a
 * guessed status (architecture habit 8). Our own reference (the order's `tr` / the payout's
 * transaction_id) is the provider's unique key, so the provider deduplicates too.
 */
import type { PayoutMode } from '../domain/payout.js';

export interface CollectionRequest {
  /** Our unique reference: the UPI `tr`, at most 35 alphanumerics. */
  reference: string;
  amountPaise: number;
  /** Shown to the payer (`tn`). */
  note: string;
  /** Payee name shown by UPI apps (`pn`); the provider may use its own registered name. */
  payeeName: string;
  expiresAt: Date;
  /** `mc`: 4-digit merchant category code, when the route has one. */
  merchantCategoryCode?: string | undefined;
  /**
   * The collecting merchant (collectingMerchant: the organization's id for the built-in sandbox, the
   * provider account's id for an account of the sandbox kind): the sandbox settles per merchant; a
   * real provider knows the merchant from the account's credentials and ignores it.
   */
  merchant?: string | undefined;
  /** The payer as the order knows them, for providers that require customer details (Cashfree). */
  customer?: { name: string | null; email: string | null; phone: string | null } | undefined;
}

export interface CollectionIssued {
  providerReference: string;
  /** The intent exactly as issued: stored and returned byte for byte. */
  upiUri: string;
}

export type CollectionStatus =
  | { status: 'NOT_FOUND' }
  | { status: 'PENDING'; providerStatus: string }
  /** amountPaise and providerReference: what the provider says was paid, and its id of the collection (checked against the order). */
  | { status: 'SUCCESS'; providerStatus: 'SUCCESS'; utr: string; paidAt: Date; amountPaise: number; providerReference: string }
  | { status: 'FAILED'; providerStatus: string; reason: string };

export interface PayoutRequest {
  /** Our transaction_id: the provider's idempotency key for execution. */
  reference: string;
  amountPaise: number;
  mode: PayoutMode;
  beneficiary: { name: string; accountNumber: string; ifsc: string };
  remarks: string | null;
}

export type PayoutSubmitResult =
  | { outcome: 'ACCEPTED'; providerReference: string }
  /** The provider answered definitively that it will not execute. */
  | { outcome: 'REJECTED'; reason: string }
  /** Timeout, 5xx, connection reset: the transfer may or may not happen. Inquire, never resend. */
  | { outcome: 'UNKNOWN'; error: string };

export type PayoutStatus =
  | { status: 'NOT_FOUND' }
  | { status: 'PENDING'; providerReference: string }
  | { status: 'SUCCESS'; providerReference: string; utr: string; processedAt: Date }
  | { status: 'FAILED'; providerReference: string; reason: string }
  /**
   * The provider undid the transfer and credited the amount back (RazorpayX `reversed`). After a
   * SUCCESS this is the payout's move to REVERSED; before any success it is simply a failure.
   */
  | { status: 'REVERSED'; providerReference: string; reason: string; reversedAt: Date };

export interface RefundRequest {
  /** Our refund_id: the provider's idempotency key, so a resent request never refunds twice. */
  reference: string;
  /** Our reference of the collection being refunded (the order_id). */
  collectionReference: string;
  amountPaise: number;
}

export type RefundSubmitResult =
  | { outcome: 'COMPLETED'; providerReference: string; completedAt: Date }
  /** The provider answered definitively that the refund failed or will not be made. */
  | { outcome: 'FAILED'; reason: string }
  /** Timeout, 5xx, an answer that does not fit: the refund may or may not happen. Inquire. */
  | { outcome: 'UNKNOWN'; error: string };

export type RefundStatus =
  | { status: 'NOT_FOUND' }
  | { status: 'COMPLETED'; providerReference: string; completedAt: Date }
  | { status: 'FAILED'; reason: string };

/** A verified provider callback, normalised. */
export type ProviderCallback =
  | { eventId: string; kind: 'collection'; reference: string; status: CollectionStatus }
  | { eventId: string; kind: 'payout'; reference: string; status: PayoutStatus }
  /** Verified news we do not act on (e.g. a Cashfree refund webhook: refunds settle by inquiry): acknowledged, not stored. */
  | { eventId: string; kind: 'none'; reference: string; note: string };

/** A payout account's balance as its provider publishes it (RazorpayX: `GET /v1/banking_balances`). */
export interface PayoutAccountBalance {
  balancePaise: number;
  /** What a payout can use now (RazorpayX: `available_amount`; the balance where it says nothing). */
  availablePaise: number;
  /** When the provider last read it from the bank; null when it does not say. */
  refreshedAt: Date | null;
}

/** One line of a payout account's statement, as Tijori reconciles it against its payouts. */
export interface StatementLine {
  /** The provider's id of the line (RazorpayX `txn_…`). */
  lineId: string;
  /** PAYOUT: a payout's debit; REVERSAL: a payout's amount credited back; OTHER: anything else (a top-up, a fee). */
  kind: 'PAYOUT' | 'REVERSAL' | 'OTHER';
  /** The provider's payout id the line is about (PAYOUT, REVERSAL), which Tijori stores as the payout's bank_reference. */
  providerPayoutId: string | null;
  debitPaise: number;
  creditPaise: number;
  /** What the provider charged for it, tax included, and the tax alone (0 where it says nothing). */
  feesPaise: number;
  taxPaise: number;
  at: Date;
}

/** What a payout provider publishes of the account itself; absent where it publishes nothing. */
export interface PayoutAccountReader {
  balance(): Promise<PayoutAccountBalance>;
  /** Every line of [from, to), oldest first; throws ProviderError when there is no usable answer. */
  statement(from: Date, to: Date): Promise<StatementLine[]>;
}

/**
 * One line of a provider's settlement, normalised (contract §9). Amounts in paise as the provider
 * reported them, sign included (a negative fee is bad data for reconciliation to catch, not to
 * hide); `type` as reported once mapped: one of SETTLEMENT_LINE_TYPES, or the provider's own word
 * when it is none of them (an anomaly, never guessed).
 */
export interface ProviderSettlementLine {
  /** The provider's id of this line (unique within the settlement). */
  lineId: string;
  type: string;
  /** Our references as the provider echoes them: the order's order_id, the refund's refund_id. */
  orderReference: string | null;
  refundReference: string | null;
  /** The provider's id of the payment (or refund) the line settles. */
  providerPaymentId: string | null;
  amountPaise: number;
  feePaise: number;
  taxPaise: number;
  currency: string;
  /** Why this line's data cannot be used as the provider sent it (an unreadable amount, an id too long): an anomaly, never matched. */
  invalid?: string | null;
}

export const SETTLEMENT_LINE_TYPES = ['PAYMENT', 'REFUND', 'ADJUSTMENT', 'CHARGEBACK'] as const;
export type SettlementLineType = (typeof SETTLEMENT_LINE_TYPES)[number];

export interface SettlementTotalsReported {
  grossPaise: number;
  feesPaise: number;
  taxPaise: number;
  refundsPaise: number;
  adjustmentsPaise: number;
  netPaise: number;
}

/** One credit of the provider to the merchant's bank, with every line it covers. */
export interface ProviderSettlement {
  providerSettlementId: string;
  utr: string | null;
  settledAt: Date;
  currency: string;
  /** The totals as the provider states them apart from its lines; null when it states only lines. */
  totals: SettlementTotalsReported | null;
  /** What the provider states of the fees and taxes alone, when it states those and not the rest (Cashfree). */
  charges: { feesPaise: number; taxPaise: number } | null;
  lines: ProviderSettlementLine[];
  /** Bad data of the settlement itself (an unreadable date, a UTR too long): anomalies of the settlement, its lines still matched. */
  problems?: string[];
  /**
   * Where the rest of a long settlement's lines start (Provider.fetchSettlementLines); null or
   * absent when `lines` are all of them. A settlement of a million lines is never one answer.
   */
  linesCursor?: string | null;
}

export interface SettlementLinePage {
  lines: ProviderSettlementLine[];
  /** Where the next page of lines starts; null on the last one. */
  cursor: string | null;
}

export interface SettlementPage {
  settlements: ProviderSettlement[];
  /** Settlements that cannot be stored at all (no usable id): recorded as anomalies, the rest of the window imported. */
  rejected?: Array<{ providerSettlementId: string; detail: string }>;
  /** Where the next page starts; null on the last one. */
  cursor: string | null;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** true when the provider may have acted (timeouts, 5xx). */
    readonly uncertain: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface Provider {
  readonly name: string;
  /**
   * Whether this provider account moves real money: the one place that decides `livemode` of the
   * orders and payouts made with it (contract §7, §8). The sandbox (and a provider's own sandbox
   * or a simulator) is false; a connector on the provider's production address is true.
   */
  readonly livemode: boolean;
  createCollection(req: CollectionRequest): Promise<CollectionIssued>;
  /** `timeoutMs` bounds this one call (the live check of an order retrieval uses a short bound). */
  collectionStatus(reference: string, opts?: { timeoutMs?: number }): Promise<CollectionStatus>;
  submitPayout(req: PayoutRequest): Promise<PayoutSubmitResult>;
  payoutStatus(reference: string): Promise<PayoutStatus>;
  /** Asks for a refund of a paid collection; our reference is the provider's key. Never throws. */
  submitRefund(req: RefundRequest): Promise<RefundSubmitResult>;
  /** Inquires a refund by our reference; throws ProviderError when there is no usable answer. */
  refundStatus(reference: string, opts?: { collectionReference?: string }): Promise<RefundStatus>;
  /**
   * Verifies the provider's signature over the raw body; null when it does not verify. A signed
   * body that names a key twice in one object throws INVALID_JSON (400): it has no one meaning.
   */
  parseCallback(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderCallback | null;
  /** The payout account's balance and statement, where the provider publishes them (contract §9, issue #33 item 6). */
  readonly payoutAccount?: PayoutAccountReader;
  /**
   * The settlements of a collections account made since `since` (null: everything the provider
   * keeps), a page at a time from `cursor` (null: the first). Only complete settlements are
   * returned. Absent where the provider has no settlements for us (RazorpayX: payouts only).
   * Throws ProviderError when there is no usable answer.
   */
  fetchSettlements?(q: { merchant: string; since: Date | null; cursor: string | null }): Promise<SettlementPage>;
  /** The next page of a settlement's lines after `cursor` (its `linesCursor`, then each page's). */
  fetchSettlementLines?(q: { merchant: string; providerSettlementId: string; cursor: string }): Promise<SettlementLinePage>;
}

/**
 * Who the merchant is at the provider for collections through this account: the organization for
 * the built-in sandbox (null account), the account itself otherwise. An organization's provider
 * accounts of the sandbox kind are so each a merchant account of its own at the sandbox PSP, settled
 * apart from the built-in one (contract §9: accounts per provider account). Real providers know the
 * merchant from the account's credentials and ignore it.
 */
export function collectingMerchant(orgId: string, providerAccountId: string | null): string {
  return providerAccountId ?? orgId;
}
