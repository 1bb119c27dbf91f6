/**
 * The console's view of the provider checks log (migration 0029): an order's status checks and a
 * payout's inquiries, attempt by attempt. Reads only, scoped to the organization: another
 * organization's order or payout is "not found".
 */
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import * as money from '../../store/repos/console-money-repo.js';
import * as ordersRepo from '../../store/repos/payment-orders-repo.js';
import { checksOf, type CheckRow } from '../../store/repos/provider-checks-repo.js';
import { orderRefFor } from '../payin/payment-order-view.js';

/** The newest checks shown per order or payout (an order polled for its whole window has hundreds). */
export const CHECKS_SHOWN = 200;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function common(r: CheckRow) {
  return {
    checked_at: r.checked_at.toISOString(),
    reason: r.reason,
    provider: r.provider,
    asked: r.reference,
    answer: r.answer,
    outcome: r.outcome,
    duration_ms: r.duration_ms,
    error: text(r.detail?.error),
  };
}

export interface ChecksPage<T> {
  checks: T[];
  /** true when older checks exist beyond the CHECKS_SHOWN newest. */
  truncated: boolean;
}

export class ConsoleProviderChecks {
  constructor(private readonly db: Db) {}

  /** Oldest first (the order of the state moves beside them). */
  async orderChecks(orgId: string, ref: string): Promise<ChecksPage<ReturnType<typeof orderCheckView>>> {
    const r = orderRefFor(ref.trim());
    const o = r ? await ordersRepo.findByIdOrOrderId(this.db, r) : null;
    if (!o || o.org_id !== orgId) throw notFound('payment order');
    const rows = await checksOf(this.db, orgId, 'payment_order', o.id, CHECKS_SHOWN + 1);
    return { checks: rows.slice(0, CHECKS_SHOWN).reverse().map(orderCheckView), truncated: rows.length > CHECKS_SHOWN };
  }

  /** Every inquiry of every attempt, oldest first, with the attempt's number. */
  async payoutInquiries(orgId: string, ref: string): Promise<ChecksPage<ReturnType<typeof inquiryView>>> {
    const key = isUuid(ref) ? { id: ref.toLowerCase() } : { transactionId: ref };
    const p = await money.findPayoutInOrg(this.db, orgId, key);
    if (!p) throw notFound('payout');
    const rows = await checksOf(this.db, orgId, 'payout', p.id, CHECKS_SHOWN + 1);
    return { checks: rows.slice(0, CHECKS_SHOWN).reverse().map(inquiryView), truncated: rows.length > CHECKS_SHOWN };
  }
}

/** An order's check: the provider's status words, UTR and amount it reported, and what the service did. */
function orderCheckView(r: CheckRow) {
  const d = r.detail ?? {};
  return {
    ...common(r),
    provider_status: text(d.provider_status),
    utr: text(d.utr),
    amount_paise: typeof d.amount_paise === 'number' ? d.amount_paise : null,
    provider_reference: text(d.provider_reference),
    failure_reason: text(d.reason),
  };
}

/** A payout inquiry: the attempt, the bank's answer, the status it maps to, bank reference and UTR. */
function inquiryView(r: CheckRow) {
  const d = r.detail ?? {};
  return {
    ...common(r),
    attempt_no: r.attempt_no,
    mapped_status: text(d.mapped_status),
    bank_reference: text(d.bank_reference),
    utr: text(d.utr),
    failure_reason: text(d.reason),
  };
}
