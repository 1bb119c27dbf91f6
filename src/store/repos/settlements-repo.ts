/** SQL of settlements, their lines, reconciliation breaks and settlement anomalies (migration 0110). */
import type { Queryable } from '../db.js';

/** A settlement as an import stores it (the source of the settlement row types: the list's, the console's). */
export interface NewSettlement {
  id: string;
  org_id: string;
  provider_account_id: string | null;
  provider: string;
  provider_settlement_id: string;
  utr: string | null;
  currency: string;
  gross_paise: number;
  fees_paise: number;
  tax_paise: number;
  refunds_paise: number;
  adjustments_paise: number;
  net_paise: number;
  settled_at: Date;
}

/** The new settlement's id, or null when this (org, account, provider id) is stored already (waits for a concurrent insert to decide). */
export async function insertSettlement(q: Queryable, s: NewSettlement): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO settlements (id, org_id, provider_account_id, provider, provider_settlement_id, utr, currency, gross_paise, fees_paise, tax_paise,
       refunds_paise, adjustments_paise, net_paise, settled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (org_id, provider_account_id, provider_settlement_id) DO NOTHING RETURNING id`,
    [s.id, s.org_id, s.provider_account_id, s.provider, s.provider_settlement_id, s.utr, s.currency, s.gross_paise, s.fees_paise, s.tax_paise, s.refunds_paise, s.adjustments_paise, s.net_paise, s.settled_at],
  );
  return r.rowCount === 1;
}

/** True when this anomaly was not recorded before (the metric and the log count it once). */
export async function insertAnomaly(
  q: Queryable,
  a: { id: string; org_id: string; provider_account_id: string | null; provider_settlement_id: string; provider_line_id: string; kind: string; detail: string },
): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO settlement_anomalies (id, org_id, provider_account_id, provider_settlement_id, provider_line_id, kind, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (org_id, provider_account_id, provider_settlement_id, provider_line_id, kind) DO NOTHING`,
    [a.id, a.org_id, a.provider_account_id, a.provider_settlement_id, a.provider_line_id, a.kind, a.detail.slice(0, 600)],
  );
  return r.rowCount === 1;
}

/** The newest settlement stored for an account (null: the built-in sandbox): where the next sync starts looking. */
export async function latestSettledAt(q: Queryable, orgId: string, accountId: string | null): Promise<Date | null> {
  const r = await q.query<{ at: Date | null }>(
    'SELECT max(settled_at) AS at FROM settlements WHERE org_id = $1 AND provider_account_id IS NOT DISTINCT FROM $2',
    [orgId, accountId],
  );
  return r.rows[0]?.at ?? null;
}

/** Orders of a scan at most; the rest wait for the next round (the watermark stops at the last one read). */
const UNSETTLED_SCAN_LIMIT = 10_000;
/** The scan re-reads this much before its watermark: an order confirmed by a transaction that committed late is not missed. */
const UNSETTLED_OVERLAP = "interval '1 day'";

/**
 * UNSETTLED breaks for one provider account's confirmed collections (null: the built-in sandbox) in
 * no settlement `days` after they were confirmed; one per order (the unique index), so a second run
 * adds nothing. Only orders confirmed on or after the organization's `settlements_from` (the upgrade
 * cutover, migration 0146) are expected in a settlement, and the scan starts at the account's
 * watermark (settlement_unsettled_marks) less a day, so it does not read every confirmed order ever.
 */
