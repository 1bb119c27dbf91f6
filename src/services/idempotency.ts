/**
 * Idempotency of financial creates (contract §4): a row per (API client, key) with a fingerprint
 * of the request. The primary key makes concurrent first requests race-free across instances:
 * exactly one INSERT wins; the others wait for it and replay, or see it in flight (409).
 *
 * Two ways to run a create:
 * - in one statement (runOneStatement): the completed key row and the resource are written
 *   together, so no one ever sees the key "in progress" (concurrent duplicates block on the key
 *   and then replay);
 * - leased: for creates that must call a provider before they can answer. The key is taken with a
 *   lease first; duplicates get 409 until it completes. A lease that expires (crashed instance) is
 *   taken over by the next retry, which resumes with the same resource id.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../domain/errors.js';
import { type Db, isDataOrDeadlockError, type Queryable } from '../store/db.js';
import { type CompletedKeyValues, insertLeases, type NewLease } from '../store/repos/idempotency-keys-repo.js';
import { newRowId } from '../store/row-id.js';
import { Batcher } from '../store/batcher.js';

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

interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  locked: boolean;
  response_status: number | null;
  response_body: string | null;
  resource_id: string | null;
}

type Claim = { kind: 'new'; resourceId: string; fingerprint: string } | { kind: 'replay'; status: number; bodyText: string };

export const DEFAULT_LEASE_MS = 30_000;

/** What a leased create's `work` gets: the resource id and the way to record its answer. */
export interface LeasedWork {
  resourceId: string;
  /**
   * Records the answer in the statement that creates the resource (one round trip, no explicit
   * transaction; e.g. insertLeasedCreates): `write` completes the key row with these values only
   * while it is still in progress with the same fingerprint, writes the resource only if it did,
   * and says whether it did. Returns the body.
   */
  completeWith: (outcome: CreateOutcome, write: (key: CompletedKeyValues) => Promise<boolean>) => Promise<string>;
}

/** The completed key row that answers `outcome`, as written with the resource. */
function completedKeyValues(scope: IdempotencyScope, fp: string, outcome: CreateOutcome, bodyText: string): CompletedKeyValues {
  return {
    client_pk: scope.clientPk,
    key: scope.key,
    fingerprint: fp,
    response_status: outcome.status,
    response_body: bodyText,
    resource_type: outcome.resourceType,
  };
}

export class IdempotencyService {
  /**
   * Leased creates that arrive together take their keys in one statement (the first round trip of
   * every INTENT create); what cannot be taken that way is looked at one by one in `claim`.
   */
  private readonly leases: Batcher<NewLease, boolean>;

  constructor(private readonly db: Db) {
    this.leases = new Batcher((batch) => insertLeases(db, batch), { maxBatch: 64, concurrency: 4, isolateFailures: isDataOrDeadlockError });
  }

