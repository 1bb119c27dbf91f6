/** SQL for beneficiaries. The account number only ever appears here encrypted. */
import { batched } from '../batched.js';
import { inLockOrder, prepared, type Queryable } from '../db.js';

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
  /** The API client creating it: the beneficiary is that client's (migration 0010). */
  clientPk: string;
  name: string;
  accountNumberEnc: Buffer;
  last4: string;
  lookup: Buffer;
  ifsc: string;
  bankName: string;
  mobile: string;
}

/**
 * Inserts a confirmed beneficiary, or returns the client's existing one with the same account
 * number and IFSC (same lookup hash). DO NOTHING takes no row lock on the existing row, so payouts
 * to one beneficiary do not serialise on it. Payout creates use upsertBeneficiaries; this is its
 * fallback for an account another transaction inserted after that statement's snapshot.
 */
export async function upsertBeneficiary(q: Queryable, b: NewBeneficiary): Promise<BeneficiaryRow> {
  const inserted = await q.query<BeneficiaryRow>(
    `INSERT INTO beneficiaries (id, org_id, client_pk, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (client_pk, account_lookup) DO NOTHING RETURNING ${COLUMNS}`,
    [b.id, b.orgId, b.clientPk, b.name, b.accountNumberEnc, b.last4, b.lookup, b.ifsc, b.bankName, b.mobile],
  );
  if (inserted.rows[0]) return inserted.rows[0];
  const existing = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE client_pk = $1 AND account_lookup = $2`, [b.clientPk, b.lookup]);
  if (!existing.rows[0]) throw new Error('beneficiary vanished after a conflict');
  return existing.rows[0];
}

const UPSERT_MANY = prepared(`WITH v AS MATERIALIZED (
     SELECT * FROM json_to_recordset($1::json)
       AS v(id uuid, org_id uuid, client_pk uuid, name text, account_number_enc text, last4 text, lookup text, ifsc text, bank_name text, mobile text)),
   ins AS (
     INSERT INTO beneficiaries (id, org_id, client_pk, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
     SELECT id, org_id, client_pk, name, decode(account_number_enc, 'base64'), last4, decode(lookup, 'base64'), ifsc, bank_name, mobile FROM v
     ON CONFLICT (client_pk, account_lookup) DO NOTHING RETURNING ${COLUMNS}, client_pk, account_lookup)
   SELECT * FROM ins
   UNION ALL
   SELECT ${COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')}, b.client_pk, b.account_lookup
     FROM beneficiaries b JOIN (SELECT DISTINCT client_pk, decode(lookup, 'base64') AS lookup FROM v) w ON b.client_pk = w.client_pk AND b.account_lookup = w.lookup
    WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins.client_pk = w.client_pk AND ins.account_lookup = w.lookup)`);

/**
 * upsertBeneficiary for several inline beneficiaries in one statement (the same account twice
 * resolves to one row). Where an account was inserted by another transaction after this
 * statement's snapshot, it is looked up on its own.
 */
export async function upsertBeneficiaries(q: Queryable, list: NewBeneficiary[]): Promise<BeneficiaryRow[]> {
  const records = inLockOrder(list, (b) => `${b.clientPk}/${b.lookup.toString('hex')}`).map((b) => ({
    id: b.id, org_id: b.orgId, client_pk: b.clientPk, name: b.name, account_number_enc: b.accountNumberEnc.toString('base64'), last4: b.last4,
    lookup: b.lookup.toString('base64'), ifsc: b.ifsc, bank_name: b.bankName, mobile: b.mobile,
  }));
  const r = await q.query<BeneficiaryRow & { client_pk: string; account_lookup: Buffer }>(UPSERT_MANY, [JSON.stringify(records)]);
  const byAccount = new Map(r.rows.map(({ client_pk, account_lookup, ...row }) => [`${client_pk}/${account_lookup.toString('hex')}`, row]));
  const out: BeneficiaryRow[] = [];
  for (const b of list) out.push(byAccount.get(`${b.clientPk}/${b.lookup.toString('hex')}`) ?? (await upsertBeneficiary(q, b)));
  return out;
}

/** An active, confirmed beneficiary of the organization created by this API client. */
export async function findUsableBeneficiary(q: Queryable, orgId: string, clientPk: string, id: string): Promise<BeneficiaryRow | null> {
  const r = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE org_id = $1 AND client_pk = $2 AND id = $3 AND active AND confirmed`, [orgId, clientPk, id]);
  return r.rows[0] ?? null;
}

export async function findBeneficiary(q: Queryable, id: string): Promise<BeneficiaryRow | null> {
  const r = await q.query<BeneficiaryRow>(`SELECT ${COLUMNS} FROM beneficiaries WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}

/** One payout create's inline beneficiary (upsertBeneficiaries), in a statement shared with those that arrive together. */
export const upsertBeneficiaryInBatch = batched('beneficiaryUpserts', upsertBeneficiaries);