export async function openUnsettledBreaks(q: Queryable, orgId: string, accountId: string | null, days: number, newId: () => string): Promise<number> {
  const account = accountId === null ? 'o.provider_account_id IS NULL' : 'o.provider_account_id = $2';
  const due = await q.query<{ id: string; amount_paise: number; confirmed_at: Date; cutoff: Date }>(
    `WITH b AS (
       SELECT greatest(g.settlements_from, m.scanned_to - ${UNSETTLED_OVERLAP}) AS from_at, now() - make_interval(days => $3) AS cutoff
         FROM organizations g LEFT JOIN settlement_unsettled_marks m ON m.org_id = g.id AND m.provider_account_id IS NOT DISTINCT FROM $2::uuid
        WHERE g.id = $1)
     SELECT o.id, o.amount_paise, o.confirmed_at, b.cutoff FROM payment_orders o, b
      WHERE o.org_id = $1 AND ${account} AND o.status IN ('PAID', 'MANUALLY_CONFIRMED', 'REFUNDED')
        AND o.confirmed_at >= b.from_at AND o.confirmed_at < b.cutoff
        AND NOT EXISTS (SELECT 1 FROM settlement_lines l WHERE l.order_pk = o.id AND l.type = 'PAYMENT')
        AND NOT EXISTS (SELECT 1 FROM recon_breaks x WHERE x.order_pk = o.id AND x.kind = 'UNSETTLED')
      ORDER BY o.confirmed_at LIMIT ${UNSETTLED_SCAN_LIMIT}`,
    [orgId, accountId, days],
  );
  let n = 0;
  if (due.rows.length > 0) {
    const r = await q.query(
      `INSERT INTO recon_breaks (id, org_id, kind, order_pk, expected_paise)
       SELECT id, $1, 'UNSETTLED', order_pk, expected_paise FROM json_to_recordset($2::json) AS v(id uuid, order_pk uuid, expected_paise bigint)
       ON CONFLICT (order_pk) WHERE kind = 'UNSETTLED' DO NOTHING`,
      [orgId, JSON.stringify(due.rows.map((o) => ({ id: newId(), order_pk: o.id, expected_paise: o.amount_paise })))],
    );
    n = r.rowCount ?? 0;
  }
  // Everything before the cutoff is judged, unless the scan stopped at its limit: then up to the last order read.
  const full = due.rows.length < UNSETTLED_SCAN_LIMIT;
  await q.query(
    `INSERT INTO settlement_unsettled_marks (org_id, provider_account_id, scanned_to)
     VALUES ($1, $2, CASE WHEN $3::timestamptz IS NULL THEN now() - make_interval(days => $4) ELSE $3::timestamptz END)
     ON CONFLICT (org_id, provider_account_id) DO UPDATE SET scanned_to = greatest(settlement_unsettled_marks.scanned_to, EXCLUDED.scanned_to)`,
    [orgId, accountId, full ? null : due.rows[due.rows.length - 1]!.confirmed_at, days],
  );
  return n;
}

/** The settlements list row: the stored settlement without its organization, provider and currency, with the counts of its lines and breaks. */
export type SettlementListRow = Omit<NewSettlement, 'org_id' | 'provider' | 'currency'> & { lines: number; breaks: number };

export async function listSettlements(q: Queryable, orgId: string, limit: number): Promise<SettlementListRow[]> {
  const r = await q.query<SettlementListRow>(
    `SELECT s.id, s.provider_account_id, s.provider_settlement_id, s.utr, s.gross_paise, s.fees_paise, s.tax_paise, s.refunds_paise,
            s.adjustments_paise, s.net_paise, s.settled_at,
            (SELECT count(*)::int FROM settlement_lines l WHERE l.settlement_id = s.id) AS lines,
            (SELECT count(*)::int FROM recon_breaks b WHERE b.settlement_id = s.id) AS breaks
       FROM settlements s WHERE s.org_id = $1 ORDER BY s.settled_at DESC, s.id DESC LIMIT $2`,
    [orgId, limit],
  );
  return r.rows;
}

export interface BreakRow {
  id: string;
  org_id: string;
  kind: string;
  settlement_id: string | null;
  order_id: string | null;
  refund_id: string | null;
  expected_paise: number | null;
  reported_paise: number | null;
  detected_at: Date;
  status: 'open' | 'resolved';
  resolved_by: string | null;
  resolution_note: string | null;
  resolved_at: Date | null;
  /** A payout statement break's payout (its id) and the provider's payout id the statement names. */
  payout_id: string | null;
  provider_ref: string | null;
}

const BREAK_SELECT = `SELECT b.id, b.org_id, b.kind, b.settlement_id, o.order_id, r.refund_id, b.expected_paise, b.reported_paise, b.detected_at, b.status,
         b.resolved_by, b.resolution_note, b.resolved_at, b.payout_pk AS payout_id, b.provider_ref
    FROM recon_breaks b LEFT JOIN payment_orders o ON o.id = b.order_pk LEFT JOIN refunds r ON r.id = b.refund_pk`;

