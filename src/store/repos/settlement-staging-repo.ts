/**
 * SQL of a settlement's import in stages (migration 0140, docs/accounting.md): its lines streamed
 * into settlement_line_staging a page at a time, then matched against orders and refunds by joins
 * and moved into settlement_lines, with their breaks, a batch of positions at a time, inside the
 * transaction that stores the settlement. The rules are those of src/domain/reconciliation.ts
 * (matchPayment, matchRefund), written as SQL: test/settlements proves they agree.
 */
import type { Queryable } from '../db.js';
import { longQuery, setLongStatementTimeout } from '../long-query.js';

/** A batch's statements may take longer than a request's 10 s on a loaded machine (long-query.ts). */
const MATCH_TIMEOUT_MS = 120_000;

export interface StagedLine {
  seq: number;
  line_id: string;
  break_id: string;
  provider_line_id: string;
  type: string;
  reported_type: string;
  order_reference: string | null;
  order_pk_decoded: string | null;
  refund_reference: string | null;
  provider_payment_id: string | null;
  amount_paise: number;
  fee_paise: number;
  tax_paise: number;
  net_paise: number;
  currency: string;
  bad: boolean;
}

const COLUMNS = [
  ['seq', 'int'],
  ['line_id', 'uuid'],
  ['break_id', 'uuid'],
  ['provider_line_id', 'text'],
  ['type', 'text'],
  ['reported_type', 'text'],
  ['order_reference', 'text'],
  ['order_pk_decoded', 'uuid'],
  ['refund_reference', 'text'],
  ['provider_payment_id', 'text'],
  ['amount_paise', 'bigint'],
  ['fee_paise', 'bigint'],
  ['tax_paise', 'bigint'],
  ['net_paise', 'bigint'],
  ['currency', 'text'],
  ['bad', 'boolean'],
] as const;

const STAGE_SQL = `INSERT INTO settlement_line_staging (import_id, ${COLUMNS.map(([c]) => c).join(', ')})
  SELECT $1, * FROM unnest(${COLUMNS.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')})`;

/** One batch of lines into staging: one statement, a column per array (a few thousand lines each). */
export async function stageLines(q: Queryable, importId: string, lines: StagedLine[]): Promise<void> {
  if (lines.length === 0) return;
  await q.query(STAGE_SQL, [importId, ...COLUMNS.map(([c]) => lines.map((l) => l[c]))]);
}

/** Deletes an import's staging rows, 50,000 positions per statement (each well inside the pool's statement timeout). */
export async function clearStaging(q: Queryable, importId: string, lineCount: number): Promise<void> {
  for (let from = 1; from <= lineCount; from += 50_000) {
    await q.query('DELETE FROM settlement_line_staging WHERE import_id = $1 AND seq BETWEEN $2 AND $3', [importId, from, from + 49_999]);
  }
}

/** The orders of the staged payment lines at positions [from, to] in these states (the ones the settlement check applies to). */
export async function stagedOrdersIn(
  q: Queryable,
  importId: string,
  range: { from: number; to: number },
  orgId: string,
  statuses: string[],
): Promise<Array<{ id: string; order_id: string; status: string; amount_paise: number; provider_account_id: string | null }>> {
  const r = await q.query<{ id: string; order_id: string; status: string; amount_paise: number; provider_account_id: string | null }>(
    `SELECT DISTINCT o.id, o.order_id, o.status, o.amount_paise, o.provider_account_id
       FROM settlement_line_staging st JOIN payment_orders o ON o.id = st.order_pk_decoded AND o.order_id = st.order_reference
      WHERE st.import_id = $1 AND st.seq BETWEEN $4 AND $5 AND st.type = 'PAYMENT' AND o.org_id = $2 AND o.status = ANY($3::text[])`,
    [importId, orgId, statuses, range.from, range.to],
  );
  return r.rows;
}

/**
 * Matches the staged lines at positions [from, to] and stores them as the settlement's lines.
 * DUPLICATE: the payment (refund) is in a line stored before (another settlement's, or an earlier
 * sound line of this one: an earlier batch's, or earlier in this batch by position).
 */
