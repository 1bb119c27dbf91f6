/**
 * The idempotency framework against real PostgreSQL: concurrent first requests with one key make
 * exactly one resource; a different body is 422; a held lease is 409; an expired lease is taken over;
 * a known key's answer can be looked up without taking it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { AppError } from '../../src/domain/errors.js';
import { IdempotencyService, type IdempotencyScope } from '../../src/services/idempotency.js';
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

// What a resource's statement does with the key values (as insertLeasedCreates does for orders).
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

/** A widget written in one statement with its completed key row (as the batched creates write theirs). */
function oneStatement(n: number) {
  let id = '';
  return {
    prepare: (resourceId: string) => {
      id = resourceId;
      return { status: 201, body: { success: true, data: { id, n } }, resourceType: 'widget', resourceId };
    },
    write: {
      first: async (key: CompletedKeyValues) => {
        const r = await t.db.query<{ n: number }>(
          `WITH k AS (INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, response_status, response_body, resource_type, resource_id, completed_at)
                      VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, now()) ON CONFLICT DO NOTHING RETURNING 1),
                w AS (INSERT INTO widgets (id, n) SELECT $7, $8 FROM k RETURNING 1)
           SELECT count(*)::int AS n FROM w`,
          [key.client_pk, key.key, key.fingerprint, key.response_status, key.response_body, key.resource_type, id, n],
        );
        return r.rows[0]?.n === 1;
      },
      takeover: (tx: Queryable, key: CompletedKeyValues) => writeWidget(id, tx, n)(key),
    },
  };
}

test('50 concurrent one-statement creates with one key make exactly one resource and identical answers', async () => {
  const key = randomUUID();
  const results = await Promise.all(
    Array.from({ length: 50 }, () => {
      const w = oneStatement(1);
      return svc.runOneStatement(scope(key), w.prepare, w.write);
    }),
  );
  assert.equal(results.filter((r) => !r.replayed).length, 1);
  assert.equal(new Set(results.map((r) => r.bodyText)).size, 1, 'every answer is byte-identical');
  const count = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM widgets WHERE n = 1');
  assert.equal(count.rows[0]?.c, 1);
});

test('the same key with a different body is IDEMPOTENCY_KEY_REUSED; same body after key order change replays', async () => {
  const key = randomUUID();
  const create = (body: unknown) => {
    const w = oneStatement(2);
    return svc.runOneStatement(scope(key, body), w.prepare, w.write);
  };
  const first = await create({ n: 2, m: 'x' });
  const again = await create({ m: 'x', n: 2 });
  assert.equal(again.replayed, true);
  assert.equal(again.bodyText, first.bodyText);
  await assert.rejects(create({ n: 3, m: 'x' }), (e: AppError) => e.code === 'IDEMPOTENCY_KEY_REUSED');
});

test('answerIfKnown: nothing for a new key, the stored answer for a repeat, 422 for another body', async () => {
  const key = randomUUID();
  assert.equal(await svc.answerIfKnown(scope(key, { n: 4 })), null);
  const w = oneStatement(4);
  const first = await svc.runOneStatement(scope(key, { n: 4 }), w.prepare, w.write);
  assert.deepEqual(await svc.answerIfKnown(scope(key, { n: 4 })), { status: 201, bodyText: first.bodyText, replayed: true });
  await assert.rejects(svc.answerIfKnown(scope(key, { n: 5 })), (e: AppError) => e.code === 'IDEMPOTENCY_KEY_REUSED');
});

test('leased creates: 409 while held, release on failure, takeover after expiry with the same resource id', async () => {
  const key = randomUUID();
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let firstId = '';
  const first = svc.runLeased(scope(key), async ({ resourceId, completeWith }) => {
    firstId = resourceId;
    await gate;
    const text = await completeWith({ status: 201, body: { id: resourceId }, resourceType: 'widget', resourceId }, writeWidget(resourceId));
    return { status: 201, bodyText: text, replayed: false };
  });
  await poll(async () => firstId, { what: 'the first create to hold the key', timeoutMs: 5_000, stepMs: 5 });
  await assert.rejects(
    svc.runLeased(scope(key), async () => ({ status: 500, bodyText: '', replayed: false })),
    (e: AppError) => e.code === 'IDEMPOTENCY_KEY_IN_PROGRESS',
  );
  release();
  const done = await first;
  const replay = await svc.runLeased(scope(key), async () => assert.fail('must not run again'));
  assert.equal(replay.replayed, true);
  assert.equal(replay.bodyText, done.bodyText);
  assert.equal(JSON.parse(done.bodyText).id, firstId);

  // A holder that crashed: the lease expires and the next retry resumes with the same resource id.
  const key2 = randomUUID();
  let crashedId = '';
  await svc
    .runLeased(scope(key2), async ({ resourceId }) => {
      crashedId = resourceId;
      // simulate a crash: keep the row in progress (as a dead process would), with a 1 ms lease
      await t.db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [key2]);
      throw Object.assign(new Error('crash'), { simulatedCrash: true });
    })
    .catch(() => undefined);
  // The failure path released the key; re-create a stale in-progress row as a crashed process leaves it.
  await t.db.query(
    `INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, locked_until, resource_id)
     SELECT $1, $2, fp, 'in_progress', now() - interval '1 second', $3 FROM (SELECT $4::text AS fp) f
     ON CONFLICT DO NOTHING`,
    [clientPk, key2, crashedId, (await import('../../src/services/idempotency.js')).fingerprint(scope(key2))],
  );
  const resumed = await svc.runLeased(scope(key2), async ({ resourceId, completeWith }) => ({
    status: 201,
    bodyText: await completeWith({ status: 201, body: { id: resourceId }, resourceType: 'widget', resourceId }, writeWidget(resourceId)),
    replayed: false,
  }));
  assert.equal(JSON.parse(resumed.bodyText).id, crashedId);
});

test('leased creates completed in the resource statement: written with the key, or not at all once the key is lost', async () => {
  const widgets = async (id: string) => (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM widgets WHERE id = $1', [id])).rows[0]?.c;

  const key = randomUUID();
  let id = '';
  const done = await svc.runLeased(scope(key), async ({ resourceId, completeWith }) => {
    id = resourceId;
    const outcome = { status: 201, body: { id: resourceId }, resourceType: 'widget', resourceId };
    return { status: 201, bodyText: await completeWith(outcome, writeWidget(resourceId)), replayed: false };
  });
  assert.equal(await widgets(id), 1);
  const replay = await svc.runLeased(scope(key), async () => assert.fail('must not run again'));
  assert.deepEqual([replay.replayed, replay.bodyText], [true, done.bodyText]);

  // Another request completed the key meanwhile (its lease had expired and it took over): this
  // one's statement writes nothing, and it fails instead of making a second resource.
  const lost = randomUUID();
  let lostId = '';
  await assert.rejects(
    svc.runLeased(scope(lost), async ({ resourceId, completeWith }) => {
      lostId = resourceId;
      await t.db.query(`UPDATE idempotency_keys SET state = 'completed', response_status = 201, response_body = '{}' WHERE key = $1`, [lost]);
      return { status: 201, bodyText: await completeWith({ status: 201, body: {}, resourceType: 'widget', resourceId }, writeWidget(resourceId)), replayed: false };
    }),
    /not held at completion/,
  );
  assert.equal(await widgets(lostId), 0);
  const kept = await t.db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE key = $1', [lost]);
  assert.equal(kept.rows[0]?.state, 'completed', "the other request's answer stays");
});
