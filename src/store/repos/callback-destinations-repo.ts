/** SQL of callback destinations: an organization's URL, signing secret and event choice per kind. */
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
  failing_since: Date | null;
  disabled_at: Date | null;
  updated_at: Date;
}

export async function listDestinations(q: Queryable, orgId: string): Promise<DestinationListRow[]> {
  const r = await q.query<DestinationListRow>(
    'SELECT kind, url, events, status, failing_since, disabled_at, updated_at FROM callback_destinations WHERE org_id = $1 ORDER BY kind',
    [orgId],
  );
  return r.rows;
}

/** A new signing secret for an existing destination; false when the organization has none of that kind. */
export async function replaceDestinationSecret(q: Queryable, d: { orgId: string; kind: DestinationKind; secretEnc: Buffer }): Promise<{ url: string } | null> {
  const r = await q.query<{ url: string }>(
    'UPDATE callback_destinations SET secret_enc = $3, updated_at = now() WHERE org_id = $1 AND kind = $2 RETURNING url',
    [d.orgId, d.kind, d.secretEnc],
  );
  return r.rows[0] ?? null;
}

