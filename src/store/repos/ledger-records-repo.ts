/**
 * The ledger's balances recomputed from the records themselves — orders, refunds, payouts (and
 * settlements) — without reading the journal: the second way `tijori ledger verify` computes them
 * (docs/accounting.md "What verify checks"). Each function answers rows of
 * (provider_account_id, account, balance_paise) under the same sign rule as the journal (debit
 * positive). Statuses come as parameters from the domain.
 */
import { BUILT_IN_SANDBOX_ACCOUNT } from '../../domain/ledger.js';
import type { Queryable } from '../db.js';
import type { BalanceRow } from './ledger-repo.js';

/** Sums per (provider account, account) from a statement answering (provider_account_id, account, balance_paise). */
async function rows(q: Queryable, text: string, values: unknown[]): Promise<BalanceRow[]> {
  return (await q.query<BalanceRow>(text, values)).rows;
}

/**
 * Confirmed collections (orders that are, or were before a full refund, PAID or MANUALLY_CONFIRMED)
 * and completed refunds: collections_receivable, collections, refunds.
 */
export function collectionTerms(q: Queryable, orgId: string, confirmedStatuses: readonly string[]): Promise<BalanceRow[]> {
  return rows(
    q,
    `WITH c AS (SELECT coalesce(provider_account_id, '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid) AS pa, sum(amount_paise)::bigint AS n
                  FROM payment_orders WHERE org_id = $1 AND status = ANY($2::text[]) GROUP BY 1),
          r AS (SELECT coalesce(o.provider_account_id, '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid) AS pa, sum(f.amount_paise)::bigint AS n
                  FROM refunds f JOIN payment_orders o ON o.id = f.order_pk
                 WHERE f.org_id = $1 AND f.status = 'COMPLETED' GROUP BY 1)
     SELECT pa::text AS provider_account_id, 'collections_receivable' AS account, n AS balance_paise FROM c
     UNION ALL SELECT pa::text, 'collections', -n FROM c
     UNION ALL SELECT pa::text, 'collections_receivable', -n FROM r
     UNION ALL SELECT pa::text, 'refunds', n FROM r`,
    [orgId, confirmedStatuses],
  );
}

/** Payouts created (PROCESSING), paid (SUCCESS): payouts_in_flight, payouts_paid, payout_funding. FAILED and REVERSED net to nothing. */
export function payoutTerms(q: Queryable, orgId: string): Promise<BalanceRow[]> {
  return rows(
    q,
    `WITH p AS (SELECT coalesce(bc.provider_account_id, '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid) AS pa, p.status, sum(p.amount_paise)::bigint AS n
                  FROM payouts p JOIN bank_connections bc ON bc.id = p.bank_connection_id
                 WHERE p.org_id = $1 AND p.status IN ('PROCESSING', 'SUCCESS') GROUP BY 1, 2)
     SELECT pa::text AS provider_account_id, CASE status WHEN 'PROCESSING' THEN 'payouts_in_flight' ELSE 'payouts_paid' END AS account, n AS balance_paise FROM p
     UNION ALL SELECT pa::text, 'payout_funding', -n FROM p`,
    [orgId],
  );
}

/**
 * Settlements imported: settled (net), fees, taxes, adjustments, and collections_receivable less
 * gross less the refunds deducted, computed from each settlement's stored lines (sums by type:
 * gross = payments, refunds, adjustments = adjustments + chargebacks, fees and taxes of every line),
 * not from the totals the import posted, so a settlement whose totals disagree with its lines shows
 * as a mismatch. Each line counts under the provider account of **its own order** (a refund line:
 * its refund's order), not the settlement's: the account that collected the money is the one whose
 * receivable the settlement pays off, so a settlement booked under another account (issue #33's
 * sandbox-kind accounts) is a mismatch on both accounts. A line with no order of ours (unknown, an
 * adjustment, a chargeback) counts under the settlement's account. Only settlements that post an
 * entry count: INR whose stated totals add up (domain/ledger.ts settlementImported refuses the
 * others; the import keeps them as anomalies). Nothing until the `settlements` table exists.
 */
export async function settlementTerms(q: Queryable, orgId: string): Promise<BalanceRow[]> {
  const exists = await q.query<{ t: string | null }>(`SELECT to_regclass('settlements')::text AS t`);
  if (!exists.rows[0]?.t) return [];
  return rows(
    q,
    `WITH posted AS (SELECT id, coalesce(provider_account_id, '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid) AS pa FROM settlements
                      WHERE org_id = $1 AND currency = 'INR' AND least(gross_paise, fees_paise, tax_paise, refunds_paise, adjustments_paise) >= 0
                        AND net_paise = gross_paise - fees_paise - tax_paise - refunds_paise - adjustments_paise),
          s AS (SELECT CASE WHEN o.id IS NULL THEN p.pa ELSE coalesce(o.provider_account_id, '${BUILT_IN_SANDBOX_ACCOUNT}'::uuid) END AS pa,
                       sum(CASE WHEN l.type = 'PAYMENT' THEN l.amount_paise ELSE 0 END)::bigint AS gross,
                       sum(CASE WHEN l.type = 'REFUND' THEN l.amount_paise ELSE 0 END)::bigint AS refunds,
                       sum(CASE WHEN l.type IN ('PAYMENT', 'REFUND') THEN 0 ELSE l.amount_paise END)::bigint AS adj,
                       sum(l.fee_paise)::bigint AS fees, sum(l.tax_paise)::bigint AS tax
                  FROM posted p JOIN settlement_lines l ON l.settlement_id = p.id
                  LEFT JOIN refunds f ON f.id = l.refund_pk
                  LEFT JOIN payment_orders o ON o.id = coalesce(l.order_pk, f.order_pk)
                 GROUP BY 1)
     SELECT pa::text AS provider_account_id, 'settled' AS account, gross - fees - tax - refunds - adj AS balance_paise FROM s
     UNION ALL SELECT pa::text, 'fees', fees FROM s
     UNION ALL SELECT pa::text, 'taxes', tax FROM s
     UNION ALL SELECT pa::text, 'adjustments', adj FROM s
     UNION ALL SELECT pa::text, 'collections_receivable', -(gross - refunds) FROM s`,
    [orgId],
  );
}

/** Whether the organization exists. */
export async function orgExists(q: Queryable, orgId: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM organizations WHERE id = $1`, [orgId])).rowCount === 1;
}
