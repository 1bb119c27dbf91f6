/**
 * Storing one provider settlement and reconciling its lines (contract §9), in one transaction with
 * its ledger entry ("settlement imported"). Idempotent: the settlement's unique key (organization,
 * provider account, provider's id) lets it in once; a second import of the same settlement, also a
 * concurrent one, stores nothing and counts nothing.
 *
 * Each line is matched by our reference the provider echoes (order_id for a payment, refund_id for
 * a refund) to Tijori's record: MATCHED, or a break (AMOUNT_MISMATCH, UNKNOWN_ORDER,
 * NOT_PAID_IN_TIJORI, DUPLICATE). A settlement of any length is streamed: its lines go into a
 * staging table a batch at a time as the provider's pages arrive (never all in memory), and the
 * transaction that stores the settlement matches them by joins, a batch of positions per statement
 * (settlement-staging-repo.ts; docs/accounting.md, "Importing a long settlement"). Bad provider data (a negative amount, an unknown line type, a
 * currency other than INR, totals the lines do not add up to) is an anomaly: kept in
 * settlement_anomalies, logged, counted in /metrics, and the line is never matched. Nothing here
 * changes an order: the provider check a settled open order needs runs before, outside the
 * transaction (settlement-check.ts).
 */
import { settlementImported } from '../../domain/ledger.js';
import { randomUUID } from 'node:crypto';
import { type AnomalyKind, isLineType, lineAnomalies, lineNet, totalsDifferences, totalsOfLines, type Totals } from '../../domain/reconciliation.js';
import type { ProviderSettlement, ProviderSettlementLine } from '../../providers/provider.js';
import type { Db, Queryable } from '../../store/db.js';
import * as staging from '../../store/repos/settlement-staging-repo.js';
import * as repo from '../../store/repos/settlements-repo.js';
import { newRowId } from '../../store/row-id.js';
import { recordEvent, SETTLEMENT_CREATED } from '../callbacks/events.js';
import { postLedgerEntry } from '../ledger/post.js';
import { settlementView } from './merchant-settlements.js';
import { idForOrderId } from '../../domain/order-id.js';

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

/** Lines per staging statement, and staged positions matched per statement of the completing transaction. */
const STAGE_BATCH = 5_000;
export const MATCH_BATCH = 10_000;

function addTotals(a: Totals, b: Totals): Totals {
  return {
    grossPaise: a.grossPaise + b.grossPaise,
    feesPaise: a.feesPaise + b.feesPaise,
    taxPaise: a.taxPaise + b.taxPaise,
    refundsPaise: a.refundsPaise + b.refundsPaise,
    adjustmentsPaise: a.adjustmentsPaise + b.adjustmentsPaise,
    netPaise: a.netPaise + b.netPaise,
  };
}

export interface ImportOptions {
  /** The rest of the settlement's lines, a page at a time, after `s.lines` (a long settlement). */
  moreLines?: AsyncIterable<ProviderSettlementLine[]>;
  /** Runs once every line is staged (positions 1 to lineCount), before the settlement is stored (the provider checks of settled open orders). */
  beforeComplete?: (importId: string, lineCount: number) => Promise<void>;
}

/**
 * Stores the settlement, its lines, their breaks and anomalies, and posts its ledger entry, in one
 * transaction, after staging its lines. Returns what was new and the new anomalies (for the log
 * and the metric, after commit).
 */
