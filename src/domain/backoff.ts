/**
 * When to ask the provider again about a transfer whose outcome we did not hear (a payout attempt,
 * a refund): the base delay, doubling per inquiry, capped. One rule for payouts and refunds.
 */
export interface InquiryBackoff {
  inquiryBaseMs: number;
  inquiryMaxMs: number;
}

/** The doubling stops at 2^20 (past any useful cap; it keeps the arithmetic finite). */
const MAX_DOUBLINGS = 20;

export function inquiryDelayMs(b: InquiryBackoff, inquiries: number): number {
  return Math.min(b.inquiryBaseMs * 2 ** Math.min(inquiries, MAX_DOUBLINGS), b.inquiryMaxMs);
}
