/** SQL for bank connections (bank_connections). */
import type { PayoutMode } from '../../domain/payout.js';
import { batched } from '../batched.js';
import { prepared, type Queryable } from '../db.js';

export interface BankConnectionRow {
  id: string;
  org_id: string;
  name: string;
  provider: string;
  modes: PayoutMode[];
  active: boolean;
  is_default: boolean;
  /** The provider account it sends through (null: the built-in sandbox). */
  provider_account_id: string | null;
}

const COLUMNS = 'id, org_id, name, provider, modes, active, is_default, provider_account_id';

/** Locks the organization row so that concurrent first bank connections cannot both become the default. */
export async function lockOrg(q: Queryable, orgId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  return r.rowCount === 1;
}

/** The organization's first bank connection becomes its default. Call after lockOrg in the same transaction. */
export async function insertBankConnection(
  q: Queryable,
  r: { id: string; orgId: string; name: string; provider: string; modes: PayoutMode[]; providerAccountId: string | null },
): Promise<BankConnectionRow> {
  const res = await q.query<BankConnectionRow>(
    `INSERT INTO bank_connections (id, org_id, name, provider, modes, provider_account_id, is_default)
     VALUES ($1, $2, $3, $4, $5, $6, NOT EXISTS (SELECT 1 FROM bank_connections WHERE org_id = $2 AND is_default))
     RETURNING ${COLUMNS}`,
    [r.id, r.orgId, r.name, r.provider, r.modes, r.providerAccountId],
  );
  return res.rows[0] as BankConnectionRow;
}

/** A bank connection a payout asks for: a given bank connection of the organization, or (bankConnectionId null) its default. */
export interface BankConnectionLookup {
  orgId: string;
  bankConnectionId: string | null;
}

const FIND_USABLE_BANK_CONNECTIONS = prepared(`SELECT r.n, ${COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')}
   FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS r(org_id, bank_connection_id, n)
   JOIN bank_connections b ON b.org_id = r.org_id AND b.active AND (CASE WHEN r.bank_connection_id IS NULL THEN b.is_default ELSE b.id = r.bank_connection_id END)`);

/** For each look-up, the given active bank connection of the organization, or (bank connection id null) its active default bank connection; null where none is usable. One statement for all. */
export async function findUsableBankConnections(q: Queryable, lookups: BankConnectionLookup[]): Promise<Array<BankConnectionRow | null>> {
  const res = await q.query<BankConnectionRow & { n: string }>(FIND_USABLE_BANK_CONNECTIONS, [lookups.map((l) => l.orgId), lookups.map((l) => l.bankConnectionId)]);
  const found: Array<BankConnectionRow | null> = lookups.map(() => null);
  for (const { n, ...row } of res.rows) found[Number(n) - 1] = row;
  return found;
}

/** One payout create's bank connection look-up (findUsableBankConnections), in a statement shared with the look-ups that arrive together. */
export const findUsableBankConnection = batched('bankConnectionReads', findUsableBankConnections);
