/**
 * Idempotency of financial creates (contract §4): a row per (API client, key) with a fingerprint
 * of the request. The primary key makes concurrent first requests race-free across instances:
 * exactly one INSERT wins; the others wait for it and replay, or see it in flight (409).
 *
 * One way to run a create (`run`): the service's `attempt` builds the resource for a given id and
 * writes it with the completed key row (`keyFor`) in one atomic write (one statement shared with
 * concurrent creates, or one transaction). How the key gets there is this module's business:
 * - a create that knows its answer without calling out writes a NEW key with the resource (one
 *   round trip; no one ever sees the key "in progress"; concurrent duplicates block on the key
 *   and then replay);
 * - a `leased` create (it calls a provider before it can answer) takes the key with a lease first;
 *   duplicates get 409 until it completes, and its write completes the key it HOLDS.
 * A key left in progress whose lease expired (crashed instance) is taken over by the next retry,
 * which holds it and resumes with the same resource id.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import type { Db, Queryable } from '../../store/db.js';
import { type CreateKey, endLease, findKey, insertLease, insertLeases, type NewLease, takeOverExpiredLease } from '../../store/repos/idempotency-keys-repo.js';
import { newRowId } from '../../store/row-id.js';

export interface IdempotencyScope {
  clientPk: string;
  key: string;
  method: string;
  path: string;
  body: unknown;
}

export interface CreateOutcome {
  status: number;
  /** The whole response envelope; stored as text and replayed byte for byte. */
  body: unknown;
  resourceType: string;
  resourceId: string;
}