const MATCH_SQL = `
WITH j AS (
  SELECT st.*, o.id AS o_pk, o.status AS o_status, o.amount_paise AS o_amount, r.id AS r_pk, r.status AS r_status, r.amount_paise AS r_amount
    FROM settlement_line_staging st
    LEFT JOIN payment_orders o ON st.type = 'PAYMENT' AND o.id = st.order_pk_decoded AND o.order_id = st.order_reference AND o.org_id = $3
    LEFT JOIN refunds r ON st.type = 'REFUND' AND r.refund_id = st.refund_reference AND r.org_id = $3
   WHERE st.import_id = $1 AND st.seq BETWEEN $5 AND $6
), n AS (
  SELECT j.*, row_number() OVER (PARTITION BY j.type, j.bad, COALESCE(j.o_pk, j.r_pk) ORDER BY j.seq) AS nth FROM j
), m AS (
  SELECT n.*,
    CASE
      WHEN $4 OR n.bad THEN 'ANOMALY'
      WHEN n.type = 'PAYMENT' THEN CASE
        WHEN n.o_pk IS NULL THEN 'UNKNOWN_ORDER'
        WHEN n.nth > 1 OR EXISTS (SELECT 1 FROM settlement_lines l WHERE l.order_pk = n.o_pk AND l.type = 'PAYMENT' AND (l.settlement_id <> $2 OR l.match <> 'ANOMALY')) THEN 'DUPLICATE'
        WHEN n.o_status NOT IN ('PAID', 'MANUALLY_CONFIRMED', 'REFUNDED') THEN 'NOT_PAID_IN_TIJORI'
        WHEN n.amount_paise = n.o_amount THEN 'MATCHED' ELSE 'AMOUNT_MISMATCH' END
      WHEN n.type = 'REFUND' THEN CASE
        WHEN n.r_pk IS NULL THEN 'UNKNOWN_ORDER'
        WHEN n.nth > 1 OR EXISTS (SELECT 1 FROM settlement_lines l WHERE l.refund_pk = n.r_pk AND l.type = 'REFUND' AND (l.settlement_id <> $2 OR l.match <> 'ANOMALY')) THEN 'DUPLICATE'
        WHEN n.r_status <> 'COMPLETED' THEN 'NOT_PAID_IN_TIJORI'
        WHEN n.amount_paise = n.r_amount THEN 'MATCHED' ELSE 'AMOUNT_MISMATCH' END
      ELSE 'MATCHED'
    END AS match
    FROM n
), ins AS (
  INSERT INTO settlement_lines (id, settlement_id, org_id, provider_line_id, type, reported_type, order_reference, refund_reference, provider_payment_id,
      order_pk, refund_pk, amount_paise, fee_paise, tax_paise, net_paise, currency, match)
  SELECT line_id, $2, $3, provider_line_id, type, reported_type, order_reference, refund_reference, provider_payment_id,
      o_pk, r_pk, amount_paise, fee_paise, tax_paise, net_paise, currency, match
    FROM m
  RETURNING match
)
SELECT count(*)::int AS lines, (count(*) FILTER (WHERE match = 'MATCHED'))::int AS matched FROM ins`;

const BREAKS_SQL = `
INSERT INTO recon_breaks (id, org_id, kind, settlement_id, line_id, order_pk, refund_pk, expected_paise, reported_paise)
SELECT st.break_id, $3, l.match, $2, l.id, l.order_pk, l.refund_pk,
       CASE WHEN l.match = 'UNKNOWN_ORDER' THEN NULL WHEN l.type = 'PAYMENT' THEN o.amount_paise WHEN l.type = 'REFUND' THEN r.amount_paise END,
       l.amount_paise
  FROM settlement_line_staging st
  JOIN settlement_lines l ON l.id = st.line_id
  LEFT JOIN payment_orders o ON o.id = l.order_pk
  LEFT JOIN refunds r ON r.id = l.refund_pk
 WHERE st.import_id = $1 AND st.seq BETWEEN $4 AND $5 AND l.match NOT IN ('MATCHED', 'ANOMALY')`;

/**
 * For the rest of the completing transaction: memory for the batch's sorts (the window over its
 * lines; the default 4 MB spills to disk) and the statements' own time limit (longQuery).
 */
export async function prepareMatching(q: Queryable): Promise<void> {
  await q.query("SET LOCAL work_mem = '32MB'");
  await setLongStatementTimeout(q, MATCH_TIMEOUT_MS);
}

/** Stores the staged lines [from, to] as lines of the settlement, with their breaks; what was matched. */
export async function completeBatch(
  q: Queryable,
  b: { importId: string; settlementId: string; orgId: string; wholeBad: boolean; from: number; to: number },
): Promise<{ lines: number; matched: number; breaks: number }> {
  const r = await longQuery<{ lines: number; matched: number }>(q, MATCH_SQL, [b.importId, b.settlementId, b.orgId, b.wholeBad, b.from, b.to], MATCH_TIMEOUT_MS);
  const made = await longQuery(q, BREAKS_SQL, [b.importId, b.settlementId, b.orgId, b.from, b.to], MATCH_TIMEOUT_MS);
  return { ...(r.rows[0] ?? { lines: 0, matched: 0 }), breaks: made.rowCount ?? 0 };
}
