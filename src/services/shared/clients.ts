/**
 * Organizations and API clients: creation, IP allow lists, secret rotation and authentication of
 * merchant requests. The HTTP layer and the admin API both call this service. What a change may
 * be and its checks: client-input.ts; the authenticated caller: principal.ts.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { AppError, validationError } from '../../domain/errors.js';
import { hashSecret, newClientId, newClientSecret, secretMatches } from '../../security/secrets.js';
import { ipAllowed, normalizeAllowEntry } from '../../security/ip.js';
import { type ChangeHook, checkClientChanges, checkNewClient, type ClientChangeAudit, type ClientChanges, type ClientSettings, type CreateClientInput, MAX_OVERLAP_HOURS, settingsOf } from './client-input.js';
import type { Principal } from './principal.js';
import type { Clock } from '../../clock.js';
import type { Db, Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/clients-repo.js';

/**
 * Client rows are cached this long per instance, so authentication costs no database round trip on
 * the hot path. A rotated secret or changed allow list therefore takes effect within this time.
 */
export const CLIENT_CACHE_MS = 2_000;
/** Client ids that do not exist are remembered this long, so a spray of one unknown id costs one look-up. */
export const UNKNOWN_CLIENT_CACHE_MS = 2_000;
/** An organization's name is cached this long per instance (a rename on another instance shows within it). */
export const ORG_NAME_CACHE_MS = 60_000;
/** Entries per cache (known and unknown ids apart): a bound on memory, least recently used go first. */
export const CLIENT_CACHE_ENTRIES = 10_000;

/** Where an authentication found its client row: the cache, the cache of unknown ids, or PostgreSQL. */
export type ClientLookupSource = 'cache' | 'unknown_cache' | 'database';

