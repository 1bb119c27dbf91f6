/**
 * The console's money pages (issue #19 item 3): an organization's payment orders and payouts,
 * newest first, filtered, searched by any reference, paginated by keyset; one order or payout with
 * its history, attempts and callbacks. Reads only; every query is scoped to the organization.
 */
import * as orderReads from '../../store/repos/payment-order-reads-repo.js';
import { validationError } from '../../domain/errors.js';
import { PAYMENT_ORDER_STATUSES } from '../../domain/payment-order.js';
import { PAYOUT_STATUSES } from '../../domain/payout.js';
import { isUuid } from '../../domain/text.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/console-money-repo.js';
import * as ordersRepo from '../../store/repos/payment-orders-repo.js';
import { refundsOfOrder } from '../../store/repos/refunds-repo.js';
import { settlementOfOrder } from '../../store/repos/settlement-reads-repo.js';
import { decodeCursor as decodeKeysetCursor, encodeCursor as encodeKeysetCursor } from '../shared/keyset-cursor.js';
import { type Page, rowsPage } from '../shared/list-page.js';
import { refundView } from '../refunds/refund-view.js';
import { checkoutTokenFor, checkoutUrl, orderRefFor, paymentOrderView } from '../payin/payment-order-view.js';
import { payoutView } from '../payouts/payout-view.js';
import { notFound } from '../../domain/errors.js';

export interface MoneyListQuery {
  orgId: string;
  status?: string;
  from?: Date;
  to?: Date;
  search?: string;
  cursor?: string;
  limit: number;
}

export type { Page } from '../shared/list-page.js';

/** The position of a console list's cursor (keyset-cursor.ts): created_at in UTC with microseconds. */
const KEY_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A console list's cursor, opaque to clients. */
export function encodeCursor(k: repo.Keyset): string {
  return encodeKeysetCursor({ position: k.createdAt, id: k.id });
}

/** The keyset of a cursor a console list gave out; 422 VALIDATION_FAILED for anything else. */
export function decodeCursor(cursor: string): repo.Keyset {
  const key = decodeKeysetCursor(cursor, KEY_TS);
  if (key === null) throw validationError([{ field: 'cursor', issue: 'is not a cursor this list gave out' }]);
  return { createdAt: key.position, id: key.id };
}

function checkStatus(status: string | undefined, allowed: readonly string[]): void {
  if (status !== undefined && !allowed.includes(status)) {
    throw validationError([{ field: 'status', issue: `must be one of ${allowed.join(', ')}` }]);
  }
}

/** The cursor of a keyset-listed row (console money lists, beneficiaries). */
export const keysetCursorOf = (r: { id: string; key_ts: string }): string => encodeCursor({ createdAt: r.key_ts, id: r.id });

const EXPORT_PAGE = 1000;

function iso(d: Date | string): string;
function iso(d: Date | string | null): string | null;
function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

export class ConsoleMoney {
  constructor(private readonly deps: { db: Db; vault: Vault; publicBaseUrl: () => string }) {}

  private filter(q: MoneyListQuery, uuidsOf: (text: string) => string[]): repo.ListFilter {
    const text = q.search?.trim();
    return {
      orgId: q.orgId,
      ...(q.status !== undefined ? { status: q.status } : {}),
      ...(q.from !== undefined ? { from: q.from } : {}),
      ...(q.to !== undefined ? { to: q.to } : {}),
      ...(text ? { search: { text, uuids: uuidsOf(text) } } : {}),
      ...(q.cursor !== undefined ? { after: decodeCursor(q.cursor) } : {}),
      limit: q.limit + 1,
    };
  }