  /**
   * What an existing key row says to a request with `fp`: a replay, 422 (another request) or 409
   * (still held); 'absent' when there is no row, 'expired' when its holder's lease ran out.
   */
  private async lookUp(q: Queryable, scope: IdempotencyScope, fp: string): Promise<{ kind: 'replay'; status: number; bodyText: string } | { kind: 'absent' } | { kind: 'expired'; resourceId: string | null }> {
    const existing = await q.query<KeyRow>(
      `SELECT fingerprint, state, locked_until > now() AS locked, response_status, response_body, resource_id
         FROM idempotency_keys WHERE client_pk = $1 AND key = $2`,
      [scope.clientPk, scope.key],
    );
    const row = existing.rows[0];
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
   * default in `q`; leased creates share a batched statement) and says whether it went in.
   */
  private async claim(
    q: Queryable,
    scope: IdempotencyScope,
    leaseMs: number,
    take: (lease: NewLease) => Promise<boolean> = async (lease) => (await insertLeases(q, [lease]))[0] === true,
  ): Promise<Claim> {
    const fp = fingerprint(scope);
    const resourceId = newRowId();
    if (await take({ client_pk: scope.clientPk, key: scope.key, fingerprint: fp, lease_ms: leaseMs, resource_id: resourceId })) {
      return { kind: 'new', resourceId, fingerprint: fp };
    }
    const found = await this.lookUp(q, scope, fp);
    if (found.kind === 'absent') return this.claim(q, scope, leaseMs, take); // the holder rolled back: try again
    if (found.kind === 'replay') return found;
    const taken = await q.query(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3::double precision / 1000)
        WHERE client_pk = $1 AND key = $2 AND state = 'in_progress' AND locked_until <= now() RETURNING 1`,
      [scope.clientPk, scope.key, leaseMs],
    );
    if (taken.rowCount !== 1) throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
    return { kind: 'new', resourceId: found.resourceId ?? newRowId(), fingerprint: fp };
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
   * The fastest form of an atomic create, for resources whose answer is fully known before they are
   * written: the completed key and the resource go in ONE statement (one round trip, an implicit
   * transaction), which `write.first` may share with other creates (see src/store/batcher.ts).
   * `prepare` builds the answer; `write.first` writes the resource with the given completed key
   * row, only if that row could be inserted, and says whether it was. A key that already exists is
   * answered as in `claim` (replay, 422 or 409); a key left in progress by a create that died is
   * taken over with `write.takeover`, which completes that key with the given values only while it
   * is still in progress with the same fingerprint, writes the resource only if it did, and says
   * whether it did (the leased form of the resource's batched write).
   */
  async runOneStatement(
    scope: IdempotencyScope,
    prepare: (resourceId: string) => CreateOutcome,
    write: {
      first: (key: CompletedKeyValues) => Promise<boolean>;
      takeover: (tx: Queryable, key: CompletedKeyValues) => Promise<boolean>;
    },
  ): Promise<CreateResponse> {
    const resourceId = newRowId();
    const outcome = prepare(resourceId);
    const bodyText = JSON.stringify(outcome.body);
    const key = completedKeyValues(scope, fingerprint(scope), outcome, bodyText);
    if (await write.first(key)) return { status: outcome.status, bodyText, replayed: false };
    // The key exists (or a concurrent first request just committed it): answer as a repeat.
    const claim = await this.claim(this.db, scope, DEFAULT_LEASE_MS);
    if (claim.kind === 'replay') return { status: claim.status, bodyText: claim.bodyText, replayed: true };
    // The holder of the key rolled back or its lease expired: this request now holds it; finish atomically.
    return this.db.tx(async (tx) => {
      const again = prepare(claim.resourceId);
      const againText = JSON.stringify(again.body);
      if (!(await write.takeover(tx, completedKeyValues(scope, key.fingerprint, again, againText)))) throw new Error('idempotency key was not held at completion');
      return { status: again.status, bodyText: againText, replayed: false };
    });
  }

  /**
   * For creates that call out before answering. `work` does its outside calls and then records its
   * answer with `completeWith`, in the one statement that writes the resource. If it throws before
   * that, the key's lease is ended (not the key deleted), so that a retry with the same key takes it
   * over with the SAME resource id: the provider, which deduplicates by our reference, answers the
   * retry with what it may already have made for the first try (a deleted key gave the retry a new
   * id, and the provider a second, orphaned collection).
   */
  async runLeased(scope: IdempotencyScope, work: (ctx: LeasedWork) => Promise<CreateResponse>, leaseMs = DEFAULT_LEASE_MS): Promise<CreateResponse> {
    const claim = await this.claim(this.db, scope, leaseMs, (lease) => this.leases.add(lease));
    if (claim.kind === 'replay') return { status: claim.status, bodyText: claim.bodyText, replayed: true };
    let completed = false;
    try {
      return await work({
        resourceId: claim.resourceId,
        completeWith: async (outcome, write) => {
          const bodyText = JSON.stringify(outcome.body);
          // The fingerprint the key was claimed with, not hashed again.
          if (!(await write(completedKeyValues(scope, claim.fingerprint, outcome, bodyText)))) throw new Error('idempotency key was not held at completion');
          completed = true;
          return bodyText;
        },
      });
    } catch (err) {
      if (!completed) {
        await this.db
          .query(`UPDATE idempotency_keys SET locked_until = now() WHERE client_pk = $1 AND key = $2 AND state = 'in_progress'`, [scope.clientPk, scope.key])
          .catch(() => undefined); // unreachable database: the lease expires by itself
      }
      throw err;
    }
  }
}
