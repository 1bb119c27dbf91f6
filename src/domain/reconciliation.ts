/**
 * Reconciliation of provider settlements with Tijori's records (contract §9), pure: what a line is
 * (matched, a break, or bad data), what a settlement's lines add up to, and which data is bad. The
 * import service (services/settlements/) does the reading and writing around these.
 */

import { STATEMENT_BREAK_KINDS } from './payout-statement.js';

export const BREAK_KINDS = ['AMOUNT_MISMATCH', 'UNKNOWN_ORDER', 'NOT_PAID_IN_TIJORI', 'DUPLICATE', 'UNSETTLED'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];
/** Every kind a reconciliation break may have: a settlement's, and a payout statement's (payout-statement.ts). */
export const RECON_BREAK_KINDS = [...BREAK_KINDS, ...STATEMENT_BREAK_KINDS] as const;
export const BREAK_STATUSES = ['open', 'resolved'] as const;
export type BreakStatus = (typeof BREAK_STATUSES)[number];

export const LINE_TYPES = ['PAYMENT', 'REFUND', 'ADJUSTMENT', 'CHARGEBACK'] as const;
export type LineType = (typeof LINE_TYPES)[number];

/** A line's outcome: MATCHED, the break it is, or ANOMALY (bad provider data: never matched, never moves an order). */
export type LineMatch = 'MATCHED' | Exclude<BreakKind, 'UNSETTLED'> | 'ANOMALY';

/** BAD_DATA: a field the provider sent that cannot be read or stored (an amount that is no amount, an id too long, a repeated line). */
export const ANOMALY_KINDS = ['NEGATIVE_AMOUNT', 'UNKNOWN_LINE_TYPE', 'TOTALS_MISMATCH', 'NOT_INR', 'BAD_DATA'] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/** Days a confirmed collection may wait for its settlement before it is an UNSETTLED break (organization setting). */
export const SETTLEMENT_EXPECTED_DAYS = { min: 1, max: 30, default: 3 } as const;

export function isExpectedDays(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= SETTLEMENT_EXPECTED_DAYS.min && n <= SETTLEMENT_EXPECTED_DAYS.max;
}

/** Order states in which Tijori holds a collection as confirmed: a settled payment of one matches. */
export const CONFIRMED_ORDER_STATUSES = ['PAID', 'MANUALLY_CONFIRMED', 'REFUNDED'] as const;

export function isConfirmedOrder(status: string): boolean {
  return (CONFIRMED_ORDER_STATUSES as readonly string[]).includes(status);
}

export interface LineFacts {
  type: string;
  amountPaise: number;
  feePaise: number;
  taxPaise: number;
  currency: string;
  /** Why the provider's data of this line cannot be used as sent (set by the reader or the sanitizer); absent: readable. */
  invalid?: string | null | undefined;
}

export interface Totals {
  grossPaise: number;
  feesPaise: number;
  taxPaise: number;
  refundsPaise: number;
  adjustmentsPaise: number;
  netPaise: number;
}

export function isLineType(t: string): t is LineType {
  return (LINE_TYPES as readonly string[]).includes(t);
}

/** The bad data of one line (empty: sound). */
export function lineAnomalies(l: LineFacts): Array<{ kind: AnomalyKind; detail: string }> {
  const out: Array<{ kind: AnomalyKind; detail: string }> = [];
  if (l.invalid) out.push({ kind: 'BAD_DATA', detail: l.invalid });
  if (!isLineType(l.type)) out.push({ kind: 'UNKNOWN_LINE_TYPE', detail: `line type ${JSON.stringify(l.type.slice(0, 40))} is none of ${LINE_TYPES.join(', ')}` });
  if (l.amountPaise < 0 || l.feePaise < 0 || l.taxPaise < 0) out.push({ kind: 'NEGATIVE_AMOUNT', detail: `amount ${l.amountPaise}, fee ${l.feePaise}, tax ${l.taxPaise} paise: none may be negative` });
  if (l.currency !== 'INR') out.push({ kind: 'NOT_INR', detail: `currency ${JSON.stringify(l.currency.slice(0, 10))}, not INR` });
  return out;
}

/** What the lines add up to: gross = payments, refunds, adjustments = adjustments + chargebacks, net = gross − fees − tax − refunds − adjustments. */
export function totalsOfLines(lines: readonly LineFacts[]): Totals {
  let gross = 0;
  let fees = 0;
  let tax = 0;
  let refunds = 0;
  let adjustments = 0;
  for (const l of lines) {
    if (l.type === 'PAYMENT') gross += l.amountPaise;
    else if (l.type === 'REFUND') refunds += l.amountPaise;
    else adjustments += l.amountPaise;
    fees += l.feePaise;
    tax += l.taxPaise;
  }
  return { grossPaise: gross, feesPaise: fees, taxPaise: tax, refundsPaise: refunds, adjustmentsPaise: adjustments, netPaise: gross - fees - tax - refunds - adjustments };
}

/** The differences between what a provider states and what its lines add up to (empty: they agree). */
export function totalsDifferences(stated: Partial<Totals>, lines: Totals): string[] {
  const out: string[] = [];
  for (const k of ['grossPaise', 'feesPaise', 'taxPaise', 'refundsPaise', 'adjustmentsPaise', 'netPaise'] as const) {
    const s = stated[k];
    if (s !== undefined && s !== lines[k]) out.push(`${k.replace('Paise', '')} stated ${s}, lines add up to ${lines[k]}`);
  }
  return out;
}

/** The net of one line: what it adds to (payment) or takes from (anything else) the settlement. */
export function lineNet(l: LineFacts): number {
  const sign = l.type === 'PAYMENT' ? 1 : -1;
  return sign * l.amountPaise - l.feePaise - l.taxPaise;
}

/** A settled payment against the order Tijori holds (null: none with that reference). */
export function matchPayment(
  order: { status: string; amountPaise: number } | null,
  line: { amountPaise: number },
  settledBefore: boolean,
): { match: LineMatch; expectedPaise: number | null } {
  if (order === null) return { match: 'UNKNOWN_ORDER', expectedPaise: null };
  if (settledBefore) return { match: 'DUPLICATE', expectedPaise: order.amountPaise };
  if (!isConfirmedOrder(order.status)) return { match: 'NOT_PAID_IN_TIJORI', expectedPaise: order.amountPaise };
  return { match: line.amountPaise === order.amountPaise ? 'MATCHED' : 'AMOUNT_MISMATCH', expectedPaise: order.amountPaise };
}

/** A settled (deducted) refund against the refund Tijori holds. */
export function matchRefund(
  refund: { status: string; amountPaise: number } | null,
  line: { amountPaise: number },
  settledBefore: boolean,
): { match: LineMatch; expectedPaise: number | null } {
  if (refund === null) return { match: 'UNKNOWN_ORDER', expectedPaise: null };
  if (settledBefore) return { match: 'DUPLICATE', expectedPaise: refund.amountPaise };
  if (refund.status !== 'COMPLETED') return { match: 'NOT_PAID_IN_TIJORI', expectedPaise: refund.amountPaise };
  return { match: line.amountPaise === refund.amountPaise ? 'MATCHED' : 'AMOUNT_MISMATCH', expectedPaise: refund.amountPaise };
}