export interface CreateResponse {
  status: number;
  bodyText: string;
  replayed: boolean;
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` fingerprint alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export function fingerprint(scope: IdempotencyScope): string {
  return createHash('sha256').update(`${scope.method.toUpperCase()} ${scope.path}\n${canonicalJson(scope.body)}`).digest('hex');
}

type Claim = { kind: 'new'; resourceId: string } | { kind: 'replay'; status: number; bodyText: string };

export const DEFAULT_LEASE_MS = 30_000;

/** What one try of a create gets from `run`. */
export interface CreateTry {
  /** The id to create the resource with (on a takeover: the one the key was first taken for). */
  resourceId: string;
  /** The completed key row answering with `outcome`, to be written with the resource (`held` says how). */
  keyFor: (outcome: CreateOutcome) => CreateKey;
}

/**
 * What a try did: the key row it wrote with its resource, whether the write went in (false: a new
 * key already existed, or a held one was no longer held; nothing was written), and what it made.
 * A write that is not one statement must throw (keyNotHeld) rather than commit a resource whose key
 * it did not write.
 */
export interface CreateTried<R> {
  key: CreateKey;
  written: boolean;
  made: R;
}

/** `run`'s answer, and what this request made (undefined when it replayed an earlier answer). */
export interface CreateRun<R> {
  response: CreateResponse;
  made: R | undefined;
}

/** The error of a create whose held key was completed by another request meanwhile. */
export function keyNotHeld(): Error {
  return new Error('idempotency key was not held at completion');
}

/** The completed key row that answers `outcome`, as written with the resource. */
function completedKey(scope: IdempotencyScope, fp: string, outcome: CreateOutcome, held: boolean): CreateKey {
  return {
    client_pk: scope.clientPk,
    key: scope.key,
    fingerprint: fp,
    response_status: outcome.status,
    response_body: JSON.stringify(outcome.body),
    resource_type: outcome.resourceType,
    held,
  };
}

export class IdempotencyService {
  constructor(private readonly db: Db) {}

  /**
   * What an existing key row says to a request with `fp`: a replay, 422 (another request) or 409
   * (still held); 'absent' when there is no row, 'expired' when its holder's lease ran out.
   */
  private async lookUp(q: Queryable, scope: IdempotencyScope, fp: string): Promise<{ kind: 'replay'; status: number; bodyText: string } | { kind: 'absent' } | { kind: 'expired'; resourceId: string | null }> {
    const row = await findKey(q, scope.clientPk, scope.key);
    if (!row) return { kind: 'absent' };
    if (row.fingerprint !== fp) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    if (row.state === 'completed') return { kind: 'replay', status: row.response_status as number, bodyText: row.response_body as string };
    if (row.locked) throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
    return { kind: 'expired', resourceId: row.resource_id };
  }

  /**
   * Takes the key, or explains why not (replay, 409, 422). `take` inserts the new key row (by
   * default in `q` on its own; leased creates share a batched statement) and says whether it went in.
   */
  private async claim(
    q: Queryable,
    scope: IdempotencyScope,
    fp: string,
    leaseMs: number,
    take: (lease: NewLease) => Promise<boolean> = async (lease) => (await insertLeases(q, [lease]))[0] === true,
  ): Promise<Claim> {
    const resourceId = newRowId();
    if (await take({ client_pk: scope.clientPk, key: scope.key, fingerprint: fp, lease_ms: leaseMs, resource_id: resourceId })) {
      return { kind: 'new', resourceId };
    }
    const found = await this.lookUp(q, scope, fp);
    if (found.kind === 'absent') return this.claim(q, scope, fp, leaseMs, take); // the holder rolled back: try again
    if (found.kind === 'replay') return found;
    if (!(await takeOverExpiredLease(q, scope.clientPk, scope.key, leaseMs))) throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
    return { kind: 'new', resourceId: found.resourceId ?? newRowId() };
  }

  /**
   * The answer a key already gives, if any: a replay, or the 422/409 `claim` would raise; null
   * when the key is unknown (or left in progress by a crashed create). For a create that fails
   * its checks: a repeat of a create that succeeded earlier is answered as it was, even if what
   * it checked has changed since.
   */
  async answerIfKnown(scope: IdempotencyScope): Promise<CreateResponse | null> {
    const found = await this.lookUp(this.db, scope, fingerprint(scope));
    return found.kind === 'replay' ? { status: found.status, bodyText: found.bodyText, replayed: true } : null;
  }

  /**
   * Runs a create under its key: `attempt` builds the resource for the id it is given and writes it
   * with `keyFor(outcome)` in one atomic write, saying whether it went in. Without `leased`, the
   * first try writes a new key with the resource (one round trip); if the key exists, the request
   * is answered as a repeat (replay, 422 or 409), or, when the key was left in progress by a
   * create that died, takes it over and tries again holding it. With `leased` (a create that calls
   * out before it can answer), the key is taken with a lease first (in a statement shared with
   * concurrent creates) and the one try completes it. If a try fails while the key is held, the
   * lease is ended (not the key deleted), so that a retry with the same key takes it over with the
   * SAME resource id: a provider, which deduplicates by our reference, answers the retry with what
   * it may already have made for the first try (a deleted key gave the retry a new id, and the
   * provider a second, orphaned collection).
   */
  async run<R>(
    scope: IdempotencyScope,
    how: { leased: boolean; leaseMs?: number },
    attempt: (t: CreateTry) => Promise<CreateTried<R>>,
  ): Promise<CreateRun<R>> {
    const fp = fingerprint(scope);
    const leaseMs = how.leaseMs ?? DEFAULT_LEASE_MS;
    if (!how.leased) {
      const first = await attempt({ resourceId: newRowId(), keyFor: (outcome) => completedKey(scope, fp, outcome, false) });
      if (first.written) return answered(first);
      // The key exists (or a concurrent first request just committed it): answer as a repeat.
    }
    const claim = await this.claim(this.db, scope, fp, leaseMs, how.leased ? (lease) => insertLease(this.db, lease) : undefined);
    if (claim.kind === 'replay') return { response: { status: claim.status, bodyText: claim.bodyText, replayed: true }, made: undefined };
    // This request holds the key (leased, or taken over from a holder that rolled back or died).
    let held: CreateTried<R>;
    try {
      held = await attempt({ resourceId: claim.resourceId, keyFor: (outcome) => completedKey(scope, fp, outcome, true) });
      if (!held.written) throw keyNotHeld();
    } catch (err) {
      // Nothing was completed: end the lease (a key completed by another request is left as it is).
      await endLease(this.db, scope.clientPk, scope.key).catch(() => undefined); // unreachable database: the lease expires by itself
      throw err;
    }
    return answered(held);
  }
}

/** The answer of a try that wrote its resource: the body stored with the key, byte for byte. */
function answered<R>(t: CreateTried<R>): CreateRun<R> {
  return { response: { status: t.key.response_status, bodyText: t.key.response_body, replayed: false }, made: t.made };
}
