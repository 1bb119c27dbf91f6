/** SQL for a payout account's balance and statement check (services/payouts/payout-account.ts). */
import type { PayoutStatus } from '../../domain/payout.js';
import type { Queryable } from '../db.js';

/** The organization's default payout route and the provider account it sends through (null: the built-in sandbox). */
export async function defaultRouteAccount(q: Queryable, orgId: string): Promise<{ routeId: string; provider: string; providerAccountId: string | null } | null> {
  const r = await q.query<{ id: string; provider: string; provider_account_id: string | null }>(
    'SELECT id, provider, provider_account_id FROM bank_connections WHERE org_id = $1 AND is_default AND active',
    [orgId],
  );
  const row = r.rows[0];
  return row ? { routeId: row.id, provider: row.provider, providerAccountId: row.provider_account_id } : null;
}

/** Whether the provider account is the organization's. */
export async function accountOfOrg(q: Queryable, orgId: string, providerAccountId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM provider_accounts WHERE id = $1 AND org_id = $2', [providerAccountId, orgId]);
  return r.rowCount === 1;
}

export interface StatementPayoutRow {
  id: string;
  status: PayoutStatus;
  amount_paise: string;
  bank_reference: string | null;
  created_at: Date;
}

/**
 * The payouts sent through the account's routes whose outcome falls in [from, to): created in it,
 * or decided in it (a payout made before the window may be debited or reversed inside it).
 */
export async function payoutsOfWindow(q: Queryable, orgId: string, providerAccountId: string, from: Date, to: Date): Promise<StatementPayoutRow[]> {
  const r = await q.query<StatementPayoutRow>(
    `SELECT p.id, p.status, p.amount_paise, p.bank_reference, p.created_at
       FROM payouts p JOIN bank_connections b ON b.id = p.bank_connection_id
      WHERE p.org_id = $1 AND b.provider_account_id = $2
        AND ((p.created_at >= $3 AND p.created_at < $4) OR (p.updated_at >= $3 AND p.updated_at < $4))
        AND p.status IN ('SUCCESS', 'FAILED', 'REVERSED')`,
    [orgId, providerAccountId, from, to],
  );
  return r.rows;
}

/** Which of these provider payout ids Tijori holds for the account, whatever their date. */
export async function knownProviderPayoutIds(q: Queryable, orgId: string, providerAccountId: string, ids: string[]): Promise<Set<string>> {
  const r = await q.query<{ bank_reference: string }>(
    `SELECT p.bank_reference FROM payouts p JOIN bank_connections b ON b.id = p.bank_connection_id
      WHERE p.org_id = $1 AND b.provider_account_id = $2 AND p.bank_reference = ANY($3::text[])`,
    [orgId, providerAccountId, ids],
  );
  return new Set(r.rows.map((x) => x.bank_reference));
}

/** The provider accounts payout routes send through (null org: every organization's). */
export async function payoutProviderAccounts(q: Queryable, orgId: string | null): Promise<Array<{ orgId: string; providerAccountId: string }>> {
  const r = await q.query<{ org_id: string; provider_account_id: string }>(
    `SELECT DISTINCT org_id, provider_account_id FROM bank_connections
      WHERE provider_account_id IS NOT NULL AND ($1::uuid IS NULL OR org_id = $1) ORDER BY org_id, provider_account_id`,
    [orgId],
  );
  return r.rows.map((x) => ({ orgId: x.org_id, providerAccountId: x.provider_account_id }));
}

export interface NewStatementBreak {
  id: string;
  org_id: string;
  provider_account_id: string;
  kind: string;
  payout_pk: string | null;
  provider_ref: string | null;
  expected_paise: number | null;
  reported_paise: number | null;
}

/** Records the breaks not recorded before (a statement is checked again every round); answers how many are new. */
export async function insertStatementBreaks(q: Queryable, breaks: NewStatementBreak[]): Promise<number> {
  if (breaks.length === 0) return 0;
  const r = await q.query(
    `INSERT INTO recon_breaks (id, org_id, provider_account_id, kind, payout_pk, provider_ref, expected_paise, reported_paise)
     SELECT id, org_id, provider_account_id, kind, payout_pk, provider_ref, expected_paise, reported_paise
       FROM json_to_recordset($1::json) AS v(id uuid, org_id uuid, provider_account_id uuid, kind text, payout_pk uuid, provider_ref text,
         expected_paise bigint, reported_paise bigint)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(breaks)],
  );
  return r.rowCount ?? 0;
}
