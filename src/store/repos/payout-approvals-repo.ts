/**
 * SQL of console payouts (maker-checker, migration 0023): the console principal, reads of pending
 * payouts. Their create and decisions are written by payout-writes-repo.ts, as every payout change.
 */
import { randomBytes } from 'node:crypto';
import { newRowId } from '../row-id.js';
import type { Queryable } from '../db.js';
import type { PayoutMode } from '../../domain/payout.js';
import { PAYOUT_COLUMNS, type PayoutRow } from './payouts-repo.js';

/**
 * The organization's console principal (migration 0023): created on first use, never active, its
 * secret hash 32 random bytes nobody knows. Two first uses at once both end with the one row.
 */
export async function ensureConsolePrincipal(q: Queryable, orgId: string): Promise<{ pk: string; clientId: string }> {
  await q.query(
    `INSERT INTO api_clients (id, client_id, org_id, name, secret_hash, scopes, active, console_principal)
     VALUES ($1, $2, $3, 'Console payouts (not an API client)', $4, '{}', false, true)
     ON CONFLICT (org_id) WHERE console_principal DO NOTHING`,
    [newRowId(), `console-${orgId}`, orgId, randomBytes(32)],
  );
  return (await findConsolePrincipal(q, orgId))!;
}

/** The organization's console principal if a console payout or bulk file ever made it; null before. */
export async function findConsolePrincipal(q: Queryable, orgId: string): Promise<{ pk: string; clientId: string } | null> {
  const r = await q.query<{ id: string; client_id: string }>('SELECT id, client_id FROM api_clients WHERE org_id = $1 AND console_principal', [orgId]);
  const row = r.rows[0];
  return row ? { pk: row.id, clientId: row.client_id } : null;
}

export type ApprovalRow = PayoutRow & {
  maker_user_id: string | null;
  checker_user_id: string | null;
  approval_required: boolean;
  decision_note: string | null;
  /** The bank connection it was made for (re-checked at approval). */
  bank_connection_id: string;
};

export const APPROVAL_COLUMNS = `${PAYOUT_COLUMNS}, p.maker_user_id, p.checker_user_id, p.approval_required, p.decision_note, p.bank_connection_id`;

/** One payout of the organization, read without a lock (a view never waits for a checker deciding it). */
export async function findOrgPayout(q: Queryable, orgId: string, id: string): Promise<ApprovalRow | null> {
  const r = await q.query<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM payouts p WHERE p.id = $1 AND p.org_id = $2`, [id, orgId]);
  return r.rows[0] ?? null;
}

/**
 * The payout's bank connection as an approval finds it: its modes if it is still active, null if it is gone
 * or inactive. FOR SHARE: a change of the bank connection waits for the approving transaction to commit, so
 * the approval never sends through a bank connection deactivated (or stripped of the mode) meanwhile.
 */
export async function lockActiveBankConnectionModes(q: Queryable, orgId: string, bankConnectionId: string): Promise<PayoutMode[] | null> {
  const r = await q.query<{ modes: PayoutMode[] }>('SELECT modes FROM bank_connections WHERE id = $1 AND org_id = $2 AND active FOR SHARE', [bankConnectionId, orgId]);
  return r.rows[0]?.modes ?? null;
}

export type PendingRow = PayoutRow & { maker_user_id: string; maker_email: string | null };

/** The approvals queue: the organization's payouts waiting for a checker, oldest first. */
export async function listPending(q: Queryable, orgId: string, limit: number): Promise<PendingRow[]> {
  const r = await q.query<PendingRow>(
    `SELECT ${PAYOUT_COLUMNS}, p.maker_user_id, u.email AS maker_email
       FROM payouts p LEFT JOIN console_users u ON u.id = p.maker_user_id
      WHERE p.org_id = $1 AND p.status = 'PENDING_APPROVAL' ORDER BY p.created_at, p.id LIMIT $2`,
    [orgId, limit],
  );
  return r.rows;
}

/** The console's saved beneficiaries: those of the organization's console principal. */
export async function listPrincipalBeneficiaries(q: Queryable, orgId: string, clientPk: string): Promise<Array<{ id: string; name: string; account_number_last4: string; ifsc: string; bank_name: string }>> {
  const r = await q.query<{ id: string; name: string; account_number_last4: string; ifsc: string; bank_name: string }>(
    `SELECT id, name, account_number_last4, ifsc, bank_name FROM beneficiaries
      WHERE org_id = $1 AND client_pk = $2 AND active AND confirmed ORDER BY name, id LIMIT 500`,
    [orgId, clientPk],
  );
  return r.rows;
}
