/**
 * The double-entry ledger's accounts and the postings of each event (contract §9,
 * docs/accounting.md). Pure: the writers of orders, refunds, payouts and settlements call these to
 * build an entry and post it (services/ledger/ledger.ts) in the transaction of their state change.
 *
 * Sign: a posting's amount is a debit when positive and a credit when negative, and every entry's
 * postings sum to zero (the database refuses anything else at commit). So asset and expense
 * accounts (collections_receivable, settled, fees, taxes, refunds, payouts_in_flight, payouts_paid)
 * carry positive balances, and the two counter-accounts (collections, payout_funding) negative ones.
 */

/** The fixed accounts of §9, kept per organization and provider account. */
export const LEDGER_ACCOUNTS = [
  /** Money a PSP holds for the merchant: confirmed collections − completed refunds − what settlements paid for them. */
  'collections_receivable',
  /** What the PSP credited to the merchant's bank (net), by settlement. */
  'settled',
  /** The PSP's charges, as its settlements report them. */
  'fees',
  /** The GST on those charges, as its settlements report it. */
  'taxes',
  /** Completed refunds. */
  'refunds',
  /** Payouts submitted and not final. */
  'payouts_in_flight',
  /** Payouts that succeeded (a reversal moves the amount back). */
  'payouts_paid',
  // Added to the fixed names (§9: "more may be added"):
  /** Settlement adjustments and chargebacks the PSP deducted (net = gross − fees − tax − refunds − adjustments). */
  'adjustments',
  /** Counter-account of confirmed collections: the merchant's takings (credit, negative). */
  'collections',
  /** Counter-account of payouts: the payout account's funds committed to payouts (credit, negative). */
  'payout_funding',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** What caused an entry; one entry per (kind, source). */
export const LEDGER_ENTRY_KINDS = [
  'collection_confirmed',
  'refund_completed',
  'payout_created',
  'payout_succeeded',
  'payout_failed',
  'payout_reversed',
  'settlement_imported',
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const LEDGER_SOURCE_TYPES = ['payment_order', 'refund', 'payout', 'settlement'] as const;
export type LedgerSourceType = (typeof LEDGER_SOURCE_TYPES)[number];

/** The provider account of money at the built-in sandbox (orders and routes with no provider account). */
export const BUILT_IN_SANDBOX_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export interface Posting {
  account: LedgerAccount;
  /** Debit positive, credit negative; never zero. */
  amountPaise: number;
}

/** An entry's kind, source and postings (the writer adds the organization and provider account). */
export interface EntryPlan {
  kind: LedgerEntryKind;
  sourceType: LedgerSourceType;
  postings: Posting[];
}

function positive(name: string, paise: number): number {
  if (!Number.isSafeInteger(paise) || paise <= 0) throw new RangeError(`${name} must be a positive integer number of paise, got ${String(paise)}`);
  return paise;
}

function nonNegative(name: string, paise: number): number {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`${name} must be a non-negative integer number of paise, got ${String(paise)}`);
  return paise;
}

/** Two postings moving `paise` from `credit` to `debit`. */
function transfer(kind: LedgerEntryKind, sourceType: LedgerSourceType, debit: LedgerAccount, credit: LedgerAccount, paise: number): EntryPlan {
  const amount = positive('amount', paise);
  return { kind, sourceType, postings: [{ account: debit, amountPaise: amount }, { account: credit, amountPaise: -amount }] };
}

/** An order became PAID or MANUALLY_CONFIRMED: the PSP now holds its amount for the merchant. */
export function collectionConfirmed(amountPaise: number): EntryPlan {
  return transfer('collection_confirmed', 'payment_order', 'collections_receivable', 'collections', amountPaise);
}

/** A refund completed: the PSP paid it back to the payer out of what it holds for the merchant. */
export function refundCompleted(amountPaise: number): EntryPlan {
  return transfer('refund_completed', 'refund', 'refunds', 'collections_receivable', amountPaise);
}

/** A payout was created and goes to the bank (PROCESSING): its amount is committed. */
export function payoutCreated(amountPaise: number): EntryPlan {
  return transfer('payout_created', 'payout', 'payouts_in_flight', 'payout_funding', amountPaise);
}

/** A payout succeeded: the amount left the account. */
export function payoutSucceeded(amountPaise: number): EntryPlan {
  return transfer('payout_succeeded', 'payout', 'payouts_paid', 'payouts_in_flight', amountPaise);
}

/** A payout failed (never executed, or reversed before any success): the commitment is released. */
export function payoutFailed(amountPaise: number): EntryPlan {
  return transfer('payout_failed', 'payout', 'payout_funding', 'payouts_in_flight', amountPaise);
}

/** A succeeded payout was reversed by the bank: the amount comes back. */
export function payoutReversed(amountPaise: number): EntryPlan {
  return transfer('payout_reversed', 'payout', 'payout_funding', 'payouts_paid', amountPaise);
}

/** A settlement's totals as the PSP reports them (all non-negative; `net = gross − fees − tax − refunds − adjustments`). */
export interface SettlementTotals {
  grossPaise: number;
  feesPaise: number;
  taxPaise: number;
  refundsPaise: number;
  adjustmentsPaise: number;
  netPaise: number;
}

/**
 * A settlement imported: the PSP credited `net` to the merchant's bank and kept fees, taxes and
 * adjustments; it paid out of collections_receivable its gross less the refunds it deducted (those
 * refunds left collections_receivable when they completed). A settlement whose totals do not add up
 * is refused here: it is a break to record, not an entry.
 */
export function settlementImported(t: SettlementTotals): EntryPlan {
  const gross = nonNegative('gross', t.grossPaise);
  const fees = nonNegative('fees', t.feesPaise);
  const tax = nonNegative('tax', t.taxPaise);
  const refunds = nonNegative('refunds', t.refundsPaise);
  const adjustments = nonNegative('adjustments', t.adjustmentsPaise);
  if (!Number.isSafeInteger(t.netPaise) || t.netPaise !== gross - fees - tax - refunds - adjustments) {
    throw new RangeError(`settlement net ${String(t.netPaise)} is not gross ${gross} − fees ${fees} − tax ${tax} − refunds ${refunds} − adjustments ${adjustments}`);
  }
  const postings: Posting[] = [
    { account: 'settled', amountPaise: t.netPaise },
    { account: 'fees', amountPaise: fees },
    { account: 'taxes', amountPaise: tax },
    { account: 'adjustments', amountPaise: adjustments },
    { account: 'collections_receivable', amountPaise: -(gross - refunds) },
  ].filter((p): p is Posting => p.amountPaise !== 0);
  return { kind: 'settlement_imported', sourceType: 'settlement', postings };
}

/** True when the postings sum to zero (what the database checks at commit). */
export function isBalanced(postings: readonly Posting[]): boolean {
  return postings.length >= 2 && postings.reduce((s, p) => s + p.amountPaise, 0) === 0;
}
