/**
 * Read replicas (contract §10, issue #34 item 3): with DATABASE_REPLICA_URL the merchant list
 * endpoints and the console's lists, search, CSV exports and overview read from a streaming
 * standby while its replay lag is at most
 * REPLICA_MAX_LAG_MS, from the primary when it lags more or is down; the GET of one order always
 * reads the primary. Real servers from the PostgreSQL 15 binaries (test/support/pg-cluster.ts):
 * replay paused on the standby makes it lag.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db } from '../../src/store/db.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { type PgNode, pgBinariesMissing, removeAll, startPrimary, startStandby } from '../support/pg-cluster.js';

const skip = pgBinariesMissing();
let primary: PgNode;
let standby: PgNode;
let ts: TestService;
let client: TestClient;
let viewer: ConsoleCaller;

before(async () => {
  if (skip) return;
  primary = await startPrimary('primary');
  standby = await startStandby('replica', primary);
  await primary.query('CREATE DATABASE tijori');
  const url = primary.url('tijori');
  const db = new Db({ url, poolSize: 2 });
  // A lag bound far above the test's pauses: whether a list comes from the standby is then decided by its content alone.
  ts = await startTestService({ DATABASE_URL: url, DATABASE_REPLICA_URL: standby.url('tijori'), REPLICA_MAX_LAG_MS: '3600000' }, { database: { url, db, drop: () => db.close() } });
  client = await ts.createClient({});
  viewer = await signedInUser(ts, client.orgId, 'viewer@example.com', 'viewer');
}, { timeout: 60_000 });
after(async () => {
  await ts?.stop().catch(() => undefined);
  await ts?.database.drop().catch(() => undefined);
  await removeAll();
});

const createOrder = async (ref: string) => {
  const r = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000, purpose: 'replica', merchant_order_reference: ref } });
  assert.equal(r.status, 201, r.text);
  return r.body.data;
};
const listed = async () => {
  const r = await ts.api('GET', '/merchant/payment-orders?limit=100', { client });
  assert.equal(r.status, 200, r.text);
  return (r.body.data as Array<{ merchant_order_reference: string }>).map((o) => o.merchant_order_reference);
};
/** Where the console shows an order: its list, its CSV export, the overview's count of the day. */
const inConsole = async (id: string) => {
  const list = await viewer.call('GET', '/payment-orders');
  const csv = await viewer.call('GET', '/payment-orders/export');
  const overview = await viewer.call('GET', '/overview');
  assert.equal(list.status, 200, list.text);
  assert.equal(csv.status, 200, csv.text);
  assert.equal(overview.status, 200, overview.text);
  return { list: (list.body.data as Array<{ id: string }>).some((o) => o.id === id), csv: csv.text.includes(id), overview: JSON.stringify(overview.body.data) };
};

test('lists read the standby while it is within the lag bound; the GET of one order reads the primary; a standby that is down is not waited for', { skip, timeout: 60_000 }, async () => {
  await createOrder('before-pause');
  await new Promise((r) => setTimeout(r, 1_500));
  assert.ok((await listed()).includes('before-pause'), 'replayed on the standby');
  await standby.query('SELECT pg_wal_replay_pause()');
  const paused = await createOrder('while-paused');
  await new Promise((r) => setTimeout(r, 1_200)); // past the lag check's cache
  assert.ok(!(await listed()).includes('while-paused'), 'the list came from the standby, which has not replayed it');
  const consolePaused = await inConsole(paused.id);
  assert.deepEqual([consolePaused.list, consolePaused.csv], [false, false], 'the console list and export came from the standby');
  assert.equal((await ts.api('GET', `/merchant/payment-orders/${paused.order_id}`, { client })).status, 200, 'one order: from the primary');
  await standby.query('SELECT pg_wal_replay_resume()');
  await new Promise((r) => setTimeout(r, 1_500));
  assert.ok((await listed()).includes('while-paused'), 'replayed again');
  const consoleResumed = await inConsole(paused.id);
  assert.deepEqual([consoleResumed.list, consoleResumed.csv], [true, true]);
  assert.notEqual(consoleResumed.overview, consolePaused.overview, 'the overview read the standby too: it counts the order once replayed');
  await standby.stop();
  await createOrder('standby-down');
  const t0 = Date.now();
  assert.ok((await listed()).includes('standby-down'), 'with the standby down the primary answers');
  assert.ok(Date.now() - t0 < 5_000, 'without waiting long for the standby');
});

test('a standby lagging more than REPLICA_MAX_LAG_MS is not read', { skip, timeout: 60_000 }, async () => {
  const standby2 = await startStandby('replica2', primary);
  const db = new Db({ url: primary.url('tijori'), replicaUrl: standby2.url('tijori'), replicaMaxLagMs: 500, poolSize: 2 });
  try {
    await db.query('CREATE TABLE replica_probe (n int)');
    await db.query('INSERT INTO replica_probe VALUES (1)');
    await new Promise((r) => setTimeout(r, 1_000));
    const count = () => db.replicaReads.read(async (q) => (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM replica_probe')).rows[0]!.n);
    assert.equal(await count(), 1);
    await standby2.query('SELECT pg_wal_replay_pause()');
    await db.query('INSERT INTO replica_probe VALUES (2)');
    await new Promise((r) => setTimeout(r, 1_200));
    assert.equal(await count(), 2, 'lagging beyond the bound: read from the primary');
  } finally {
    await db.close();
    await standby2.stop();
  }
});
