/**
 * What a change of an API client may be: the inputs of a create and of a settings change, the
 * settings an audit entry shows, and the checks of scopes, allow lists, rate limit and name that
 * every caller (admin API, CLI, console) gets from ClientsService.
 */
import { DEFAULT_RATE_LIMIT_PER_MINUTE, isValidRateLimit, RATE_LIMIT_ISSUE } from '../../domain/rate-limit.js';
import { validationError } from '../../domain/errors.js';
import { isScope, type Scope, SCOPES } from '../../domain/scopes.js';
import { normalizeAllowEntry } from '../../security/ip.js';
import type { Queryable } from '../../store/db.js';
import type * as repo from '../../store/repos/clients-repo.js';

export interface CreateClientInput {
  orgId: string;
  scopes: string[];
  name?: string | undefined;
  allowIps?: string[] | undefined;
  rateLimitPerMinute?: number | undefined;
  /** The console user shown the new secret (dual control); absent: the operator's CLI. */
  issuedBy?: string | null | undefined;
}

/**
 * A change of a client's settings (`tijori client set`, the console's API clients page): each
 * field given replaces the old value; the allow list is replaced whole (empty: any address).
 */
export interface ClientChanges {
  /** The console only (the CLI's `client set` has no name flag): a blank name removes it. */
  name?: string | null | undefined;
  scopes?: string[] | undefined;
  allowIps?: string[] | undefined;
  rateLimitPerMinute?: number | undefined;
}

/** The settings an audit entry shows before and after a change (never a secret). */
export interface ClientSettings {
  scopes: Scope[];
  allowed_ips: string[];
  rate_limit_per_minute: number;
}

/** What the change hook sees: the settings, and the name when the change renamed the client. */
export type ClientChangeAudit = ClientSettings & { name?: string | null };

/**
 * Runs inside the change's own transaction, after the change: the console writes its audit entry
 * here, so a change and its audit entry commit together or not at all (docs/console.md).
 */
export type ChangeHook<T> = (tx: Queryable, changed: T) => Promise<void>;

/** The longest overlap of an API client secret rotation (contract §11: 0–168 hours). */
export const MAX_OVERLAP_HOURS = 168;
const SCOPES_ISSUE = `must be one or more of ${SCOPES.join(', ')}`;

/** Allow-list entries normalised; one issue per bad entry, naming its position (`allow_ip[2]`) so a form can show it on its line. */
function checkAllowList(raw: readonly string[], field: string, issues: { field: string; issue: string }[]): string[] {
  const out: string[] = [];
  raw.forEach((entry, i) => {
    const n = normalizeAllowEntry(entry);
    if ('issue' in n) issues.push({ field: `${field}[${i}]`, issue: n.issue });
    else if (!out.includes(n.value)) out.push(n.value);
  });
  return out;
}

export const settingsOf = (r: repo.ClientRow): ClientSettings => ({ scopes: r.scopes, allowed_ips: r.allowed_ips, rate_limit_per_minute: r.rate_limit_per_minute });

type Issues = { field: string; issue: string }[];

/** A create's scopes, allow list and rate limit, checked (VALIDATION_FAILED names every bad field). */
export function checkNewClient(input: CreateClientInput, orgIdOk: boolean): { scopes: Scope[]; ips: string[]; rate: number } {
  const issues: Issues = [];
  if (!orgIdOk) issues.push({ field: 'org', issue: 'must be an organization id (UUID)' });
  const scopes = [...new Set(input.scopes)];
  if (scopes.length === 0 || !scopes.every(isScope)) issues.push({ field: 'scopes', issue: SCOPES_ISSUE });
  const ips = checkAllowList(input.allowIps ?? [], 'allow_ip', issues);
  const rate = input.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  if (!isValidRateLimit(rate)) issues.push({ field: 'rate_limit', issue: RATE_LIMIT_ISSUE });
  if (issues.length > 0) throw validationError(issues);
  return { scopes: scopes as Scope[], ips, rate };
}

/** A settings change, checked; undefined: the field is not changed (null name: remove it). */
export function checkClientChanges(changes: ClientChanges): { scopes?: Scope[] | undefined; ips?: string[] | undefined; rate?: number | undefined; name?: string | null | undefined } {
  const issues: Issues = [];
  let scopes: Scope[] | undefined;
  if (changes.scopes !== undefined) {
    const unique = [...new Set(changes.scopes)];
    if (unique.length === 0 || !unique.every(isScope)) issues.push({ field: 'scopes', issue: SCOPES_ISSUE });
    else scopes = unique;
  }
  const ips = changes.allowIps === undefined ? undefined : checkAllowList(changes.allowIps, 'allowed_ips', issues);
  const rate = changes.rateLimitPerMinute;
  if (rate !== undefined && !isValidRateLimit(rate)) issues.push({ field: 'rate_limit_per_minute', issue: RATE_LIMIT_ISSUE });
  // A name is a label for people: trimmed, blank removes it, at most 200 characters, no control characters.
  const name = changes.name === undefined ? undefined : changes.name === null || changes.name.trim() === '' ? null : changes.name.trim();
  if (typeof name === 'string' && (name.length > 200 || /\p{Cc}/u.test(name))) issues.push({ field: 'name', issue: 'must be at most 200 characters, without control characters' });
  if (scopes === undefined && ips === undefined && rate === undefined && name === undefined && issues.length === 0) {
    issues.push({ field: 'changes', issue: 'name at least one of scopes, allowed IPs, rate limit' });
  }
  if (issues.length > 0) throw validationError(issues);
  return { scopes, ips, rate, name };
}
