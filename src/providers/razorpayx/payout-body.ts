/**
 * The composite `POST /v1/payouts` body (rzp-docs api/x/payout-composite/create/bank-account.md):
 * contact + fund account + payout in one call, built only from the stored payout, so that any
 * resend under the same `X-Payout-Idempotency` key is byte-identical.
 */
import type { PayoutRequest } from '../provider.js';

/** Everything Razorpay accepts in `narration`: a-z, A-Z, 0-9 and space, at most 30. */
function narrationOf(remarks: string | null): string | undefined {
  const text = (remarks ?? '').replace(/[^A-Za-z0-9 ]+/g, ' ').replace(/ +/g, ' ').trim().slice(0, 30).trim();
  return text === '' ? undefined : text;
}

/** Contact names: 3–50 of a-z, A-Z, 0-9, space, ’ - _ / ( ) . (rzp-docs payout-composite bank-account.md). */
function nameOf(name: string, max: number): string {
  return name.replace(/[^A-Za-z0-9 ’\-_/().]+/g, ' ').replace(/ +/g, ' ').trim().slice(0, max).trim();
}

/** The composite payout body: a pure function of the request, so a resend is byte-identical. */
export function compositePayoutBody(req: PayoutRequest, accountNumber: string): string {
  const narration = narrationOf(req.remarks);
  return JSON.stringify({
    account_number: accountNumber,
    amount: req.amountPaise,
    currency: 'INR',
    mode: req.mode,
    purpose: 'payout',
    fund_account: {
      account_type: 'bank_account',
      bank_account: { name: nameOf(req.beneficiary.name, 120), ifsc: req.beneficiary.ifsc, account_number: req.beneficiary.accountNumber },
      contact: { name: nameOf(req.beneficiary.name, 50), type: 'vendor' },
    },
    // Low balance fails the payout at once rather than parking it for up to 3 months.
    queue_if_low_balance: false,
    reference_id: req.reference,
    ...(narration ? { narration } : {}),
  });
}
