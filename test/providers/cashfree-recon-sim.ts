/**
 * The Cashfree simulator's settlements (cashfree-simulator.ts): the Settlement Reconciliation API
 * `POST /pg/settlement/recon`, built from Cashfree's documents (docs/providers.md, "Cashfree PG:
 * settlements"): request `{"pagination": {"limit", "cursor"}, "filters": {"cf_settlement_ids"?,
 * "settlement_utrs"?, "start_date", "end_date"}}`; answer `{"cursor", "limit", "data": [...]}` with
 * the nested items of x-api-version 2025-01-01 (event_details, order_details, payment_details,
 * refund_details, settlement_details with the SDK's field names), amounts as two-decimal rupee
 * literals, `cursor` null on the last page. A settlement is made by `settle()` from the successful
 * payments and refunds not yet settled; its options make it misbehave as a provider may (a payment
 * settled twice, a negative fee, an unknown event type, another currency, charges that do not add up).
 */
import { randomInt } from 'node:crypto';

export interface ReconEvent {
  cf_settlement_id: number;
  utr: string;
  settlement_date: string;
  event_id: string;
  event_type: string;
  amountPaise: number;
  feePaise: number;
  taxPaise: number;
  currency: string;
  order_id: string | null;
  cf_payment_id: number | null;
  refund_id: string | null;
  /** The settlement's stated charges (service_charge, service_tax), the same on each of its events. */
  settlementFeePaise: number;
  settlementTaxPaise: number;
  /** Sent as event_amount instead of the amount (bad provider data: e.g. "1.234"). */
  amountLiteral?: string;
  /** Sent as settlement_date and settlement_initiated_on instead of the real date (which still chooses the window). */
  settlementDateText?: string;
}

export interface SettleOptions {
  /** Settle this order's payment again (it was settled before): a DUPLICATE. */
  again?: string;
  /** This order's payment gets a negative fee. */
  negativeFeeFor?: string;
  /** Adds an event of this type Tijori does not know. */
  unknownEventType?: string;
  currency?: string;
  /** Added to the settlement's stated service_charge: its events no longer add up to it. */
  chargesOffByPaise?: number;
}

