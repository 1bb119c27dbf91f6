/**
 * Several instances on one database: claims with FOR UPDATE SKIP LOCKED never hand the same
 * delivery to two workers, and a claim left behind by a crashed worker is taken over when its
 * lease runs out.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Queryable } from '../../src/store/db.js';
import { listen } from '../../src/store/notify.js';
import { claimDueDeliveries, DELIVERIES_CHANNEL, insertEventsWithDeliveries } from '../../src/store/repos/callbacks-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { emit, eventually, setDestination, startTrustedReceiver, type TrustedReceiver } from './helpers.js';

let r: TrustedReceiver;
let database: TestDatabase;
let a: TestService;
let b: TestService;
before(async () => {
  r = await startTrustedReceiver();
  database = await createTestDatabase();
  // Instances of one deployment share the MASTER_KEY (the signing secrets are encrypted with it).
  const env = { ...r.env, MASTER_KEY: randomBytes(32).toString('base64') };
  a = await startTestService(env, { database });
  b = await startTestService(env, { database });
});
after(async () => {
  await a.stop();
  await b.stop();
  await database.drop();
  await r.close();
});

test('two instances deliver 300 events exactly once each', async () => {
  const org = await a.createOrg();
  r.secrets['/many'] = (await setDestination(a, org, 'payout', r.rx.url('/many'))).body.data.signing_secret;
  const start = r.rx.received.length;
  // Recorded through both instances, in parallel batches, as concurrent payouts would be.
  const ids: string[] = [];
  for (let batch = 0; batch < 10; batch++) {
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => emit(i % 2 ? a : b, { orgId: org, kind: 'payout.success' })));
    ids.push(...made.map((e) => e.id));
  }
  await r.rx.waitForRequests(start + 300, 20_000);
  // Anything extra would be sent by rounds of either instance's worker begun now.
  await Promise.all([a.workerRounds('callback-delivery'), b.workerRounds('callback-delivery')]);
  const got = r.rx.received.slice(start);
  const hits = new Map<string, number>();
  for (const q of got) {
    assert.equal(q.verification?.ok, true);
    const id = String(q.headers['x-service-event-id']);
    hits.set(id, (hits.get(id) ?? 0) + 1);
  }
  assert.equal(got.length, 300);
  assert.deepEqual([...hits.keys()].sort(), [...ids].sort());
  assert.ok([...hits.values()].every((n) => n === 1), 'exactly one request per event');
  const attempts = await database.db.query(
    `SELECT count(*)::int AS n, count(DISTINCT delivery_id)::int AS d FROM callback_delivery_attempts a
       JOIN callback_deliveries d ON d.id = a.delivery_id WHERE d.org_id = $1`,
    [org],
  );
  assert.deepEqual(attempts.rows[0], { n: 300, d: 300 });
});

test('a delivery claimed by a worker that died is delivered by another once the lease expires', async () => {
  const org = await a.createOrg();
  r.secrets['/lease'] = (await setDestination(a, org, 'payin', r.rx.url('/lease'))).body.data.signing_secret;
  // Claim the delivery inside the event's own transaction, so no live worker can get it first,
  // and never record an attempt: this is the crashed worker.
  const ev = await database.db.tx(async (tx) => {
    const { recordEvent } = await import('../../src/services/callbacks/events.js');
    const e = await recordEvent(tx, { orgId: org, kind: 'collection.received', aggregateType: 'payment_order', aggregateId: randomUUID(), data: { status: 'PAID' } });
    const claimed = await claimDueDeliveries(tx, { limit: 10, leaseSeconds: 600, claimToken: randomUUID() });
    assert.deepEqual(claimed.map((c) => c.event_id), [e.id]);
    return e;
  });
  // Rounds of both instances' workers while the lease runs: neither takes it.
  await Promise.all([a.workerRounds('callback-delivery'), b.workerRounds('callback-delivery')]);
  assert.equal(r.rx.received.filter((q) => q.headers['x-service-event-id'] === ev.id).length, 0, 'not before the lease ends');
  // The lease ends (its ten minutes moved to now, rather than waited for).
  await database.db.query('UPDATE callback_deliveries SET next_attempt_at = now() WHERE event_id = $1', [ev.id]);
  await eventually(async () => r.rx.received.some((q) => q.headers['x-service-event-id'] === ev.id && q.answeredStatus === 200), 5000, 'taken over');
});

test('an instance without a worker notifies the others on commit (and only then); one with a worker does not', async () => {
  const org = await a.createOrg();
  await setDestination(a, org, 'payout', r.rx.url('/unused'));
  let notified = 0;
  const sub = listen(database.db, DELIVERIES_CHANNEL, () => notified++, a.svc.ctx.log);
  await eventually(async () => notified === 1, 5000, 'listening (one catch-up call on connect)');
  const insert = (tx: Queryable, notify: boolean) =>
    insertEventsWithDeliveries(
      tx,
      [
        {
          id: randomUUID(),
          orgId: org,
          kind: 'payout.created',
          aggregateType: 'payout',
          aggregateId: randomUUID(),
          body: '{}',
          createdAt: new Date(),
          target: 'payout',
          extra: undefined,
        },
      ],
      notify,
    );
  // A marker NOTIFY committed later: PostgreSQL delivers notifications in commit order, so once the
  // marker is in, anything committed (or wrongly sent) before it is in too.
  const marker = async (count: number) => {
    await database.db.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, 'marker']);
    await eventually(async () => notified >= count, 5000, 'the marker notification');
  };
  await database.db.tx(async (tx) => {
    await insert(tx, true);
    await marker(2);
    assert.equal(notified, 2, 'nothing before the commit (only the marker)');
  });
  await eventually(async () => notified === 3, 2000, 'notification after commit');
  await database.db.tx((tx) => insert(tx, false));
  await marker(4);
  assert.equal(notified, 4, 'only the marker: the insert without notify sent none');
  await sub.close();
});
