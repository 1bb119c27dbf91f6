/**
 * The sandbox PSP's settlement arithmetic (contract §9), pure: a fee of 2 % of each payment and GST
 * of 18 % of each fee, each rounded half up to the paisa in integer arithmetic (no floats: a
 * float's 0.5 is not always 0.5); completed refunds deducted with no fee; a payment whose amount
 * ends in 91 paise settled for 100 paise less than it was paid, a mismatch for reconciliation to find.
 */

export const SANDBOX_FEE_PERCENT = 2;
export const SANDBOX_GST_PERCENT = 18;
/** A payment of an amount ending in these paise is settled short (contract §9). */
export const SANDBOX_SHORT_SETTLED_SUFFIX = 91;
export const SANDBOX_SHORT_BY_PAISE = 100;

/** `amount * percent / 100`, rounded half up to the paisa (amount >= 0). */
export function percentHalfUp(amountPaise: number, percent: number): number {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) throw new RangeError(`not an amount in paise: ${amountPaise}`);
  return Math.floor((amountPaise * percent + 50) / 100);
}

export interface PaymentToSettle {
  collectionReference: string;
  providerReference: string;
  paidPaise: number;
}

export interface RefundToSettle {
  collectionReference: string;
  refundReference: string;
  providerReference: string;
  amountPaise: number;
}

export interface SettlementLineDraft {
  type: 'PAYMENT' | 'REFUND';
  collectionReference: string;
  refundReference: string | null;
  providerReference: string;
  amountPaise: number;
  feePaise: number;
  taxPaise: number;
}

export interface SettlementTotals {
  gross: number;
  fees: number;
  tax: number;
  refunds: number;
  adjustments: number;
  net: number;
}

/** The line of a payment: what is settled for it (short by 100 paise for a `…91` amount) and its fee and GST (on the amount paid). */
export function paymentLine(p: PaymentToSettle): SettlementLineDraft {
  const amount = p.paidPaise % 100 === SANDBOX_SHORT_SETTLED_SUFFIX ? p.paidPaise - SANDBOX_SHORT_BY_PAISE : p.paidPaise;
  // §9: "fee 2% of each payment": of the payment as it was paid; only the settled amount is short.
  const fee = percentHalfUp(p.paidPaise, SANDBOX_FEE_PERCENT);
  return { type: 'PAYMENT', collectionReference: p.collectionReference, refundReference: null, providerReference: p.providerReference, amountPaise: amount, feePaise: fee, taxPaise: percentHalfUp(fee, SANDBOX_GST_PERCENT) };
}

export function refundLine(r: RefundToSettle): SettlementLineDraft {
  return { type: 'REFUND', collectionReference: r.collectionReference, refundReference: r.refundReference, providerReference: r.providerReference, amountPaise: r.amountPaise, feePaise: 0, taxPaise: 0 };
}

/** gross = payments, refunds deducted, net = gross − fees − tax − refunds − adjustments. */
export function settlementTotals(lines: SettlementLineDraft[]): SettlementTotals {
  let gross = 0;
  let fees = 0;
  let tax = 0;
  let refunds = 0;
  for (const l of lines) {
    if (l.type === 'PAYMENT') gross += l.amountPaise;
    else refunds += l.amountPaise;
    fees += l.feePaise;
    tax += l.taxPaise;
  }
  return { gross, fees, tax, refunds, adjustments: 0, net: gross - fees - tax - refunds };
}
