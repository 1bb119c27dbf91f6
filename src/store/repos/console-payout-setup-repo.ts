/**
 * The console's reads of an organization's payout set-up: saved beneficiaries (newest first, keyset
 * pages served by migration 0021's index) with the API client that saved each, and bank connections.
 * Every statement is scoped by org_id. The account number is never read: only its last four digits.
 */
import type { Queryable } from '../db.js';
import type { Keyset } from './console-money-repo.js';

export interface BeneficiaryListRow {
  id: string;
  name: string;
  account_number_last4: string;
  ifsc: string;
  bank_name: string;
  active: boolean;
  client_id: string | null;
  client_name: string | null;
  created_at: Date;
  key_ts: string;
}

export interface BeneficiaryFilter {
  orgId: string;
  /** Exact matches already worked out by the service; `name` is a case-insensitive substring. */
  search?: { id?: string; last4?: string; ifsc?: string; name?: string };
  after?: Keyset;
  limit: number;
}

/** A LIKE pattern that matches `text` literally. */
function likeLiteral(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listBeneficiaries(q: Queryable, f: BeneficiaryFilter): Promise<BeneficiaryListRow[]> {
  const params: unknown[] = [f.orgId];
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const parts = ['b.org_id = $1'];
  if (f.search) {
    const ors: string[] = [];
    if (f.search.id) ors.push(`b.id = ${p(f.search.id)}::uuid`);
    if (f.search.last4) ors.push(`b.account_number_last4 = ${p(f.search.last4)}`);
    if (f.search.ifsc) ors.push(`b.ifsc = ${p(f.search.ifsc)}`);
    if (f.search.name) ors.push(`b.name ILIKE ${p(likeLiteral(f.search.name))}`);
    parts.push(ors.length > 0 ? `(${ors.join(' OR ')})` : 'false');
  }
  if (f.after) parts.push(`(b.created_at, b.id) < (${p(f.after.createdAt)}::timestamptz, ${p(f.after.id)}::uuid)`);
  const r = await q.query<BeneficiaryListRow>(
    `SELECT b.id, b.name, b.account_number_last4, b.ifsc, b.bank_name, b.active, c.client_id, c.name AS client_name, b.created_at,
            to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key_ts
       FROM beneficiaries b LEFT JOIN api_clients c ON c.id = b.client_pk
      WHERE ${parts.join(' AND ')}
      ORDER BY b.created_at DESC, b.id DESC LIMIT ${p(f.limit)}`,
    params,
  );
  return r.rows;
}

export interface ConsoleBankConnectionRow {
  id: string;
  name: string;
  provider: string;
  modes: string[];
  active: boolean;
  is_default: boolean;
  created_at: Date;
}

/** An organization has a handful of bank connections: all of them, the default first, then oldest first. */
export async function listBankConnections(q: Queryable, orgId: string): Promise<ConsoleBankConnectionRow[]> {
  const r = await q.query<ConsoleBankConnectionRow>(
    `SELECT id, name, provider, modes, active, is_default, created_at
       FROM bank_connections WHERE org_id = $1 ORDER BY is_default DESC, created_at, id`,
    [orgId],
  );
  return r.rows;
}
