/**
 * Storing one provider settlement and reconciling its lines (contract §9), in one transaction with
 * its ledger entry ("settlement imported"). Idempotent: the settlement's unique key (organization,
 * provider account, provider's id) lets it in once; a second import of the same settlement, also a
 * concurrent one, stores nothing and counts nothing.
 *
 * Each line is matched by our reference the provider echoes (order_id for a payment, refund_id for
 * a refund) to Tijori's record: MATCHED, or a break (AMOUNT_MISMATCH, UNKNOWN_ORDER,
 * NOT_PAID_IN_TIJORI, DUPLICATE). Bad provider data (a negative amount, an unknown line type, a
 * currency other than INR, totals the lines do not add up to) is an anomaly: kept in
 * settlement_anomalies, logged, counted in /metrics, and the line is never matched. Nothing here
 * changes an order: the provider check a settled open order needs runs before, outside the
 * transaction (settlement-check.ts).
 */
import { settlementImported } from '../../domain/ledger.js';
import {
  type AnomalyKind,
  isLineType,
  lineAnomalies,
  lineNet,
  matchPayment,
  matchRefund,
  totalsDifferences,
  totalsOfLines,
  type LineMatch,
  type Totals,
} from '../../domain/reconciliation.js';
import type { ProviderSettlement } from '../../providers/provider.js';
import type { Db, Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/settlements-repo.js';
import { newRowId } from '../../store/row-id.js';
import { recordEvent, SETTLEMENT_CREATED } from '../callbacks/events.js';
import { postLedgerEntry } from '../ledger/post.js';
import { settlementView } from './merchant-settlements.js';

export interface ImportTarget {
  orgId: string;
  /** null: the built-in sandbox. */
  providerAccountId: string | null;
  provider: string;
}

export interface ImportCounts {
  settlements_new: number;
  lines_new: number;
  matched: number;
  breaks: number;
}

export interface FoundAnomaly {
  providerSettlementId: string;
  providerLineId: string;
  kind: AnomalyKind;
  detail: string;
}

export const NO_COUNTS: ImportCounts = { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 };

/** Whether this settlement is stored already (skips the provider checks of a settlement seen before). */
export function isStored(q: Queryable, t: ImportTarget, providerSettlementId: string): Promise<boolean> {
  return repo.isStored(q, t.orgId, t.providerAccountId, providerSettlementId);
}

/** The stated totals, or what the lines add up to where the provider states only lines (and charges). */
function totalsOf(s: ProviderSettlement, lines: Totals): { totals: Totals; differences: string[] } {
  if (s.totals) return { totals: s.totals, differences: totalsDifferences(s.totals, lines) };
  if (s.charges) return { totals: lines, differences: totalsDifferences({ feesPaise: s.charges.feesPaise, taxPaise: s.charges.taxPaise }, lines) };
  return { totals: lines, differences: [] };
}

/**
 * Stores the settlement, its lines, their breaks and anomalies, and posts its ledger entry, in one
 * transaction. Returns what was new and the new anomalies (for the log and the metric, after commit).
 */
export async function importSettlement(db: Db, t: ImportTarget, s: ProviderSettlement): Promise<{ counts: ImportCounts; anomalies: FoundAnomaly[]; settlementId: string | null }> {
  const anomalies: FoundAnomaly[] = [];
  const found = (providerLineId: string, kind: AnomalyKind, detail: string) => anomalies.push({ providerSettlementId: s.providerSettlementId, providerLineId, kind, detail });
  const lineFacts = s.lines.map((l) => ({ ...l, type: isLineType(l.type) ? l.type : 'ADJUSTMENT', reportedType: l.type }));
  for (const l of s.lines) for (const a of lineAnomalies(l)) found(l.lineId, a.kind, a.detail);
  for (const p of s.problems ?? []) found('', 'BAD_DATA', p);
  if (s.currency !== 'INR') found('', 'NOT_INR', `settlement currency ${JSON.stringify(s.currency.slice(0, 10))}, not INR`);
  const { totals, differences } = totalsOf(s, totalsOfLines(lineFacts));
  if (differences.length > 0) found('', 'TOTALS_MISMATCH', differences.join('; '));
  const badLines = new Set(anomalies.filter((a) => a.providerLineId !== '').map((a) => a.providerLineId));
  const wholeBad = s.currency !== 'INR';

  return db.tx(async (tx) => {
    // Imports of one organization one at a time: a payment in two different settlements imported at
    // once is then seen by the second as settled (DUPLICATE), not missed by both.
    await repo.lockOrgImports(tx, t.orgId);
    const settlementId = newRowId();
    const inserted = await repo.insertSettlement(tx, {
      id: settlementId,
      org_id: t.orgId,
      provider_account_id: t.providerAccountId,
      provider: t.provider,
      provider_settlement_id: s.providerSettlementId,
      utr: s.utr,
      currency: s.currency,
      gross_paise: totals.grossPaise,
      fees_paise: totals.feesPaise,
      tax_paise: totals.taxPaise,
      refunds_paise: totals.refundsPaise,
      adjustments_paise: totals.adjustmentsPaise,
      net_paise: totals.netPaise,
      settled_at: s.settledAt,
    });
    if (!inserted) return { counts: NO_COUNTS, anomalies: [], settlementId: null };

    const orderRefs = lineFacts.filter((l) => l.type === 'PAYMENT' && l.orderReference).map((l) => l.orderReference as string);
    const refundRefs = lineFacts.filter((l) => l.type === 'REFUND' && l.refundReference).map((l) => l.refundReference as string);
    const orders = new Map((await repo.ordersByOrderId(tx, t.orgId, orderRefs)).map((o) => [o.order_id, o]));
    const refunds = new Map((await repo.refundsByRefundId(tx, t.orgId, refundRefs)).map((r) => [r.refund_id, r]));
    const before = await repo.alreadySettled(tx, [...orders.values()].map((o) => o.id), [...refunds.values()].map((r) => r.id));

    const lines: repo.NewLine[] = [];
    const breaks: repo.NewBreak[] = [];
    let matched = 0;
    for (const l of lineFacts) {
      const lineId = newRowId();
      const order = l.type === 'PAYMENT' && l.orderReference ? (orders.get(l.orderReference) ?? null) : null;
      const refund = l.type === 'REFUND' && l.refundReference ? (refunds.get(l.refundReference) ?? null) : null;
      let m: { match: LineMatch; expectedPaise: number | null };
      if (wholeBad || badLines.has(l.lineId)) m = { match: 'ANOMALY', expectedPaise: null };
      else if (l.type === 'PAYMENT') {
        m = matchPayment(order ? { status: order.status, amountPaise: order.amount_paise } : null, l, order !== null && before.orders.has(order.id));
        if (order) before.orders.add(order.id); // a second line of the same payment in this settlement is a DUPLICATE too
      } else if (l.type === 'REFUND') {
        m = matchRefund(refund ? { status: refund.status, amountPaise: refund.amount_paise } : null, l, refund !== null && before.refunds.has(refund.id));
        if (refund) before.refunds.add(refund.id);
      } else m = { match: 'MATCHED', expectedPaise: null }; // adjustments and chargebacks: taken as reported, nothing of ours to match
      lines.push({
        id: lineId,
        settlement_id: settlementId,
        org_id: t.orgId,
        provider_line_id: l.lineId,
        type: l.type,
        reported_type: l.reportedType.slice(0, 64),
        order_reference: l.orderReference,
        refund_reference: l.refundReference,
        provider_payment_id: l.providerPaymentId,
        order_pk: order?.id ?? null,
        refund_pk: refund?.id ?? null,
        amount_paise: l.amountPaise,
        fee_paise: l.feePaise,
        tax_paise: l.taxPaise,
        net_paise: lineNet(l),
        currency: l.currency,
        match: m.match,
      });
      if (m.match === 'MATCHED') matched++;
      else if (m.match !== 'ANOMALY') {
        breaks.push({ id: newRowId(), org_id: t.orgId, kind: m.match, settlement_id: settlementId, line_id: lineId, order_pk: order?.id ?? null, refund_pk: refund?.id ?? null, expected_paise: m.expectedPaise, reported_paise: l.amountPaise });
      }
    }
    await repo.insertLines(tx, lines);
    await repo.insertBreaks(tx, breaks);

    // The ledger entry of the import, in this transaction. Totals that do not add up, or bad data,
    // are no entry: they are an anomaly for a person to look at (docs/accounting.md).
    if (!wholeBad) {
      try {
        await postLedgerEntry(tx, { orgId: t.orgId, providerAccountId: t.providerAccountId, sourceId: settlementId, entry: settlementImported(totals) });
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        if (!anomalies.some((a) => a.kind === 'TOTALS_MISMATCH' || a.kind === 'NEGATIVE_AMOUNT')) found('', 'TOTALS_MISMATCH', err.message);
      }
    }
    // The opt-in `settlement.created` (contract §9): with the settlement, in its transaction, only
    // to a PayIn destination that subscribes to it.
    await recordEvent(tx, {
      orgId: t.orgId,
      kind: SETTLEMENT_CREATED,
      aggregateType: 'settlement',
      aggregateId: settlementId,
      data: settlementView({
        id: settlementId,
        provider_account_id: t.providerAccountId,
        provider_settlement_id: s.providerSettlementId,
        utr: s.utr,
        gross_paise: totals.grossPaise,
        fees_paise: totals.feesPaise,
        tax_paise: totals.taxPaise,
        refunds_paise: totals.refundsPaise,
        adjustments_paise: totals.adjustmentsPaise,
        net_paise: totals.netPaise,
        settled_at: s.settledAt,
        lines: lines.length,
        breaks: breaks.length,
      }),
    });
    const fresh: FoundAnomaly[] = [];
    for (const a of anomalies) {
      const isNew = await repo.insertAnomaly(tx, { id: newRowId(), org_id: t.orgId, provider_account_id: t.providerAccountId, provider_settlement_id: a.providerSettlementId, provider_line_id: a.providerLineId, kind: a.kind, detail: a.detail });
      if (isNew) fresh.push(a);
    }
    return { counts: { settlements_new: 1, lines_new: lines.length, matched, breaks: lines.length - matched }, anomalies: fresh, settlementId };
  });
}
