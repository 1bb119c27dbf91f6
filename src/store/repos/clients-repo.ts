/** SQL for organizations and API clients. */
import type { Scope } from '../../domain/scopes.js';
import type { Queryable } from '../db.js';

export interface OrgRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface ClientRow {
  id: string;
  client_id: string;
  org_id: string;
  name: string | null;
  secret_hash: Buffer;
  scopes: Scope[];
  allowed_ips: string[];
  rate_limit_per_minute: number;
  active: boolean;
  /** The replaced secret's hash while a rotation overlaps (migration 0080), and when it stops working. */
  previous_secret_hash?: Buffer | null;
  previous_secret_expires_at?: Date | null;
  /** The console user shown the current / the replaced secret (migration 0092); null: the operator's CLI. */
  secret_issued_by?: string | null;
  previous_secret_issued_by?: string | null;
}

export async function insertOrg(q: Queryable, org: { id: string; name: string }): Promise<OrgRow> {
  const r = await q.query<OrgRow>('INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING id, name, created_at', [org.id, org.name]);
  return r.rows[0] as OrgRow;
}

/** Every organization, oldest first (`tijori org list`: an operator finds a lost id again). */
export async function listOrgs(q: Queryable): Promise<OrgRow[]> {
  const r = await q.query<OrgRow>('SELECT id, name, created_at FROM organizations ORDER BY created_at, id');
  return r.rows;
}