export interface ClientsServiceOptions {
  /**
   * The clock of the caches and of a rotated secret's overlap (tests move it); without one the caches
   * use lru-cache's own (performance.now()) and the overlap Date.now().
   */
  clock?: Clock | undefined;
  /** Told of every look-up's source (the `tijori_client_lookups_total` metric; tests count). */
  onLookup?: (source: ClientLookupSource) => void;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ClientsService {
  /**
   * Known clients and unknown ids are cached apart, each least-recently-used with a bound: ids
   * that do not exist (a spray of random ids) only ever displace other unknown ids, never a client
   * in use. Entries expire after their TTL so changes made on another instance are seen.
   */
  private readonly known: LRUCache<string, repo.ClientRow>;
  private readonly unknown: LRUCache<string, true>;
  private readonly onLookup: (source: ClientLookupSource) => void;
  private readonly now: () => number;
  /**
   * Organization names by id, so an INTENT create or a checkout page costs no round trip for it.
   * An admin can rename the organization in the console: this instance forgets the name at once
   * (forgetOrgName), other instances within ORG_NAME_CACHE_MS.
   */
  private readonly orgNames: LRUCache<string, string>;

  constructor(
    private readonly db: Db,
    options: ClientsServiceOptions = {},
  ) {
    const clock = options.clock;
    this.now = clock ? () => clock.now() : () => Date.now();
    const perf = clock ? { now: () => clock.now() } : undefined;
    this.known = new LRUCache({ max: CLIENT_CACHE_ENTRIES, ttl: CLIENT_CACHE_MS, ...(perf ? { perf } : {}) });
    this.unknown = new LRUCache({ max: CLIENT_CACHE_ENTRIES, ttl: UNKNOWN_CLIENT_CACHE_MS, ...(perf ? { perf } : {}) });
    this.orgNames = new LRUCache({ max: CLIENT_CACHE_ENTRIES, ttl: ORG_NAME_CACHE_MS, ...(perf ? { perf } : {}) });
    this.onLookup = options.onLookup ?? (() => undefined);
  }

  async createOrg(name: string): Promise<repo.OrgRow> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 200) throw validationError([{ field: 'name', issue: 'must be 1 to 200 characters' }]);
    return repo.insertOrg(this.db, { id: randomUUID(), name: trimmed });
  }

  async createClient(input: CreateClientInput, onCreated?: ChangeHook<repo.ClientRow>): Promise<{ row: repo.ClientRow; secret: string }> {
    const { scopes, ips, rate } = checkNewClient(input, UUID_RE.test(input.orgId));
    if (!UUID_RE.test(input.orgId) || !(await repo.findOrg(this.db, input.orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
    const secret = newClientSecret();
    const row = await this.db.tx(async (tx) => {
      const inserted = await repo.insertClient(tx, {
        id: randomUUID(),
        client_id: newClientId(),
        org_id: input.orgId,
        name: input.name ?? null,
        secret_hash: hashSecret(secret),
        scopes,
        allowed_ips: ips,
        rate_limit_per_minute: rate,
        secret_issued_by: input.issuedBy ?? null,
      });
      await onCreated?.(tx, inserted);
      return inserted;
    });
    return { row, secret };
  }

  /** `onChanged` gets the allow list before and after (equal when the entry was already on it). */
  async allowIp(clientId: string, ip: string, onChanged?: ChangeHook<{ before: string[]; after: string[] }>): Promise<string[]> {
    const n = normalizeAllowEntry(ip);
    if ('issue' in n) throw validationError([{ field: 'ip', issue: n.issue }]);
    try {
      return await this.db.tx(async (tx) => {
        const before = await repo.lockAllowedIps(tx, clientId);
        const list = before === null ? null : await repo.addAllowedIp(tx, clientId, n.value);
        if (before === null || list === null) throw new AppError('NOT_FOUND', 'No such client.');
        await onChanged?.(tx, { before, after: list });
        return list;
      });
    } finally {
      this.known.delete(clientId);
    }
  }

  /**
   * Changes a client's scopes, allow list and/or rate limit in one transaction with the row locked,
   * so `before` is what the change replaced even with two editors at once. `onChanged` runs in that
   * transaction (the console's and the CLI's audit entry commit with the change). `orgId`, when
   * given, must own the client (another organization's client is "not found"). A revoked client
   * cannot be changed. Takes effect within CLIENT_CACHE_MS on other instances.
   */
  async updateClient(
    clientId: string,
    changes: ClientChanges,
    opts: { orgId?: string; onChanged?: (q: Queryable, change: { orgId: string; before: ClientChangeAudit; after: ClientChangeAudit }) => Promise<void> } = {},
  ): Promise<ClientSettings> {
    const { scopes, ips, rate, name } = checkClientChanges(changes);
    const after = await this.db.tx(async (q) => {
      const row = clientId.length <= 100 ? await repo.lockClient(q, clientId) : null;
      if (!row || (opts.orgId !== undefined && row.org_id !== opts.orgId)) throw new AppError('NOT_FOUND', 'No such API client.');
      if (!row.active) throw new AppError('INVALID_STATE', 'A revoked client cannot be changed.');
      const before = settingsOf(row);
      const next: ClientSettings = {
        scopes: scopes ?? before.scopes,
        allowed_ips: ips ?? before.allowed_ips,
        rate_limit_per_minute: rate ?? before.rate_limit_per_minute,
      };
      const renamed = name !== undefined && name !== row.name;
      if (JSON.stringify(next) === JSON.stringify(before) && !renamed) return before;
      await repo.updateClientSettings(q, clientId, next);
      if (renamed) await repo.renameClient(q, clientId, name);
      await opts.onChanged?.(q, { orgId: row.org_id, before: renamed ? { ...before, name: row.name } : before, after: renamed ? { ...next, name } : next });
      return next;
    });
    this.known.delete(clientId);
    return after;
  }

  /** `issuedBy`: the console user shown the new secret (null: the operator's CLI). */
  async rotateSecret(clientId: string, onRotated?: ChangeHook<string>, issuedBy: string | null = null): Promise<string> {
    return (await this.rotateSecretWithOverlap(clientId, 0, onRotated && ((tx) => onRotated(tx, clientId)), issuedBy)).secret;
  }

  /**
   * A new secret; the old one keeps working for `overlapHours` (0–168; 0: it stops at once), so a
   * merchant's fleet can move to the new one without failed requests (contract §11). `onRotated`
   * runs in the rotation's transaction (its audit entry).
   */
  async rotateSecretWithOverlap(
    clientId: string,
    overlapHours: number,
    onRotated?: ChangeHook<{ orgId: string; previousSecretExpiresAt: Date | null }>,
    issuedBy: string | null = null,
  ): Promise<{ secret: string; previousSecretExpiresAt: Date | null }> {
    if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > MAX_OVERLAP_HOURS) {
      throw validationError([{ field: 'overlap_hours', issue: `must be an integer from 0 to ${MAX_OVERLAP_HOURS}` }]);
    }
    const secret = newClientSecret();
    try {
      const done = await this.db.tx(async (tx) => {
        const r = await repo.replaceSecretHashWithOverlap(tx, clientId, hashSecret(secret), overlapHours, issuedBy);
        if (r === null) throw new AppError('NOT_FOUND', 'No such client.');
        const changed = { orgId: r.org_id, previousSecretExpiresAt: r.previous_secret_expires_at };
        await onRotated?.(tx, changed);
        return changed;
      });
      return { secret, previousSecretExpiresAt: done.previousSecretExpiresAt };
    } finally {
      this.known.delete(clientId);
    }
  }

  async listOfOrg(orgId: string): Promise<repo.ClientListRow[]> {
    return repo.listClientsOfOrg(this.db, orgId);
  }

  async listOrgs(): Promise<repo.OrgRow[]> {
    return repo.listOrgs(this.db);
  }

  /** The organization's API clients (`tijori client list`); NOT_FOUND for an unknown organization. */
  async listOfKnownOrg(orgId: string): Promise<repo.ClientListRow[]> {
    if (!UUID_RE.test(orgId) || !(await repo.findOrg(this.db, orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
    return repo.listClientsOfOrg(this.db, orgId);
  }

  /** Revokes a client: its requests fail from now on (within CLIENT_CACHE_MS on other instances). */
  async revoke(clientId: string, onRevoked?: ChangeHook<string>): Promise<boolean> {
    try {
      return await this.db.tx(async (tx) => {
        const changed = await repo.deactivateClient(tx, clientId);
        // Only an actual change is reported (revoking a revoked client changes nothing).
        if (changed) await onRevoked?.(tx, clientId);
        return changed;
      });
    } finally {
      this.known.delete(clientId);
    }
  }

  /** The organization's name (what payers see as the payee), or null for an unknown id. */
  async orgName(orgId: string): Promise<string | null> {
    const hit = this.orgNames.get(orgId);
    if (hit !== undefined) return hit;
    const org = await repo.findOrg(this.db, orgId);
    if (org === null) return null;
    this.orgNames.set(orgId, org.name);
    return org.name;
  }

  /** After a rename (the console's organization settings): the next orgName reads it again. */
  forgetOrgName(orgId: string): void {
    this.orgNames.delete(orgId);
  }

  private async lookup(clientId: string): Promise<repo.ClientRow | null> {
    const hit = this.known.get(clientId);
    if (hit !== undefined) {
      this.onLookup('cache');
      return hit;
    }
    if (this.unknown.has(clientId)) {
      this.onLookup('unknown_cache');
      return null;
    }
    this.onLookup('database');
    const row = await repo.findClientByClientId(this.db, clientId);
    if (row === null) this.unknown.set(clientId, true);
    else this.known.set(clientId, row);
    return row;
  }

  /**
   * Authenticates a merchant request: client id and secret first (401), then the IP allow list
   * (403). The scope is checked per route by `requireScope`.
   */
  /** Clients whose use this instance noted in the last minute: "last used" costs one write a minute, off the request's path. */
  private readonly used = new LRUCache<string, true>({ max: CLIENT_CACHE_ENTRIES, ttl: 60_000 });

  private noteUse(pk: string): void {
    if (this.used.has(pk)) return;
    this.used.set(pk, true);
    // "Last used" is a hint for people; a failed write never fails the request.
    void repo.touchLastUsed(this.db, pk).catch(() => undefined);
  }

  async authenticate(clientId: string | undefined, authorization: string | undefined, ip: string): Promise<Principal> {
    const secret = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!clientId || !secret || clientId.length > 100 || secret.length > 200) {
      throw new AppError('API_AUTH_FAILED', 'Missing or invalid X-Service-Client-Id or Authorization: Bearer credentials.');
    }
    const row = await this.lookup(clientId);
    const current = row !== null && secretMatches(secret, row.secret_hash);
    if (!row || !row.active || !(current || previousSecretMatches(secret, row, this.now()))) {
      throw new AppError('API_AUTH_FAILED', 'Missing or invalid X-Service-Client-Id or Authorization: Bearer credentials.');
    }
    if (!ipAllowed(ip, row.allowed_ips)) throw new AppError('API_IP_NOT_ALLOWED', 'Requests from this source address are not allowed for this client.');
    this.noteUse(row.id);
    const secretIssuedBy = (current ? row.secret_issued_by : row.previous_secret_issued_by) ?? null;
    return { pk: row.id, clientId: row.client_id, orgId: row.org_id, scopes: row.scopes, rateLimitPerMinute: row.rate_limit_per_minute, secretIssuedBy };
  }
}

/** The replaced secret of a rotation with an overlap, until its expiry. */
function previousSecretMatches(secret: string, row: repo.ClientRow, now: number): boolean {
  const hash = row.previous_secret_hash;
  const until = row.previous_secret_expires_at;
  return hash !== null && hash !== undefined && until !== null && until !== undefined && until.getTime() > now && secretMatches(secret, hash);
}
