/**
 * The console's finance pages' SQL (contract §9, docs/console.md "Balances", "Settlements"): the
 * organization's provider accounts by name, the ledger's collected and settled amounts per day, and
 * keyset pages of settlements and of a settlement's lines. Reads only; every statement is scoped to
 * the organization.
 */
import type { Queryable } from '../db.js';
import type { NewSettlement, SettlementListRow } from './settlements-repo.js';

export interface AccountName {
  id: string;
  name: string;
  provider: string;
}

export async function providerAccountNames(q: Queryable, orgId: string): Promise<AccountName[]> {
  const r = await q.query<AccountName>('SELECT id::text, name, provider FROM provider_accounts WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
  return r.rows;
}

export interface LedgerDay {
  date: string;
  collected_paise: number;
  settled_paise: number;
}

/**
 * Collected (credits to `collections`) and settled (debits to `settled`) per provider account and
 * calendar day of `zone` from `firstDay` on, straight from the journal (an entry's provider account
 * is the one whose balances it moves). A settlement's entry counts on the day the provider settled
 * it (its `settled_at`), not the day Tijori imported it; a collection's on the day its entry was
 * written, which is the transaction that made the order PAID.
 */
export async function ledgerDays(q: Queryable, orgId: string, zone: string, firstDay: string): Promise<Array<LedgerDay & { provider_account_id: string }>> {
  const r = await q.query<LedgerDay & { provider_account_id: string }>(
    `SELECT e.provider_account_id::text AS provider_account_id,
            to_char((coalesce(s.settled_at, e.created_at) AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS date,
            coalesce(sum(-p.amount_paise) FILTER (WHERE p.account = 'collections'), 0)::bigint AS collected_paise,
            coalesce(sum(p.amount_paise) FILTER (WHERE p.account = 'settled'), 0)::bigint AS settled_paise
       FROM ledger_entries e
       JOIN ledger_postings p ON p.entry_id = e.id AND p.account IN ('collections', 'settled')
       LEFT JOIN settlements s ON e.source_type = 'settlement' AND s.id = e.source_id
      WHERE e.org_id = $1 AND coalesce(s.settled_at, e.created_at) >= ($3::date::timestamp AT TIME ZONE $2)
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [orgId, zone, firstDay],
  );
  return r.rows;
}

/** The first of `n` days ending today in `zone` (YYYY-MM-DD), and today. */
export async function lastDays(q: Queryable, zone: string, n: number): Promise<{ first: string; today: string }> {
  const r = await q.query<{ first: string; today: string }>(
    `SELECT to_char((now() AT TIME ZONE $1)::date - ($2::int - 1), 'YYYY-MM-DD') AS first, to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS today`,
    [zone, n],
  );
  return r.rows[0] as { first: string; today: string };
}

/** Where a page starts: strictly after (older than, or before in id order for lines) this row. */
export interface FinanceKey {
  position: string;
  id: string;
}

/** The settlements list row (settlements-repo.ts) with what the console adds: provider, names, currency, import time, open breaks. */
export interface SettlementRow extends SettlementListRow, Pick<NewSettlement, 'provider' | 'currency'> {
  /** The provider account's name; the built-in sandbox (no account row) is named so. */
  provider_account_name: string;
  imported_at: Date;
  open_breaks: number;
  key_ts: string;
}

const SETTLEMENT_SELECT = `SELECT s.id::text, s.provider_account_id::text, s.provider, coalesce(pa.name, 'Built-in sandbox') AS provider_account_name, s.provider_settlement_id, s.utr, s.currency, s.gross_paise, s.fees_paise,
         s.tax_paise, s.refunds_paise, s.adjustments_paise, s.net_paise, s.settled_at, s.imported_at,
         (SELECT count(*)::int FROM settlement_lines l WHERE l.settlement_id = s.id) AS lines,
         (SELECT count(*)::int FROM recon_breaks b WHERE b.settlement_id = s.id) AS breaks,
         (SELECT count(*)::int FROM recon_breaks b WHERE b.settlement_id = s.id AND b.status = 'open') AS open_breaks,
         to_char(s.settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key_ts
    FROM settlements s LEFT JOIN provider_accounts pa ON pa.id = s.provider_account_id`;

/** A page of settlements, newest settled first (the settlements_org_idx order); `limit + 1` rows read. */
export async function settlementsPage(q: Queryable, orgId: string, after: FinanceKey | null, limit: number): Promise<SettlementRow[]> {
  const r = await q.query<SettlementRow>(
    `${SETTLEMENT_SELECT}
      WHERE s.org_id = $1 AND ($2::timestamptz IS NULL OR (s.settled_at, s.id) < ($2::timestamptz, $3::uuid))
      ORDER BY s.settled_at DESC, s.id DESC LIMIT $4`,
    [orgId, after?.position ?? null, after?.id ?? null, limit + 1],
  );
  return r.rows;
}

export async function settlementOf(q: Queryable, orgId: string, id: string): Promise<SettlementRow | null> {
  const r = await q.query<SettlementRow>(`${SETTLEMENT_SELECT} WHERE s.org_id = $1 AND s.id = $2`, [orgId, id]);
  return r.rows[0] ?? null;
}

export interface LineRow {
  id: string;
  type: string;
  reported_type: string;
  order_id: string | null;
  refund_id: string | null;
  /** The order a refund line's refund belongs to (for its link). */
  refund_order_id: string | null;
  order_reference: string | null;
  refund_reference: string | null;
  provider_payment_id: string | null;
  amount_paise: number;
  fee_paise: number;
  tax_paise: number;
  net_paise: number;
  match: string;
}

/** A page of a settlement's lines in a stable order (by id); `limit + 1` rows read. */
export async function linesPage(q: Queryable, orgId: string, settlementId: string, afterId: string | null, limit: number): Promise<LineRow[]> {
  const r = await q.query<LineRow>(
    `SELECT l.id::text, l.type, l.reported_type, o.order_id, r.refund_id, ro.order_id AS refund_order_id, l.order_reference, l.refund_reference,
            l.provider_payment_id, l.amount_paise, l.fee_paise, l.tax_paise, l.net_paise, l.match
       FROM settlement_lines l
       LEFT JOIN payment_orders o ON o.id = l.order_pk
       LEFT JOIN refunds r ON r.id = l.refund_pk
       LEFT JOIN payment_orders ro ON ro.id = r.order_pk
      WHERE l.settlement_id = $2 AND l.org_id = $1 AND ($3::uuid IS NULL OR l.id > $3::uuid)
      ORDER BY l.id LIMIT $4`,
    [orgId, settlementId, afterId, limit + 1],
  );
  return r.rows;
}
