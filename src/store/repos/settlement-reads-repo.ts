/**
 * SQL of the merchant API's settlement reads (contract §9, "Merchant API"): an organization's
 * settlements newest first and a settlement's lines, in keyset pages, and one settlement. Every
 * statement is scoped by org_id (the scope `settlements:read` is organization-wide). Pages read
 * limit + 1 rows; the key is µs since the epoch as text (a Date would lose the µs).
 */
import type { LineMatch, LineType } from '../../domain/reconciliation.js';
import type { Queryable } from '../db.js';
import { ORDER_SETTLEMENT_COLUMNS, ORDER_SETTLEMENT_JOIN, type OrderSettlementColumns } from './payment-orders-repo.js';
import type { SettlementListRow } from './settlements-repo.js';

const SETTLEMENT_COLUMNS = `s.id, s.provider_account_id, s.provider_settlement_id, s.utr, s.gross_paise, s.fees_paise, s.tax_paise, s.refunds_paise,
       s.adjustments_paise, s.net_paise, s.settled_at,
       (SELECT count(*)::int FROM settlement_lines l WHERE l.settlement_id = s.id) AS lines,
       (SELECT count(*)::int FROM recon_breaks b WHERE b.settlement_id = s.id) AS breaks,
       (extract(epoch FROM s.settled_at) * 1000000)::bigint::text AS key_us`;

export type SettlementPageRow = SettlementListRow & { key_us: string };

export interface SettlementPageFilter {
  orgId: string;
  settledFrom?: Date | undefined;
  settledTo?: Date | undefined;
  /** Strictly older than this row (settled_at in µs, id). */
  after?: { us: string; id: string } | undefined;
  limit: number;
}

/** One page, newest first by (settled_at, id): served by settlements_org_idx (0110). */
export async function settlementsPage(q: Queryable, f: SettlementPageFilter): Promise<SettlementPageRow[]> {
  const r = await q.query<SettlementPageRow>(
    `SELECT ${SETTLEMENT_COLUMNS}
       FROM settlements s
      WHERE s.org_id = $1
        AND ($2::timestamptz IS NULL OR s.settled_at >= $2)
        AND ($3::timestamptz IS NULL OR s.settled_at <= $3)
        AND ($4::bigint IS NULL OR (s.settled_at, s.id) < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', $5::uuid))
      ORDER BY s.settled_at DESC, s.id DESC
      LIMIT $6`,
    [f.orgId, f.settledFrom ?? null, f.settledTo ?? null, f.after?.us ?? null, f.after?.id ?? null, f.limit + 1],
  );
  return r.rows;
}

/** One settlement of the organization; null when it has none with this id. */
export async function settlementOfOrg(q: Queryable, orgId: string, id: string): Promise<SettlementListRow | null> {
  const r = await q.query<SettlementPageRow>(`SELECT ${SETTLEMENT_COLUMNS} FROM settlements s WHERE s.id = $1 AND s.org_id = $2`, [id, orgId]);
  return r.rows[0] ?? null;
}

export interface LineRow {
  id: string;
  type: LineType;
  order_id: string | null;
  refund_id: string | null;
  provider_payment_id: string | null;
  amount_paise: number;
  fee_paise: number;
  tax_paise: number;
  net_paise: number;
  match: LineMatch;
}

/**
 * A settlement's lines in id order (ids are time-ordered, 0009), from after `afterId`: limit + 1
 * rows, served by settlement_lines_settlement_idx. `order_id`/`refund_id` are Tijori's when the
 * line matched a record, else the reference the provider echoed.
 */
export async function linesPage(q: Queryable, f: { settlementId: string; afterId?: string | undefined; limit: number }): Promise<LineRow[]> {
  const r = await q.query<LineRow>(
    `SELECT l.id, l.type, COALESCE(o.order_id, l.order_reference) AS order_id, COALESCE(rf.refund_id, l.refund_reference) AS refund_id,
            l.provider_payment_id, l.amount_paise, l.fee_paise, l.tax_paise, l.net_paise, l.match
       FROM settlement_lines l
       LEFT JOIN payment_orders o ON o.id = l.order_pk
       LEFT JOIN refunds rf ON rf.id = l.refund_pk
      WHERE l.settlement_id = $1 AND ($2::uuid IS NULL OR l.id > $2)
      ORDER BY l.id
      LIMIT $3`,
    [f.settlementId, f.afterId ?? null, f.limit + 1],
  );
  return r.rows;
}

/** The settlement that covers one order (OrderSettlementColumns), for reads that loaded the order by itself (the console's order page). */
export async function settlementOfOrder(q: Queryable, orderPk: string): Promise<OrderSettlementColumns> {
  const r = await q.query<OrderSettlementColumns>(`SELECT ${ORDER_SETTLEMENT_COLUMNS} FROM (SELECT $1::uuid AS id) o ${ORDER_SETTLEMENT_JOIN('o')}`, [orderPk]);
  return r.rows[0] ?? {};
}
