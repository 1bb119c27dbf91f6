/**
 * SQL of the sandbox PSP's settlements (its own sandbox_* tables). `settle` runs in one
 * transaction under an advisory lock of its own, so two settles at once never settle a payment
 * twice (the unique key of the lines would refuse it anyway).
 */
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../store/db.js';
import { paymentLine, refundLine, settlementTotals, type SettlementLineDraft } from '../settlement-rules.js';
import { sandboxUtr } from '../utr.js';

const SETTLE_LOCK_KEY = 7_346_311_009; // arbitrary, constant: "sandbox settle"

export interface SandboxSettlementRow {
  id: string;
  seq: string;
  merchant: string | null;
  utr: string;
  gross_paise: number;
  fees_paise: number;
  tax_paise: number;
  refunds_paise: number;
  adjustments_paise: number;
  net_paise: number;
  currency: string;
  settled_at: Date;
}

export interface SandboxSettlementLineRow {
  id: string;
  settlement_id: string;
  type: 'PAYMENT' | 'REFUND';
  collection_reference: string;
  refund_reference: string | null;
  provider_reference: string;
  amount_paise: number;
  fee_paise: number;
  tax_paise: number;
}

const S_COLUMNS = 'id, seq::text AS seq, merchant, utr, gross_paise, fees_paise, tax_paise, refunds_paise, adjustments_paise, net_paise, currency, settled_at';

/** Settles every paid collection and completed refund not yet settled (of one merchant, or all): one settlement per merchant. */
export async function settle(db: Db, merchant: string | null): Promise<Array<{ settlement: SandboxSettlementRow; lines: number }>> {
  return db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SETTLE_LOCK_KEY]);
    const payments = await tx.query<{ merchant: string | null; reference: string; provider_reference: string; paid: string }>(
      `SELECT c.merchant, c.reference, c.provider_reference, COALESCE(c.paid_amount_paise, c.amount_paise)::text AS paid
         FROM sandbox_collections c
        WHERE c.status = 'SUCCESS' AND ($1::text IS NULL OR c.merchant = $1)
          AND NOT EXISTS (SELECT 1 FROM sandbox_settlement_lines l WHERE l.type = 'PAYMENT' AND l.provider_reference = c.provider_reference)
        ORDER BY c.paid_at, c.reference`,
      [merchant],
    );
    const refunds = await tx.query<{ merchant: string | null; reference: string; collection_reference: string; provider_reference: string; amount_paise: string }>(
      `SELECT c.merchant, r.reference, r.collection_reference, r.provider_reference, r.amount_paise::text
         FROM sandbox_refunds r JOIN sandbox_collections c ON c.reference = r.collection_reference
        WHERE r.status = 'COMPLETED' AND ($1::text IS NULL OR c.merchant = $1)
          AND NOT EXISTS (SELECT 1 FROM sandbox_settlement_lines l WHERE l.type = 'REFUND' AND l.provider_reference = r.provider_reference)
        ORDER BY r.completed_at, r.reference`,
      [merchant],
    );
    const byMerchant = new Map<string | null, SettlementLineDraft[]>();
    const add = (m: string | null, l: SettlementLineDraft) => byMerchant.set(m, [...(byMerchant.get(m) ?? []), l]);
    for (const p of payments.rows) add(p.merchant, paymentLine({ collectionReference: p.reference, providerReference: p.provider_reference, paidPaise: Number(p.paid) }));
    for (const r of refunds.rows) {
      add(r.merchant, refundLine({ collectionReference: r.collection_reference, refundReference: r.reference, providerReference: r.provider_reference, amountPaise: Number(r.amount_paise) }));
    }
    const out: Array<{ settlement: SandboxSettlementRow; lines: number }> = [];
    for (const [m, lines] of byMerchant) {
      const t = settlementTotals(lines);
      const id = `SBXSET${randomBytes(8).toString('hex').toUpperCase()}`;
      const s = await tx.query<SandboxSettlementRow>(
        `INSERT INTO sandbox_settlements (id, merchant, utr, gross_paise, fees_paise, tax_paise, refunds_paise, adjustments_paise, net_paise)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${S_COLUMNS}`,
        [id, m, sandboxUtr('NEFT'), t.gross, t.fees, t.tax, t.refunds, t.adjustments, t.net],
      );
      await tx.query(
        `INSERT INTO sandbox_settlement_lines (id, settlement_id, type, collection_reference, refund_reference, provider_reference, amount_paise, fee_paise, tax_paise)
         SELECT $1 || '-' || lpad(n::text, 6, '0'), $1, type, collection_reference, refund_reference, provider_reference, amount_paise, fee_paise, tax_paise
           FROM json_to_recordset($2::json) AS v(n int, type text, collection_reference text, refund_reference text, provider_reference text,
                amount_paise bigint, fee_paise bigint, tax_paise bigint)`,
        [id, JSON.stringify(lines.map((l, i) => ({ n: i + 1, type: l.type, collection_reference: l.collectionReference, refund_reference: l.refundReference, provider_reference: l.providerReference, amount_paise: l.amountPaise, fee_paise: l.feePaise, tax_paise: l.taxPaise })))],
      );
      out.push({ settlement: s.rows[0]!, lines: lines.length });
    }
    return out;
  });
}