export async function findOrg(q: Queryable, id: string): Promise<OrgRow | null> {
  const r = await q.query<OrgRow>('SELECT id, name, created_at FROM organizations WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

export async function insertClient(
  q: Queryable,
  c: Omit<ClientRow, 'active' | 'previous_secret_hash' | 'previous_secret_expires_at' | 'previous_secret_issued_by'>,
): Promise<ClientRow> {
  const r = await q.query<ClientRow>(
    `INSERT INTO api_clients (id, client_id, org_id, name, secret_hash, scopes, allowed_ips, rate_limit_per_minute, secret_issued_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [c.id, c.client_id, c.org_id, c.name, c.secret_hash, c.scopes, c.allowed_ips, c.rate_limit_per_minute, c.secret_issued_by ?? null],
  );
  return r.rows[0] as ClientRow;
}

export async function findClientByClientId(q: Queryable, clientId: string): Promise<ClientRow | null> {
  const r = await q.query<ClientRow>(
    `SELECT id, client_id, org_id, name, secret_hash, scopes, allowed_ips, rate_limit_per_minute, active, previous_secret_hash, previous_secret_expires_at,
            secret_issued_by, previous_secret_issued_by
       FROM api_clients WHERE client_id = $1`,
    [clientId],
  );
  return r.rows[0] ?? null;
}

/** The client row locked for a change of its settings (inside a transaction). */
export async function lockClient(q: Queryable, clientId: string): Promise<ClientRow | null> {
  const r = await q.query<ClientRow>(
    `SELECT id, client_id, org_id, name, secret_hash, previous_secret_hash, previous_secret_expires_at, scopes, allowed_ips, rate_limit_per_minute, active
       FROM api_clients WHERE client_id = $1 FOR UPDATE`,
    [clientId],
  );
  return r.rows[0] ?? null;
}

export async function updateClientSettings(q: Queryable, clientId: string, s: { scopes: Scope[]; allowed_ips: string[]; rate_limit_per_minute: number }): Promise<void> {
  await q.query('UPDATE api_clients SET scopes = $2, allowed_ips = $3, rate_limit_per_minute = $4 WHERE client_id = $1', [clientId, s.scopes, s.allowed_ips, s.rate_limit_per_minute]);
}

export async function renameClient(q: Queryable, clientId: string, name: string | null): Promise<void> {
  await q.query('UPDATE api_clients SET name = $2 WHERE client_id = $1', [clientId, name]);
}

/** The client's allow list, its row locked for the rest of the transaction; null for an unknown client. */
export async function lockAllowedIps(q: Queryable, clientId: string): Promise<string[] | null> {
  const r = await q.query<{ allowed_ips: string[] }>('SELECT allowed_ips FROM api_clients WHERE client_id = $1 FOR UPDATE', [clientId]);
  return r.rows[0]?.allowed_ips ?? null;
}

export async function addAllowedIp(q: Queryable, clientId: string, ip: string): Promise<string[] | null> {
  const r = await q.query<{ allowed_ips: string[] }>(
    `UPDATE api_clients
        SET allowed_ips = CASE WHEN $2 = ANY (allowed_ips) THEN allowed_ips ELSE array_append(allowed_ips, $2) END
      WHERE client_id = $1 RETURNING allowed_ips`,
    [clientId, ip],
  );
  return r.rows[0]?.allowed_ips ?? null;
}

/**
 * Replaces the secret; with `overlapHours` > 0 the replaced one keeps working that long (0: it stops
 * at once, and any earlier overlap ends too). Null for an unknown client.
 */
export async function replaceSecretHashWithOverlap(
  q: Queryable,
  clientId: string,
  hash: Buffer,
  overlapHours: number,
  /** The console user shown the new secret; null: the operator's CLI. */
  issuedBy: string | null = null,
): Promise<{ org_id: string; previous_secret_expires_at: Date | null } | null> {
  const r = await q.query<{ org_id: string; previous_secret_expires_at: Date | null }>(
    `UPDATE api_clients
        SET previous_secret_hash = CASE WHEN $3::int > 0 THEN secret_hash END,
            previous_secret_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(hours => $3::int) END,
            previous_secret_issued_by = CASE WHEN $3::int > 0 THEN secret_issued_by END,
            secret_hash = $2, secret_rotated_at = now(), secret_issued_by = $4
      WHERE client_id = $1
      RETURNING org_id, previous_secret_expires_at`,
    [clientId, hash, overlapHours, issuedBy],
  );
  return r.rows[0] ?? null;
}

export interface ClientListRow {
  client_id: string;
  name: string | null;
  scopes: Scope[];
  allowed_ips: string[];
  rate_limit_per_minute: number;
  active: boolean;
  created_at: Date;
  secret_rotated_at: Date | null;
  last_used_at: Date | null;
}

/** Notes a client's use (migration 0091); a no-op when it was noted in the last minute (by any instance). */
export async function touchLastUsed(q: Queryable, pk: string): Promise<void> {
  await q.query(`UPDATE api_clients SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, [pk]);
}

export async function listClientsOfOrg(q: Queryable, orgId: string): Promise<ClientListRow[]> {
  const r = await q.query<ClientListRow>(
    `SELECT client_id, name, scopes, allowed_ips, rate_limit_per_minute, active, created_at, secret_rotated_at, last_used_at
       FROM api_clients WHERE org_id = $1 AND NOT console_principal ORDER BY created_at DESC, client_id`,
    [orgId],
  );
  return r.rows;
}

/** Turns a client off for good (its credentials stop working); false when it was not active. */
export async function deactivateClient(q: Queryable, clientId: string): Promise<boolean> {
  const r = await q.query('UPDATE api_clients SET active = false WHERE client_id = $1 AND active', [clientId]);
  return (r.rowCount ?? 0) === 1;
}

/**
 * The console users holding a working secret of the client (by its primary key): whoever was shown
 * the current secret, and the replaced one's while a rotation overlaps. The operator's CLI is nobody.
 */
export async function secretHolders(q: Queryable, clientPk: string): Promise<string[]> {
  const r = await q.query<{ current: string | null; previous: string | null }>(
    `SELECT secret_issued_by AS current,
            CASE WHEN previous_secret_expires_at > now() THEN previous_secret_issued_by END AS previous
       FROM api_clients WHERE id = $1`,
    [clientPk],
  );
  const row = r.rows[0];
  return row ? [row.current, row.previous].filter((id): id is string => id !== null) : [];
}