/** Paise as Cashfree writes rupees: a two-decimal JSON literal, sign included. */
export function rupeeLiteral(paise: number): string {
  const a = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

const pct = (p: number, percent: number) => Math.floor((p * percent + 50) / 100);

export function makeSettlement(
  id: number,
  paid: Array<{ order_id: string; cf_payment_id: number; amountPaise: number }>,
  refunds: Array<{ order_id: string; refund_id: string; cf_refund_id: number; cf_payment_id: number; amountPaise: number }>,
  o: SettleOptions,
): ReconEvent[] {
  const utr = `CFSIM${String(randomInt(1e9)).padStart(11, '0')}`;
  const settlement_date = new Date().toISOString().replace('Z', '+00:00');
  const base = { cf_settlement_id: id, utr, settlement_date, currency: o.currency ?? 'INR', settlementFeePaise: 0, settlementTaxPaise: 0 };
  const events: ReconEvent[] = [];
  for (const p of paid) {
    const fee = p.order_id === o.negativeFeeFor ? -pct(p.amountPaise, 2) : pct(p.amountPaise, 2);
    events.push({ ...base, event_id: `P${p.cf_payment_id}`, event_type: 'PAYMENT', amountPaise: p.amountPaise, feePaise: fee, taxPaise: pct(Math.abs(fee), 18), order_id: p.order_id, cf_payment_id: p.cf_payment_id, refund_id: null });
  }
  for (const r of refunds) {
    events.push({ ...base, event_id: `R${r.cf_refund_id}`, event_type: 'REFUND', amountPaise: r.amountPaise, feePaise: 0, taxPaise: 0, order_id: r.order_id, cf_payment_id: r.cf_payment_id, refund_id: r.refund_id });
  }
  if (o.unknownEventType) events.push({ ...base, event_id: `X${id}`, event_type: o.unknownEventType, amountPaise: 500, feePaise: 0, taxPaise: 0, order_id: null, cf_payment_id: null, refund_id: null });
  const fees = events.reduce((s, e) => s + e.feePaise, 0) + (o.chargesOffByPaise ?? 0);
  const tax = events.reduce((s, e) => s + e.taxPaise, 0);
  for (const e of events) {
    e.settlementFeePaise = fees;
    e.settlementTaxPaise = tax;
  }
  return events;
}

function item(e: ReconEvent): string {
  const json = {
    event_details: {
      event_id: e.event_id, event_type: e.event_type, event_settlement_amount: '$a', event_amount: '$a', sale_type: e.event_type === 'PAYMENT' ? 'CREDIT' : 'DEBIT',
      event_status: 'SUCCESS', entity: 'recon', event_time: e.settlement_date, event_currency: e.currency, event_service_charge: '$f', event_service_tax: '$t', event_remarks: null,
    },
    order_details: e.order_id ? { order_id: e.order_id, order_amount: '$a', order_currency: e.currency, order_tags: null } : null,
    customer_details: null,
    payment_details: e.cf_payment_id ? { payment_amount: '$a', payment_currency: e.currency, bank_reference: null, payment_time: e.settlement_date, payment_mode: 'UPI', payment_service_charge: '$f', payment_service_tax: '$t', cf_payment_id: String(e.cf_payment_id), status: 'SUCCESS' } : null,
    settlement_details: {
      cf_settlement_id: String(e.cf_settlement_id), settlement_date: e.settlementDateText ?? e.settlement_date, utr: e.utr, service_charge: '$sf', service_tax: '$st', settlement_charge: '0.00', settlement_tax: '0.00',
      settlement_type: 'NORMAL_SETTLEMENT', settlement_initiated_on: e.settlementDateText ?? e.settlement_date, payment_from: null, payment_till: null, reason: null, remarks: null,
    },
    dispute_details: null,
    refund_details: e.refund_id ? { refund_processed_at: e.settlement_date, refund_arn: null, refund_note: null, refund_id: e.refund_id } : null,
  };
  let text = JSON.stringify(json);
  const lit: Record<string, number> = { $a: e.amountPaise, $f: e.feePaise, $t: e.taxPaise, $sf: e.settlementFeePaise, $st: e.settlementTaxPaise };
  // settlement_charge/tax are literal 0.00 in the simulator.
  text = text.split('"0.00"').join('0.00');
  for (const [k, v] of Object.entries(lit)) text = text.split(JSON.stringify(k)).join(k === '$a' && e.amountLiteral !== undefined ? e.amountLiteral : rupeeLiteral(v));
  return text;
}

/** The answer to `POST /pg/settlement/recon` over the events the simulator settled. */
export function reconAnswer(events: ReconEvent[], body: string, maxPage = 1_000): { status: number; text: string } {
  const err = (code: string, message: string) => ({ status: 400, text: JSON.stringify({ message, code, type: 'invalid_request_error' }) });
  let b: { pagination?: { limit?: unknown; cursor?: unknown }; filters?: Record<string, unknown> };
  try {
    b = JSON.parse(body) as typeof b;
  } catch {
    return err('request_invalid', 'body is not JSON');
  }
  const limit = b.pagination?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) return err('pagination.limit_invalid', 'pagination.limit : is missing or invalid');
  const cursor = b.pagination?.cursor;
  if (cursor !== null && typeof cursor !== 'string') return err('pagination.cursor_invalid', 'pagination.cursor : should be null on the first call');
  const f = b.filters ?? {};
  const ids = Array.isArray(f.cf_settlement_ids) ? f.cf_settlement_ids.map(String) : null;
  const utrs = Array.isArray(f.settlement_utrs) ? f.settlement_utrs.map(String) : null;
  if (!ids && !utrs && (typeof f.start_date !== 'string' || typeof f.end_date !== 'string')) return err('filters_invalid', 'filters : cf_settlement_ids, settlement_utrs or start_date and end_date are required');
  const from = typeof f.start_date === 'string' ? Date.parse(f.start_date) : -Infinity;
  const to = typeof f.end_date === 'string' ? Date.parse(f.end_date) : Infinity;
  if (Number.isNaN(from) || Number.isNaN(to)) return err('filters.date_invalid', 'filters.start_date / end_date : invalid date');
  const chosen = events.filter((e) => (ids ? ids.includes(String(e.cf_settlement_id)) : true) && (utrs ? utrs.includes(e.utr) : true) && Date.parse(e.settlement_date) >= from && Date.parse(e.settlement_date) <= to + 999);
  const offset = cursor === null ? 0 : Number(JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')).offset);
  const size = Math.min(limit, maxPage);
  const page = chosen.slice(offset, offset + size);
  const next = offset + size < chosen.length ? Buffer.from(JSON.stringify({ offset: offset + size })).toString('base64') : null;
  return { status: 200, text: `{"cursor":${JSON.stringify(next)},"limit":${limit},"data":[${page.map(item).join(',')}]}` };
}
