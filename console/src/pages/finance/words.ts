/** What the finance pages say for the ledger's and reconciliation's names. */
import { BREAK_KINDS } from '../../generated/server.js';

/** A line's match or a break's kind, in words a finance person reads. */
export const MATCH_WORDS: Record<string, string> = {
  MATCHED: 'Matched',
  AMOUNT_MISMATCH: 'Amount differs from Tijori’s',
  UNKNOWN_ORDER: 'No such order in Tijori',
  NOT_PAID_IN_TIJORI: 'Not paid in Tijori',
  DUPLICATE: 'Settled twice',
  UNSETTLED: 'Not settled in time',
  ANOMALY: 'Bad provider data',
  // A payout account's statement against Tijori's payouts (docs/accounting.md).
  PAYOUT_NOT_DEBITED: 'Payout paid but not debited',
  DEBIT_WITHOUT_PAYOUT: 'Debit without a Tijori payout',
  DEBIT_AMOUNT_MISMATCH: 'Debit differs from the payout',
  FAILED_BUT_DEBITED: 'Failed payout debited, not credited back',
  REVERSED_NOT_CREDITED: 'Reversed payout not credited back',
};

export const matchWords = (m: string): string => MATCH_WORDS[m] ?? m;

export { BREAK_KINDS };

export const providerWords = (p: string): string => (p === 'cashfree' ? 'Cashfree' : p === 'razorpayx' ? 'RazorpayX' : p === 'sandbox' ? 'Sandbox' : p);

/** A short id to show (the full one is in the link's title). */
export const shortId = (id: string): string => id.slice(0, 8);