  /** Search: the id, order_id (decoded to the id), merchant_order_reference or UTR, each exact. */
  async listOrders(q: MoneyListQuery): Promise<Page<ReturnType<typeof orderListView>>> {
    checkStatus(q.status, PAYMENT_ORDER_STATUSES);
    const f = this.filter(q, (text) => {
      const ref = orderRefFor(text);
      return ref ? [ref.id] : [];
    });
    return rowsPage(await this.deps.db.replicaReads.read((r) => repo.listOrders(r, f)), q.limit, orderListView, keysetCursorOf);
  }

  /** Search: the id, transaction_id, client_reference or UTR, each exact. */
  async listPayouts(q: MoneyListQuery): Promise<Page<ReturnType<typeof payoutListView>>> {
    checkStatus(q.status, PAYOUT_STATUSES);
    const f = this.filter(q, (text) => (isUuid(text) ? [text.toLowerCase()] : []));
    return rowsPage(await this.deps.db.replicaReads.read((r) => repo.listPayouts(r, f)), q.limit, payoutListView, keysetCursorOf);
  }

  /** Every order the filter matches, newest first, read in keyset pages (memory stays flat for any count). */
  async *exportOrders(q: Omit<MoneyListQuery, 'cursor' | 'limit'>): AsyncGenerator<ReturnType<typeof orderListView>> {
    checkStatus(q.status, PAYMENT_ORDER_STATUSES);
    const base = this.filter({ ...q, limit: EXPORT_PAGE - 1 }, (text) => {
      const ref = orderRefFor(text);
      return ref ? [ref.id] : [];
    });
    for (let after: repo.Keyset | undefined; ; ) {
      const page = { ...base, ...(after ? { after } : {}), limit: EXPORT_PAGE };
      const rows = await this.deps.db.replicaReads.read((r) => repo.listOrders(r, page));
      for (const r of rows) yield orderListView(r);
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE || !last) return;
      after = { createdAt: last.key_ts, id: last.id };
    }
  }

  /** Every payout the filter matches, newest first, read in keyset pages. */
  async *exportPayouts(q: Omit<MoneyListQuery, 'cursor' | 'limit'>): AsyncGenerator<ReturnType<typeof payoutListView>> {
    checkStatus(q.status, PAYOUT_STATUSES);
    const base = this.filter({ ...q, limit: EXPORT_PAGE - 1 }, (text) => (isUuid(text) ? [text.toLowerCase()] : []));
    for (let after: repo.Keyset | undefined; ; ) {
      const page = { ...base, ...(after ? { after } : {}), limit: EXPORT_PAGE };
      const rows = await this.deps.db.replicaReads.read((r) => repo.listPayouts(r, page));
      for (const r of rows) yield payoutListView(r);
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE || !last) return;
      after = { createdAt: last.key_ts, id: last.id };
    }
  }

  /**
   * The order as the merchant API shows it, every state move with time and cause, its callbacks,
   * and its refunds (as GET /merchant/payment-orders/{order}/refunds shows them, oldest first,
   * with who reviewed each and why one failed).
   */
  async order(orgId: string, ref: string, payerInFull = false) {
    const r = orderRefFor(ref.trim());
    const o = r ? await ordersRepo.findByIdOrOrderId(this.deps.db, r) : null;
    if (!o || o.org_id !== orgId) throw notFound('payment order');
    const [history, deliveries, refunds, settlement] = await Promise.all([
      orderReads.history(this.deps.db, o.id),
      repo.deliveriesOf(this.deps.db, orgId, o.id),
      refundsOfOrder(this.deps.db, o.id),
      settlementOfOrder(this.deps.db, o.id),
    ]);
    return {
      // `settlement` (contract §9) is in the order, as the merchant API shows it.
      order: paymentOrderView({ ...o, ...settlement }, checkoutUrl(this.deps.publicBaseUrl(), checkoutTokenFor(this.deps.vault, o.id))),
      payer: payerView(o, payerInFull),
      history: history.map((h) => ({ from_status: h.from_status, to_status: h.to_status, cause: h.trigger, detail: h.detail, at: iso(h.created_at) })),
      callbacks: deliveries.map(deliveryView),
      refunds: refunds.map((r) => ({ ...refundView(r), reviewed_by: r.reviewed_by, failure_reason: r.failure_reason })),
    };
  }

  /** The payout as the merchant API shows it, each attempt (bank reference, UTR, inquiries), its moves and callbacks. */
  async payout(orgId: string, ref: string) {
    const key = isUuid(ref) ? { id: ref.toLowerCase() } : { transactionId: ref };
    const p = await repo.findPayoutInOrg(this.deps.db, orgId, key);
    if (!p) throw notFound('payout');
    const [attempts, moves, deliveries] = await Promise.all([
      repo.payoutAttempts(this.deps.db, p.id),
      repo.payoutTransitions(this.deps.db, p.id),
      repo.deliveriesOf(this.deps.db, orgId, p.id),
    ]);
    return {
      payout: payoutView(p, attempts.map((a) => ({ status: a.status as never, bank_reference: a.bank_reference, utr: a.utr }))),
      attempts: attempts.map((a) => ({
        attempt_no: a.attempt_no,
        status: a.status,
        bank_reference: a.bank_reference,
        utr: a.utr,
        failure_reason: a.failure_reason,
        inquiries: a.inquiry_count,
        submitted_at: iso(a.submitted_at),
        created_at: iso(a.created_at),
      })),
      history: moves.map((m) => ({ entity: m.entity, from_status: m.from_status, to_status: m.to_status, cause: m.trigger, detail: m.detail, at: iso(m.created_at) })),
      callbacks: deliveries.map(deliveryView),
    };
  }
}

