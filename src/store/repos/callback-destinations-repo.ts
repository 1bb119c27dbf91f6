/** SQL of callback destinations: an organization's URL, signing secret and event choice per kind. */
import type { SigningScheme } from '../../callbacks/signature.js';
import type { Queryable } from '../db.js';
import type { DestinationKind } from './callbacks-repo.js';

export interface DestinationRow {
  org_id: string;
  kind: DestinationKind;
  url: string;
  secret_enc: Buffer;
}

/** The destination's URL, its row locked for the rest of the transaction; null when none is configured. */
export async function lockDestinationUrl(q: Queryable, orgId: string, kind: DestinationKind): Promise<string | null> {
  const r = await q.query<{ url: string }>('SELECT url FROM callback_destinations WHERE org_id = $1 AND kind = $2 FOR UPDATE', [orgId, kind]);
  return r.rows[0]?.url ?? null;
}

/**
 * Creates the destination, or changes its URL and keeps its secret. `created` tells which, so the
 * secret is revealed only to the caller that actually created it (even when two race).
 */
export async function upsertDestination(
  q: Queryable,
  d: { orgId: string; kind: DestinationKind; url: string; secretEnc: Buffer; events: string[] | undefined; defaultEvents: string[] },
): Promise<{ url: string; created: boolean; events: string[] }> {
  // `events` undefined: a new destination gets the default, an existing one keeps its choice.
  const r = await q.query<{ url: string; created: boolean; events: string[] }>(
    `INSERT INTO callback_destinations (org_id, kind, url, secret_enc, events) VALUES ($1, $2, $3, $4, COALESCE($5::text[], $6::text[]))
     ON CONFLICT (org_id, kind) DO UPDATE SET url = EXCLUDED.url, events = COALESCE($5::text[], callback_destinations.events), updated_at = now()
     RETURNING url, (xmax = 0) AS created, events`,
    [d.orgId, d.kind, d.url, d.secretEnc, d.events ?? null, d.defaultEvents],
  );
  return r.rows[0]!;
}

export interface DestinationListRow {
  kind: DestinationKind;
  url: string;
  events: string[];
  status: 'enabled' | 'disabled';
  scheme: SigningScheme;
  /** A rotated secret still waiting (null once its time has come). */
  next_secret_active_from: Date | null;
  failing_since: Date | null;
  disabled_at: Date | null;
  updated_at: Date;
}

export async function listDestinations(q: Queryable, orgId: string): Promise<DestinationListRow[]> {
  const r = await q.query<DestinationListRow>(
    `SELECT kind, url, events, status, scheme, CASE WHEN next_secret_active_from > now() THEN next_secret_active_from END AS next_secret_active_from,
            failing_since, disabled_at, updated_at
       FROM callback_destinations WHERE org_id = $1 ORDER BY kind`,
    [orgId],
  );
  return r.rows;
}

/**
 * A rotation: `secretEnc` becomes the destination's next secret, taking over by itself
 * `activeAfterSeconds` from now (the database's clock). A next secret whose time had already come
 * is promoted first, so it is not lost; one still waiting is replaced. Null when the organization
 * has no destination of that kind.
 */
export async function rotateDestinationSecret(
  q: Queryable,
  d: { orgId: string; kind: DestinationKind; secretEnc: Buffer; activeAfterSeconds: number },
): Promise<{ url: string; active_from: Date } | null> {
  const r = await q.query<{ url: string; active_from: Date }>(
    `UPDATE callback_destinations
        SET secret_enc = CASE WHEN next_secret_active_from <= now() THEN next_secret_enc ELSE secret_enc END,
            next_secret_enc = $3, next_secret_active_from = now() + make_interval(secs => $4), updated_at = now()
      WHERE org_id = $1 AND kind = $2
      RETURNING url, next_secret_active_from AS active_from`,
    [d.orgId, d.kind, d.secretEnc, d.activeAfterSeconds],
  );
  return r.rows[0] ?? null;
}

/**
 * "Activate new secret": the next secret becomes the only one (the old one is gone). `none` when
 * there is no destination; `nothing_pending` when it has no next secret.
 */
export async function activateDestinationSecret(q: Queryable, d: { orgId: string; kind: DestinationKind }): Promise<{ url: string } | 'none' | 'nothing_pending'> {
  const r = await q.query<{ url: string; pending: boolean }>(
    `WITH target AS (SELECT org_id, kind, next_secret_enc IS NOT NULL AS pending FROM callback_destinations WHERE org_id = $1 AND kind = $2 FOR UPDATE),
          moved AS (
            UPDATE callback_destinations c
               SET secret_enc = c.next_secret_enc, next_secret_enc = NULL, next_secret_active_from = NULL, updated_at = now()
              FROM target t
             WHERE c.org_id = t.org_id AND c.kind = t.kind AND t.pending
            RETURNING c.url)
     SELECT (SELECT url FROM moved) AS url, pending FROM target`,
    [d.orgId, d.kind],
  );
  const row = r.rows[0];
  if (!row) return 'none';
  return row.pending && row.url !== null ? { url: row.url } : 'nothing_pending';
}

/** Promotes every next secret whose time has come (the health worker); answers which. */
export async function promoteDueSecrets(q: Queryable): Promise<Array<{ org_id: string; kind: DestinationKind }>> {
  const r = await q.query<{ org_id: string; kind: DestinationKind }>(
    `UPDATE callback_destinations
        SET secret_enc = next_secret_enc, next_secret_enc = NULL, next_secret_active_from = NULL, updated_at = now()
      WHERE next_secret_active_from <= now()
      RETURNING org_id, kind`,
  );
  return r.rows;
}

/** The destination's secret now in use, its scheme, and whether a next one waits; null when none is configured. */
export async function destinationSigning(q: Queryable, orgId: string, kind: DestinationKind): Promise<{ secret_enc: Buffer; scheme: SigningScheme; next_secret_active_from: Date | null } | null> {
  const r = await q.query<{ secret_enc: Buffer; scheme: SigningScheme; next_secret_active_from: Date | null }>(
    `SELECT CASE WHEN next_secret_active_from <= now() THEN next_secret_enc ELSE secret_enc END AS secret_enc, scheme,
            CASE WHEN next_secret_active_from <= now() THEN NULL ELSE next_secret_active_from END AS next_secret_active_from
       FROM callback_destinations WHERE org_id = $1 AND kind = $2`,
    [orgId, kind],
  );
  return r.rows[0] ?? null;
}

/** Sets a destination's signing scheme; false when none is configured. */
export async function setDestinationScheme(q: Queryable, d: { orgId: string; kind: DestinationKind; scheme: SigningScheme }): Promise<boolean> {
  const r = await q.query('UPDATE callback_destinations SET scheme = $3, updated_at = now() WHERE org_id = $1 AND kind = $2', [d.orgId, d.kind, d.scheme]);
  return (r.rowCount ?? 0) > 0;
}
