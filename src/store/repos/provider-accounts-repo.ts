/** SQL for provider accounts (contract §8) and which account an organization's collections use. */
import { prepared, type Queryable } from '../db.js';

export interface ProviderAccountRow {
  id: string;
  org_id: string;
  provider: string;
  name: string;
  livemode: boolean;
  config_enc: Buffer;
  created_at: Date;
}

export async function insertAccount(q: Queryable, a: Omit<ProviderAccountRow, 'created_at'>): Promise<ProviderAccountRow | null> {
  const r = await q.query<ProviderAccountRow>(
    `INSERT INTO provider_accounts (id, org_id, provider, name, livemode, config_enc)
     SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM organizations WHERE id = $2)
     RETURNING *`,
    [a.id, a.org_id, a.provider, a.name, a.livemode, a.config_enc],
  );
  return r.rows[0] ?? null;
}

export async function findAccount(q: Queryable, id: string): Promise<ProviderAccountRow | null> {
  const r = await q.query<ProviderAccountRow>('SELECT * FROM provider_accounts WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

/** An organization's accounts, oldest first; null when the organization does not exist. */
export async function listAccounts(q: Queryable, orgId: string): Promise<Array<Omit<ProviderAccountRow, 'config_enc'>> | null> {
  const org = await q.query('SELECT 1 FROM organizations WHERE id = $1', [orgId]);
  if (org.rowCount !== 1) return null;
  const r = await q.query<Omit<ProviderAccountRow, 'config_enc'>>(
    'SELECT id, org_id, provider, name, livemode, created_at FROM provider_accounts WHERE org_id = $1 ORDER BY created_at, id',
    [orgId],
  );
  return r.rows;
}

/** Sets the account of the organization's new payment orders; false when the organization does not exist. */
export async function setCollectionsAccount(q: Queryable, orgId: string, accountId: string): Promise<boolean> {
  const r = await q.query('UPDATE organizations SET collections_provider_account_id = $2 WHERE id = $1', [orgId, accountId]);
  return r.rowCount === 1;
}

/** The account of the organization's new payment orders (null: the built-in sandbox). */
export async function collectionsAccountOf(q: Queryable, orgId: string, opts: { forUpdate?: boolean } = {}): Promise<string | null> {
  const r = await q.query<{ a: string | null }>(`SELECT collections_provider_account_id AS a FROM organizations WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [orgId]);
  return r.rows[0]?.a ?? null;
}

/** The organization's bank connections that send through one of its provider accounts. */
export async function bankConnectionsOfAccounts(q: Queryable, orgId: string): Promise<Array<{ id: string; name: string; active: boolean; provider_account_id: string }>> {
  const r = await q.query<{ id: string; name: string; active: boolean; provider_account_id: string }>(
    'SELECT id, name, active, provider_account_id FROM bank_connections WHERE org_id = $1 AND provider_account_id IS NOT NULL ORDER BY created_at, id',
    [orgId],
  );
  return r.rows;
}

/** The account a bank connection sends through (null: the built-in sandbox). */
export async function bankConnectionAccountOf(q: Queryable, bankConnectionId: string): Promise<string | null> {
  const r = await q.query<{ a: string | null }>('SELECT provider_account_id AS a FROM bank_connections WHERE id = $1', [bankConnectionId]);
  return r.rows[0]?.a ?? null;
}

/**
 * The provider account a callback's resource was issued through: `account_id` null for the
 * built-in sandbox, `provider` the account's kind. Undefined when no such resource exists.
 */
export interface ResourceAccount {
  account_id: string | null;
  provider: string | null;
}

/** What a callback names: an order (its row id) or a payout (its transaction id). */
export type CallbackSubject = { order: string } | { payout: string };

const ACCOUNTS_OF_SUBJECTS = prepared(`SELECT 'order:' || o.id AS key, o.provider_account_id AS account_id, a.provider
    FROM payment_orders o LEFT JOIN provider_accounts a ON a.id = o.provider_account_id WHERE o.id = ANY($1::uuid[])
  UNION ALL
  SELECT 'payout:' || p.transaction_id, b.provider_account_id, a.provider
    FROM payouts p JOIN bank_connections b ON b.id = p.bank_connection_id LEFT JOIN provider_accounts a ON a.id = b.provider_account_id
   WHERE p.transaction_id = ANY($2::text[])`);

/**
 * The accounts of many callbacks' subjects in one statement (the intake's batch of callbacks):
 * `order:<pk>` / `payout:<transaction id>` keys; a subject no row has is absent.
 */
export async function accountsOfSubjects(q: Queryable, subjects: CallbackSubject[]): Promise<Map<string, ResourceAccount>> {
  const orders = subjects.flatMap((s) => ('order' in s ? [s.order] : []));
  const payouts = subjects.flatMap((s) => ('payout' in s ? [s.payout] : []));
  const out = new Map<string, ResourceAccount>();
  if (orders.length === 0 && payouts.length === 0) return out;
  const r = await q.query<ResourceAccount & { key: string }>(ACCOUNTS_OF_SUBJECTS, [orders, payouts]);
  for (const row of r.rows) out.set(row.key, { account_id: row.account_id, provider: row.provider });
  return out;
}

/** The key of a subject in accountsOfSubjects' answer. */
export function subjectKey(s: CallbackSubject): string {
  return 'order' in s ? `order:${s.order}` : `payout:${s.payout}`;
}

/** Records the console user who entered the account's credentials (migration 0094). */
export async function setAddedBy(q: Queryable, accountId: string, userId: string): Promise<void> {
  await q.query('UPDATE provider_accounts SET added_by = $2 WHERE id = $1', [accountId, userId]);
}

/** Who entered the account's credentials; null: the operator's CLI (or unknown). */
export async function addedBy(q: Queryable, accountId: string): Promise<string | null> {
  const r = await q.query<{ added_by: string | null }>('SELECT added_by FROM provider_accounts WHERE id = $1', [accountId]);
  return r.rows[0]?.added_by ?? null;
}
