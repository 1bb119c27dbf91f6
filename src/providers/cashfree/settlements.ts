/**
 * Cashfree PG settlements through its Settlement Reconciliation API (facts and sources:
 * docs/providers.md, "Cashfree PG: settlements"):
 *   POST {base}/settlement/recon  {"pagination": {"limit", "cursor"}, "filters": {"start_date", "end_date"}}
 *   -> {"cursor", "limit", "data": [{event_details, order_details, payment_details, settlement_details, refund_details, ...}]}
 * One item per event (payment, refund, chargeback, adjustment...) of the settlements whose window
 * the filters choose; the answer's `cursor` continues, null on the last page. Items are read in the
 * nested shape of x-api-version 2025-01-01 (older versions answer flat items with other names: a
 * trap, so an account pinned to one is refused here, not misread). Every answer is decoded against
 * the schema below, named exactly as Cashfree's API reference names the fields. All pages of the
 * window are read and grouped by `settlement_details.cf_settlement_id`, so each settlement handed
 * on is complete.
 */
import { Type, type Static } from '@sinclair/typebox';
import { decodeAnswer } from '../decode-schema.js';
import { ProviderError, type ProviderSettlement, type ProviderSettlementLine, type SettlementPage } from '../provider.js';
import { type CashfreeClient, cashfreeErrorText } from './client.js';

export const RECON_PAGE_LIMIT = 100;
const MAX_PAGES = 1_000;
/** With no settlement stored yet, the first sync looks this far back. */
export const FIRST_SYNC_LOOKBACK_MS = 30 * 86_400_000;
/** The first x-api-version whose recon items are nested (event_details, settlement_details...). */
const NESTED_SINCE_VERSION = '2025-01-01';

const Id = Type.Union([Type.String({ minLength: 1 }), Type.Integer()]);
const Opt = <T extends Parameters<typeof Type.Optional>[0]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/** SettlementReconEntity.data[] (2025-01-01): the fields Tijori reads, by their documented names. */
const ReconItem = Type.Object({
  event_details: Type.Object({
    event_id: Id,
    event_type: Type.String({ minLength: 1 }),
    event_amount: Type.Number(),
    event_settlement_amount: Opt(Type.Number()),
    event_service_charge: Opt(Type.Number()),
    event_service_tax: Opt(Type.Number()),
    event_currency: Type.String(),
    event_time: Opt(Type.String()),
    sale_type: Opt(Type.String()),
  }),
  order_details: Opt(Type.Object({ order_id: Opt(Type.String()) })),
  payment_details: Opt(Type.Object({ cf_payment_id: Opt(Id), bank_reference: Opt(Type.String()) })),
  refund_details: Opt(Type.Object({ refund_id: Opt(Type.String()) })),
  settlement_details: Type.Object({
    cf_settlement_id: Id,
    utr: Opt(Type.String()),
    settlement_date: Opt(Type.String()),
    settlement_initiated_on: Opt(Type.String()),
    service_charge: Opt(Type.Number()),
    service_tax: Opt(Type.Number()),
  }),
});
// The answer's frame is decoded whole; each item on its own (an item that does not fit is an anomaly of its line, not a failed window).
const ReconAnswer = Type.Object({ cursor: Opt(Type.String()), limit: Opt(Type.Integer()), data: Opt(Type.Array(Type.Unknown())) });
/** What of an item that does not fit its shape still names its settlement and event. */
const ItemIds = Type.Object({
  event_details: Type.Object({ event_id: Id, event_type: Opt(Type.String()), event_currency: Opt(Type.String()) }),
  settlement_details: Type.Object({ cf_settlement_id: Id }),
  order_details: Opt(Type.Object({ order_id: Opt(Type.String()) })),
  refund_details: Opt(Type.Object({ refund_id: Opt(Type.String()) })),
});
type Item = Static<typeof ReconItem>;