function orderListView(r: repo.OrderListRow) {
  return {
    id: r.id,
    order_id: r.order_id,
    merchant_order_reference: r.merchant_order_reference,
    amount_paise: Number(r.amount_paise),
    status: r.status,
    response_mode: r.response_mode,
    utr: r.bank_transaction_id,
    livemode: r.livemode,
    created_at: r.created_at.toISOString(),
    purpose: r.purpose,
    customer_name: r.customer_name,
    paid_at: r.confirmed_at ? r.confirmed_at.toISOString() : null,
    settlement_id: r.settlement_id,
    settlement_utr: r.settlement_utr,
    settled_at: r.settled_at ? r.settled_at.toISOString() : null,
  };
}

/**
 * The payer of an order on its console page (issue #32 item 6): in full for the roles that act on
 * payments (admin, reviewer: `reviews.decide`), masked for the others (a***@example.in, ••••••5678).
 */
export function payerView(o: { customer_name: string | null; customer_email: string | null; customer_phone: string | null }, inFull: boolean) {
  const email = o.customer_email && !inFull ? o.customer_email.replace(/^(.)[^@]*(@.*)$/, '$1***$2') : o.customer_email;
  const phone = o.customer_phone && !inFull ? `${'•'.repeat(Math.max(o.customer_phone.length - 4, 0))}${o.customer_phone.slice(-4)}` : o.customer_phone;
  return { name: o.customer_name, email, phone, masked: !inFull };
}

function payoutListView(r: repo.PayoutListRow) {
  return {
    id: r.id,
    transaction_id: r.transaction_id,
    client_reference: r.client_reference,
    amount_paise: Number(r.amount_paise),
    mode: r.mode,
    status: r.status,
    beneficiary_name: r.beneficiary_name,
    account_number_last4: r.beneficiary_last4,
    utr: r.utr,
    livemode: r.livemode,
    created_at: r.created_at.toISOString(),
  };
}

function deliveryView(d: repo.DeliveryRow) {
  return {
    delivery_id: d.id,
    event_id: d.event_id,
    event: d.kind,
    target: d.target,
    status: d.status,
    attempts: d.attempt_log.map((a) => ({ ...a, attempted_at: iso(a.attempted_at) })),
    delivered_at: iso(d.delivered_at),
    created_at: iso(d.created_at),
  };
}
