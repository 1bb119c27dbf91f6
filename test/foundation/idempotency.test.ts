/**
 * The idempotency framework against real PostgreSQL (IdempotencyService.run, the one way to run a
 * create): concurrent first requests with one key make exactly one resource; a different body is
 * 422; a held lease is 409; an expired lease is taken over with the same resource id; a known key's
 * answer can be looked up without taking it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { AppError } from '../../src/domain/errors.js';
import { type CreateTry, fingerprint, IdempotencyService, type IdempotencyScope } from '../../src/services/shared/idempotency.js';
import type { Queryable } from '../../src/store/db.js';
import type { CompletedKeyValues } from '../../src/store/repos/idempotency-keys-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { poll } from '../support/poll.js';

let t: TestDatabase;
let clientPk: string;
let svc: IdempotencyService;

before(async () => {
  t = await createTestDatabase();
  const org = randomUUID();
  clientPk = randomUUID();
  await t.db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'o')`, [org]);
  await t.db.query(
    `INSERT INTO api_clients (id, client_id, org_id, secret_hash, scopes) VALUES ($1, $2, $3, '\\x00', '{collections:write}')`,
    [clientPk, `c-${clientPk}`, org],
  );
  await t.db.query('CREATE TABLE widgets (id uuid PRIMARY KEY, n int NOT NULL)');
  svc = new IdempotencyService(t.db);
});
after(() => t.drop());

function scope(key: string, body: unknown = { n: 1 }): IdempotencyScope {
  return { clientPk, key, method: 'POST', path: '/widgets', body };
}

// What a resource's statement does with a held key (as insertLeasedCreates does for orders).
const writeWidget = (id: string, q: Queryable = t.db, n = 7) => async (key: CompletedKeyValues) => {
  const r = await q.query<{ n: number }>(
    `WITH k AS (UPDATE idempotency_keys SET state = 'completed', locked_until = NULL, response_status = $4, response_body = $5, resource_type = $6,
                  resource_id = $7, completed_at = now()
                WHERE client_pk = $1 AND key = $2 AND fingerprint = $3 AND state = 'in_progress' RETURNING 1),
          w AS (INSERT INTO widgets (id, n) SELECT $7, $8 FROM k RETURNING 1)
     SELECT count(*)::int AS n FROM w`,
    [key.client_pk, key.key, key.fingerprint, key.response_status, key.response_body, key.resource_type, id, n],
  );
  return r.rows[0]?.n === 1;
};

/** What a resource's statement does with a new key (as insertCheckoutCreates does for orders). */
async function insertWidget(id: string, n: number, key: CompletedKeyValues): Promise<boolean> {
  const r = await t.db.query<{ n: number }>(
    `WITH k AS (INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, response_status, response_body, resource_type, resource_id, completed_at)
                VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, now()) ON CONFLICT DO NOTHING RETURNING 1),
          w AS (INSERT INTO widgets (id, n) SELECT $7, $8 FROM k RETURNING 1)
     SELECT count(*)::int AS n FROM w`,
    [key.client_pk, key.key, key.fingerprint, key.response_status, key.response_body, key.resource_type, id, n],
  );
  return r.rows[0]?.n === 1;
}

/** A widget create as the services write theirs: built for the id it is given, written in one statement with its key. */
function widget(n: number, onTry: (resourceId: string) => Promise<void> = async () => {}) {
  return async ({ resourceId, keyFor }: CreateTry) => {
    await onTry(resourceId);
    const key = keyFor({ status: 201, body: { success: true, data: { id: resourceId, n } }, resourceType: 'widget', resourceId });
    const written = key.held ? await writeWidget(resourceId, t.db, n)(key) : await insertWidget(resourceId, n, key);
    return { key, written, made: resourceId };
  };
}