const SIGNED_DECIMAL = /^(-?)(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

/** Decimal rupees (sign kept: a negative fee is bad data to report, not to drop) to paise; throws on more than two decimals. */
export function signedRupeesToPaise(v: number, field: string): number {
  const m = SIGNED_DECIMAL.exec(String(v));
  if (!m) throw new ProviderError(`cashfree settlement recon: ${field} ${String(v)} is not an amount in rupees with at most two decimals`, false);
  const paise = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -paise : paise;
}

/** Cashfree's event types to ours; the reversals (money back to the merchant) are kept as reported: an anomaly for a person. */
function lineType(eventType: string): string {
  switch (eventType) {
    case 'PAYMENT':
    case 'REFUND':
    case 'CHARGEBACK':
      return eventType;
    case 'OTHER_ADJUSTMENT':
    case 'DISPUTE':
      return 'ADJUSTMENT';
    default:
      return eventType;
  }
}

/** Cashfree's request date form, as in its examples: 2022-07-20T00:00:00Z. */
function cfDate(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** One item read: its settlement and line; a line whose amounts cannot be read is kept with zero amounts, marked invalid. */
type ReadItem = { settlementId: string; details: Item['settlement_details'] | null; line: ProviderSettlementLine };

function toLine(i: Item): ProviderSettlementLine {
  const e = i.event_details;
  const line: ProviderSettlementLine = {
    lineId: String(e.event_id),
    type: lineType(e.event_type),
    orderReference: i.order_details?.order_id ?? null,
    refundReference: i.refund_details?.refund_id ?? null,
    providerPaymentId: i.payment_details?.cf_payment_id !== undefined && i.payment_details.cf_payment_id !== null ? String(i.payment_details.cf_payment_id) : null,
    amountPaise: 0,
    feePaise: 0,
    taxPaise: 0,
    currency: e.event_currency,
  };
  try {
    line.amountPaise = signedRupeesToPaise(e.event_amount, 'event_amount');
    line.feePaise = e.event_service_charge === undefined || e.event_service_charge === null ? 0 : signedRupeesToPaise(e.event_service_charge, 'event_service_charge');
    line.taxPaise = e.event_service_tax === undefined || e.event_service_tax === null ? 0 : signedRupeesToPaise(e.event_service_tax, 'event_service_tax');
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { ...line, amountPaise: 0, feePaise: 0, taxPaise: 0, invalid: err.message };
  }
  return line;
}

/** An item read, or (not fitting its shape) the line it names marked invalid; null when it does not even name its settlement and event. */
function readItem(raw: unknown): ReadItem | null {
  try {
    const i = decodeAnswer(ReconItem, raw, 'a cashfree settlement recon item');
    return { settlementId: String(i.settlement_details.cf_settlement_id), details: i.settlement_details, line: toLine(i) };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    let ids: Static<typeof ItemIds>;
    try {
      ids = decodeAnswer(ItemIds, raw, 'a cashfree settlement recon item');
    } catch {
      return null;
    }
    const e = ids.event_details;
    return {
      settlementId: String(ids.settlement_details.cf_settlement_id),
      details: null,
      line: {
        lineId: String(e.event_id), type: lineType(e.event_type ?? 'UNREADABLE'), orderReference: ids.order_details?.order_id ?? null, refundReference: ids.refund_details?.refund_id ?? null,
        providerPaymentId: null, amountPaise: 0, feePaise: 0, taxPaise: 0, currency: e.event_currency ?? 'INR', invalid: err.message,
      },
    };
  }
}

export async function fetchCashfreeSettlements(client: CashfreeClient, apiVersion: string, q: { since: Date | null; now?: Date }): Promise<SettlementPage> {
  if (apiVersion < NESTED_SINCE_VERSION) {
    throw new ProviderError(`cashfree settlement recon is read in the ${NESTED_SINCE_VERSION} shape; this account pins x-api-version ${apiVersion}, whose items are flat`, false);
  }
  const now = q.now ?? new Date();
  const filters = { start_date: cfDate(q.since ?? new Date(now.getTime() - FIRST_SYNC_LOOKBACK_MS)), end_date: cfDate(now) };
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const a = await client.call('POST', '/settlement/recon', { body: JSON.stringify({ pagination: { limit: RECON_PAGE_LIMIT, cursor }, filters }) });
    if (a.status !== 200) throw new ProviderError(`cashfree settlement recon: ${cashfreeErrorText(a)}`, a.status >= 500);
    const body = decodeAnswer(ReconAnswer, a.json, 'the cashfree settlement recon answer');
    items.push(...(body.data ?? []));
    const next = body.cursor ?? null;
    if (next === null || next === cursor || (body.data ?? []).length === 0) break;
    cursor = next;
  }
  const bySettlement = new Map<string, ReadItem[]>();
  const rejected: Array<{ providerSettlementId: string; detail: string }> = [];
  for (const raw of items) {
    const r = readItem(raw);
    if (r === null) {
      rejected.push({ providerSettlementId: '', detail: 'a cashfree settlement recon item names no cf_settlement_id and event_id: skipped' });
      continue;
    }
    bySettlement.set(r.settlementId, [...(bySettlement.get(r.settlementId) ?? []), r]);
  }
  const settlements: ProviderSettlement[] = [];
  for (const [id, group] of bySettlement) {
    const problems: string[] = [];
    const d = group.find((g) => g.details !== null)?.details ?? null;
    const when = d?.settlement_date ?? d?.settlement_initiated_on ?? null;
    let settledAt = when ? new Date(when) : now;
    if (Number.isNaN(settledAt.getTime())) {
      problems.push(`settlement_date ${JSON.stringify(String(when).slice(0, 40))} is not a timestamp: the time of the sync is kept instead`);
      settledAt = now;
    }
    let charges: { feesPaise: number; taxPaise: number } | null = null;
    if (d && typeof d.service_charge === 'number' && typeof d.service_tax === 'number') {
      try {
        // The settlement's own charges, to check its lines against (they must add up to these).
        charges = { feesPaise: signedRupeesToPaise(d.service_charge, 'service_charge'), taxPaise: signedRupeesToPaise(d.service_tax, 'service_tax') };
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        problems.push(err.message);
      }
    }
    settlements.push({
      providerSettlementId: id,
      utr: d?.utr ?? null,
      settledAt,
      currency: group[0]!.line.currency,
      totals: null,
      charges,
      lines: group.map((g) => g.line),
      ...(problems.length > 0 ? { problems } : {}),
    });
  }
  return { settlements, cursor: null, ...(rejected.length > 0 ? { rejected } : {}) };
}