export async function importSettlement(
  db: Db,
  t: ImportTarget,
  s: ProviderSettlement,
  opts: ImportOptions = {},
): Promise<{ counts: ImportCounts; anomalies: FoundAnomaly[]; settlementId: string | null }> {
  const anomalies: FoundAnomaly[] = [];
  const found = (providerLineId: string, kind: AnomalyKind, detail: string) => anomalies.push({ providerSettlementId: s.providerSettlementId, providerLineId, kind, detail });
  const importId = randomUUID();
  let seq = 0;
  let lineTotals = totalsOfLines([]);
  const stage = async (page: ProviderSettlementLine[]) => {
    for (let i = 0; i < page.length; i += STAGE_BATCH) {
      const batch = page.slice(i, i + STAGE_BATCH);
      const rows: staging.StagedLine[] = [];
      for (const l of batch) {
        const bad = lineAnomalies(l);
        for (const a of bad) found(l.lineId, a.kind, a.detail);
        const type = isLineType(l.type) ? l.type : 'ADJUSTMENT';
        const facts = { ...l, type };
        rows.push({
          seq: ++seq,
          line_id: newRowId(),
          break_id: newRowId(),
          provider_line_id: l.lineId,
          type,
          reported_type: l.type.slice(0, 64),
          order_reference: l.orderReference,
          order_pk_decoded: l.orderReference === null ? null : idForOrderId(l.orderReference),
          refund_reference: l.refundReference,
          provider_payment_id: l.providerPaymentId,
          amount_paise: l.amountPaise,
          fee_paise: l.feePaise,
          tax_paise: l.taxPaise,
          net_paise: lineNet(facts),
          currency: l.currency,
          bad: bad.length > 0,
        });
      }
      lineTotals = addTotals(lineTotals, totalsOfLines(rows.map((r) => ({ type: r.type, amountPaise: r.amount_paise, feePaise: r.fee_paise, taxPaise: r.tax_paise, currency: r.currency }))));
      await staging.stageLines(db, importId, rows);
    }
  };

  try {
    await stage(s.lines);
    if (opts.moreLines) for await (const page of opts.moreLines) await stage(page);
    for (const p of s.problems ?? []) found('', 'BAD_DATA', p);
    if (s.currency !== 'INR') found('', 'NOT_INR', `settlement currency ${JSON.stringify(s.currency.slice(0, 10))}, not INR`);
    const { totals, differences } = totalsOf(s, lineTotals);
    if (differences.length > 0) found('', 'TOTALS_MISMATCH', differences.join('; '));
    const wholeBad = s.currency !== 'INR';
    await opts.beforeComplete?.(importId, seq);
    return await complete(db, t, s, { importId, lineCount: seq, totals, wholeBad, anomalies, found });
  } finally {
    await staging.clearStaging(db, importId, seq);
  }
}

async function complete(
  db: Db,
  t: ImportTarget,
  s: ProviderSettlement,
  c: { importId: string; lineCount: number; totals: Totals; wholeBad: boolean; anomalies: FoundAnomaly[]; found: (lineId: string, kind: AnomalyKind, detail: string) => void },
): Promise<{ counts: ImportCounts; anomalies: FoundAnomaly[]; settlementId: string | null }> {
  const { totals, anomalies, found } = c;
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

    // Matched by joins, a batch of positions per statement: each statement stays short (the pool's
    // statement timeout), and a later batch sees the earlier ones' lines (DUPLICATE across batches).
    let lines = 0;
    let matched = 0;
    let breaks = 0;
    if (c.lineCount > 0) await staging.prepareMatching(tx);
    for (let from = 1; from <= c.lineCount; from += MATCH_BATCH) {
      const r = await staging.completeBatch(tx, { importId: c.importId, settlementId, orgId: t.orgId, wholeBad: c.wholeBad, from, to: Math.min(c.lineCount, from + MATCH_BATCH - 1) });
      lines += r.lines;
      matched += r.matched;
      breaks += r.breaks;
    }

    // The ledger entry of the import, in this transaction. Totals that do not add up, or bad data,
    // are no entry: they are an anomaly for a person to look at (docs/accounting.md).
    if (!c.wholeBad) {
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
        lines,
        breaks,
      }),
    });
    const fresh: FoundAnomaly[] = [];
    for (const a of anomalies) {
      const isNew = await repo.insertAnomaly(tx, { id: newRowId(), org_id: t.orgId, provider_account_id: t.providerAccountId, provider_settlement_id: a.providerSettlementId, provider_line_id: a.providerLineId, kind: a.kind, detail: a.detail });
      if (isNew) fresh.push(a);
    }
    return { counts: { settlements_new: 1, lines_new: lines, matched, breaks: lines - matched }, anomalies: fresh, settlementId };
  });
}