const oneStatement = (key: string, n: number, body: unknown = { n: 1 }) => svc.run(scope(key, body), { leased: false }, widget(n));
const leased = (key: string, n: number, onTry?: (resourceId: string) => Promise<void>) => svc.run(scope(key), { leased: true }, widget(n, onTry));
const widgets = async (id: string) => (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM widgets WHERE id = $1', [id])).rows[0]?.c;

test('50 concurrent one-statement creates with one key make exactly one resource and identical answers', async () => {
  const key = randomUUID();
  const results = await Promise.all(Array.from({ length: 50 }, () => oneStatement(key, 1)));
  assert.equal(results.filter((r) => !r.response.replayed).length, 1);
  assert.equal(results.filter((r) => r.made !== undefined).length, 1, 'only the request that created it says what it made');
  assert.equal(new Set(results.map((r) => r.response.bodyText)).size, 1, 'every answer is byte-identical');
  const count = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM widgets WHERE n = 1');
  assert.equal(count.rows[0]?.c, 1);
});

test('the same key with a different body is IDEMPOTENCY_KEY_REUSED; same body after key order change replays', async () => {
  const key = randomUUID();
  const first = await oneStatement(key, 2, { n: 2, m: 'x' });
  const again = await oneStatement(key, 2, { m: 'x', n: 2 });
  assert.equal(again.response.replayed, true);
  assert.equal(again.response.bodyText, first.response.bodyText);
  await assert.rejects(oneStatement(key, 2, { n: 3, m: 'x' }), (e: AppError) => e.code === 'IDEMPOTENCY_KEY_REUSED');
});

test('answerIfKnown: nothing for a new key, the stored answer for a repeat, 422 for another body', async () => {
  const key = randomUUID();
  assert.equal(await svc.answerIfKnown(scope(key, { n: 4 })), null);
  const first = await oneStatement(key, 4, { n: 4 });
  assert.deepEqual(await svc.answerIfKnown(scope(key, { n: 4 })), { status: 201, bodyText: first.response.bodyText, replayed: true });
  await assert.rejects(svc.answerIfKnown(scope(key, { n: 5 })), (e: AppError) => e.code === 'IDEMPOTENCY_KEY_REUSED');
});

/** A key left in progress with an expired lease, as a crashed process leaves it. */
async function crashedKey(key: string, resourceId: string, body: unknown = { n: 1 }): Promise<void> {
  await t.db.query(
    `INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, locked_until, resource_id)
     VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', $4)`,
    [clientPk, key, fingerprint(scope(key, body)), resourceId],
  );
}

test('a one-statement create whose key was left in progress takes it over with the same resource id', async () => {
  const key = randomUUID();
  const crashedId = randomUUID();
  await crashedKey(key, crashedId);
  const resumed = await oneStatement(key, 9);
  assert.equal(resumed.response.replayed, false);
  assert.equal(resumed.made, crashedId);
  assert.equal(JSON.parse(resumed.response.bodyText).data.id, crashedId);
  assert.equal(await widgets(crashedId), 1);
  const replay = await oneStatement(key, 9);
  assert.deepEqual([replay.response.replayed, replay.response.bodyText, replay.made], [true, resumed.response.bodyText, undefined]);
});

test('leased creates: 409 while held, release on failure, takeover after expiry with the same resource id', async () => {
  const key = randomUUID();
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let firstId = '';
  const first = leased(key, 7, async (resourceId) => {
    firstId = resourceId;
    await gate;
  });
  await poll(async () => firstId, { what: 'the first create to hold the key', timeoutMs: 5_000, stepMs: 5 });
  await assert.rejects(
    svc.run(scope(key), { leased: true }, async () => assert.fail('must not run while the key is held')),
    (e: AppError) => e.code === 'IDEMPOTENCY_KEY_IN_PROGRESS',
  );
  release();
  const done = await first;
  const replay = await svc.run(scope(key), { leased: true }, async () => assert.fail('must not run again'));
  assert.equal(replay.response.replayed, true);
  assert.equal(replay.response.bodyText, done.response.bodyText);
  assert.equal(JSON.parse(done.response.bodyText).data.id, firstId);

  // A failure while holding the key ends its lease: the next retry takes it over with the same id.
  const key2 = randomUUID();
  let failedId = '';
  await assert.rejects(
    leased(key2, 7, async (resourceId) => {
      failedId = resourceId;
      throw new Error('provider down');
    }),
    /provider down/,
  );
  const resumed = await leased(key2, 7);
  assert.equal(resumed.made, failedId);

  // A holder that crashed: the lease expires and the next retry resumes with the same resource id.
  const key3 = randomUUID();
  const crashedId = randomUUID();
  await crashedKey(key3, crashedId);
  const again = await leased(key3, 7);
  assert.equal(JSON.parse(again.response.bodyText).data.id, crashedId);
});

test('leased creates completed in the resource statement: written with the key, or not at all once the key is lost', async () => {
  const key = randomUUID();
  const done = await leased(key, 7);
  assert.equal(await widgets(done.made as string), 1);
  const replay = await svc.run(scope(key), { leased: true }, async () => assert.fail('must not run again'));
  assert.deepEqual([replay.response.replayed, replay.response.bodyText], [true, done.response.bodyText]);

  // Another request completed the key meanwhile (its lease had expired and it took over): this
  // one's statement writes nothing, and it fails instead of making a second resource.
  const lost = randomUUID();
  let lostId = '';
  await assert.rejects(
    leased(lost, 7, async (resourceId) => {
      lostId = resourceId;
      await t.db.query(`UPDATE idempotency_keys SET state = 'completed', response_status = 201, response_body = '{}' WHERE key = $1`, [lost]);
    }),
    /not held at completion/,
  );
  assert.equal(await widgets(lostId), 0);
  const kept = await t.db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE key = $1', [lost]);
  assert.equal(kept.rows[0]?.state, 'completed', "the other request's answer stays");
});
