/** SQL for beneficiaries. The account number only ever appears here encrypted. */
import type { Queryable } from '../db.js';

export interface BeneficiaryRow {
  id: string;
  org_id: string;
  name: string;
  account_number_enc: Buffer;
  account_number_last4: string;
  ifsc: string;
  bank_name: string;
}

const COLUMNS = 'id, org_id, name, account_number_enc, account_number_last4, ifsc, bank_name';

export interface NewBeneficiary {
  id: string;
  orgId: string;
  name: string;
  accountNumberEnc: Buffer;
  last4: string;
  lookup: Buffer;
  ifsc: string;
  bankName: string;
  mobile: string;
}

/**
 * Inserts a confirmed beneficiary, or returns the organization's existing one with the same account
 * number and IFSC (same lookup hash). DO NOTHING takes no row lock on the existing row, so payouts
 * to one beneficiary do not serialise on it.
 */
export async function upsertBeneficiary(q: Queryable, b: NewBeneficiary): Promise<BeneficiaryRow> {
  const inserted = await q.query<BeneficiaryRow>(
    `INSERT INTO beneficiaries (id, org_id, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (org_id, account_lookup) DO NOTHING RETURNING ${COLUMNS}`,
    [b.id, b.orgId, b.name, b.accountNumberEnc, b.last4, b.lookup, b.ifsc, b.bankName, b.mobile],
  );
  if (inserted.rows[0]) return inserted.rows[0];
  const existing = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE org_id = $1 AND account_lookup = $2`, [b.orgId, b.lookup]);
  if (!existing.rows[0]) throw new Error('beneficiary vanished after a conflict');
  return existing.rows[0];
}

/** An active, confirmed beneficiary of the organization. */
export async function findUsableBeneficiary(q: Queryable, orgId: string, id: string): Promise<BeneficiaryRow | null> {
  const r = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE org_id = $1 AND id = $2 AND active AND confirmed`, [orgId, id]);
  return r.rows[0] ?? null;
}

export async function findBeneficiary(q: Queryable, id: string): Promise<BeneficiaryRow | null> {
  const r = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}