/** A page of a merchant's settlements in the order they were made, after the cursor (a seq). */
export async function listSettlements(q: Queryable, f: { merchant: string | null; afterSeq: string | null; from: Date | null; limit: number }): Promise<SandboxSettlementRow[]> {
  const r = await q.query<SandboxSettlementRow>(
    `SELECT ${S_COLUMNS} FROM sandbox_settlements
      WHERE ($1::text IS NULL OR merchant = $1) AND ($2::bigint IS NULL OR seq > $2) AND ($3::timestamptz IS NULL OR settled_at >= $3)
      ORDER BY seq LIMIT $4`,
    [f.merchant, f.afterSeq, f.from, f.limit],
  );
  return r.rows;
}

export async function findSettlement(q: Queryable, id: string): Promise<SandboxSettlementRow | null> {
  const r = await q.query<SandboxSettlementRow>(`SELECT ${S_COLUMNS} FROM sandbox_settlements WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}

const L_COLUMNS = 'id, settlement_id, type, collection_reference, refund_reference, provider_reference, amount_paise, fee_paise, tax_paise';

/**
 * The first `perSettlement` lines of each settlement, in line-id order. A line's id is its
 * settlement's id, '-' and its number, so one settlement's lines are one range of the primary key
 * (bounded by '-' and '.', the character after it): read in order without a sort.
 */
export async function linesOf(q: Queryable, settlementIds: string[], perSettlement = 1_000_000_000): Promise<SandboxSettlementLineRow[]> {
  if (settlementIds.length === 0) return [];
  const r = await q.query<SandboxSettlementLineRow>(
    `SELECT l.* FROM unnest($1::text[]) AS s(id)
       CROSS JOIN LATERAL (SELECT ${L_COLUMNS} FROM sandbox_settlement_lines
                            WHERE id > s.id || '-' AND id < s.id || '.' AND settlement_id = s.id ORDER BY id LIMIT $2) l`,
    [settlementIds, perSettlement],
  );
  return r.rows;
}

/** A page of one settlement's lines after `afterId` (null: from the first), in line-id order. */
export async function linePage(q: Queryable, settlementId: string, afterId: string | null, limit: number): Promise<SandboxSettlementLineRow[]> {
  const r = await q.query<SandboxSettlementLineRow>(
    `SELECT ${L_COLUMNS} FROM sandbox_settlement_lines
      WHERE id > GREATEST($1 || '-', $2::text) AND id < $1 || '.' AND settlement_id = $1 ORDER BY id LIMIT $3`,
    [settlementId, afterId, limit],
  );
  return r.rows;
}