export async function listBreaks(q: Queryable, orgId: string, status: string | null, limit: number, kind: string | null = null): Promise<BreakRow[]> {
  const r = await q.query<BreakRow>(
    `${BREAK_SELECT} WHERE b.org_id = $1 AND ($2::text IS NULL OR b.status = $2) AND ($4::text IS NULL OR b.kind = $4) ORDER BY b.detected_at DESC, b.id DESC LIMIT $3`,
    [orgId, status, limit, kind],
  );
  return r.rows;
}

export async function findBreak(q: Queryable, id: string, lock = false): Promise<BreakRow | null> {
  const r = await q.query<BreakRow>(`${BREAK_SELECT} WHERE b.id = $1${lock ? ' FOR UPDATE OF b' : ''}`, [id]);
  return r.rows[0] ?? null;
}

export async function resolveBreak(q: Queryable, id: string, actor: string, note: string, auditId: string): Promise<void> {
  await q.query(
    `WITH b AS (UPDATE recon_breaks SET status = 'resolved', resolved_by = $2, resolution_note = $3, resolved_at = now() WHERE id = $1 RETURNING id, org_id)
     INSERT INTO recon_break_audit (id, break_id, org_id, actor, action, note) SELECT $4, b.id, b.org_id, $2, 'resolve', $3 FROM b`,
    [id, actor, note, auditId],
  );
}

export async function expectedDaysOf(q: Queryable, orgId: string): Promise<number | null> {
  const r = await q.query<{ days: number }>('SELECT settlement_expected_days AS days FROM organizations WHERE id = $1', [orgId]);
  return r.rows[0]?.days ?? null;
}

export async function setExpectedDays(q: Queryable, orgId: string, days: number): Promise<boolean> {
  const r = await q.query('UPDATE organizations SET settlement_expected_days = $2 WHERE id = $1', [orgId, days]);
  return r.rowCount === 1;
}

export async function orgSettings(q: Queryable, orgId: string): Promise<{ id: string; name: string; refund_review: string; settlement_expected_days: number } | null> {
  const r = await q.query<{ id: string; name: string; refund_review: string; settlement_expected_days: number }>(
    'SELECT id, name, refund_review, settlement_expected_days FROM organizations WHERE id = $1',
    [orgId],
  );
  return r.rows[0] ?? null;
}

/**
 * Every organization with the collections accounts whose settlements can be fetched: the built-in
 * sandbox (null), each account of the sandbox kind (a merchant of its own at the sandbox PSP,
 * collectingMerchant) and each Cashfree account.
 */
export async function syncTargets(q: Queryable, orgId: string | null): Promise<Array<{ org_id: string; provider_account_id: string | null; provider: string }>> {
  const r = await q.query<{ org_id: string; provider_account_id: string | null; provider: string }>(
    `SELECT id AS org_id, NULL::uuid AS provider_account_id, 'sandbox' AS provider FROM organizations WHERE $1::uuid IS NULL OR id = $1
     UNION ALL
     SELECT org_id, id, provider FROM provider_accounts WHERE provider IN ('sandbox', 'cashfree') AND ($1::uuid IS NULL OR org_id = $1)
     ORDER BY 1, 2 NULLS FIRST`,
    [orgId],
  );
  return r.rows;
}

/** The organization's provider accounts of the sandbox kind (each settled as a merchant of its own by the sandbox PSP). */
export async function sandboxAccountsOf(q: Queryable, orgId: string): Promise<string[]> {
  const r = await q.query<{ id: string }>("SELECT id FROM provider_accounts WHERE org_id = $1 AND provider = 'sandbox' ORDER BY created_at, id", [orgId]);
  return r.rows.map((x) => x.id);
}

/** Whether this settlement is stored already. */
export async function isStored(q: Queryable, orgId: string, accountId: string | null, providerSettlementId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM settlements WHERE org_id = $1 AND provider_account_id IS NOT DISTINCT FROM $2 AND provider_settlement_id = $3', [orgId, accountId, providerSettlementId]);
  return (r.rowCount ?? 0) > 0;
}

/** Serialises the imports of one organization for the rest of the transaction. */
export async function lockOrgImports(q: Queryable, orgId: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('tijori settlement import'), hashtext($1))", [orgId]);
}

/** How many breaks of each kind a settlement has (for the metric). */
export async function breakKindsOf(q: Queryable, settlementId: string): Promise<Array<{ kind: string; n: number }>> {
  const r = await q.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM recon_breaks WHERE settlement_id = $1 GROUP BY kind', [settlementId]);
  return r.rows;
}
