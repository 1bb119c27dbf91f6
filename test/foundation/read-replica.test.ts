/**
 * Read replicas (contract §10, issue #34 item 3): with DATABASE_REPLICA_URL the merchant list
 * endpoints and the console's lists, search, CSV exports and overview read from a streaming
 * standby while its replay lag is at most
 * REPLICA_MAX_LAG_MS, from the primary when it lags more or is down; the GET of one order always
 * reads the primary, and so do idempotent replays, sign-in and money decisions. Real servers from the PostgreSQL 15 binaries (test/support/pg-cluster.ts):
 * replay paused on the standby makes it lag.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db } from '../../src/store/db.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { type PgNode, pgBinariesMissing, removeAll, startPrimary, startStandby } from '../support/pg-cluster.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary, waitFor } from '../payout/helpers.js';
import { createOrder as createIntent, forceExpiry, intentBody, itemsOnceThere, paidOrder, sandboxPay } from '../refunds/helpers.js';

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
  ts = await startTestService({ ...FAST_PAYOUT_ENV, DATABASE_URL: url, DATABASE_REPLICA_URL: standby.url('tijori'), REPLICA_MAX_LAG_MS: '3600000' }, { database: { url, db, drop: () => db.close() } });
  client = await ts.createClient({});
  viewer = await signedInUser(ts, client.orgId, 'viewer@example.com', 'viewer');
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  assert.equal((await ts.admin('POST', `/orgs/${client.orgId}/settings`, { refund_review: 'none' })).status, 200);
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

const post = (path: string, key: string, body: unknown) => ts.api('POST', path, { client, idempotencyKey: key, body });
const consoleList = async (path: string) => {
  const r = await viewer.call('GET', path);
  assert.equal(r.status, 200, r.text);
  return JSON.stringify(r.body.data);
};

// Each step below reads back something written after replay stopped: read from the standby it would be missing.
test('with replay paused: one order or payout, an idempotent replay, a sign-in and money decisions read the primary; the audit log, events and review lists read the standby', { skip, timeout: 90_000 }, async () => {
  await standby.query('SELECT pg_wal_replay_pause()');
  try {
    await new Promise((r) => setTimeout(r, 1_200)); // past the lag check's cache: the standby counts as usable
    const orderKey = randomUUID();
    const orderBody = { amount_paise: 12_300, purpose: 'replica', merchant_order_reference: 'paused-primary' };
    const created = await post('/merchant/payment-orders', orderKey, orderBody);
    assert.equal(created.status, 201, created.text);
    const one = await ts.api('GET', `/merchant/payment-orders/${created.body.data.order_id}`, { client });
    assert.equal(one.status, 200, 'the GET of one order found it: the primary');
    const again = await post('/merchant/payment-orders', orderKey, orderBody);
    assert.equal(again.body.data.id, created.body.data.id, 'the replay answered the first create, not a second one');
    const n = await ts.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_orders WHERE merchant_order_reference = 'paused-primary'`);
    assert.equal(n.rows[0]!.n, 1);

    const payoutKey = randomUUID();
    const payoutBody = { beneficiary: inlineBeneficiary(), amount_paise: 5_000, mode: 'IMPS', client_reference: 'paused-payout' };
    const payout = await post('/merchant/payouts', payoutKey, payoutBody);
    assert.ok([200, 201, 202].includes(payout.status), payout.text);
    const payoutAgain = await post('/merchant/payouts', payoutKey, payoutBody);
    assert.equal(payoutAgain.body.data.id, payout.body.data.id, 'the payout replay answered the first create');
    // The payout's execution (a money decision on a row the standby lacks) ends it SUCCESS; its GET reads the primary.
    const done = await waitFor('the paused-time payout to succeed', async () => {
      const r = await ts.api('GET', `/merchant/payouts/${payout.body.data.id}`, { client });
      assert.equal(r.status, 200, r.text);
      return r.body.data.status === 'SUCCESS' ? r.body.data : undefined;
    });
    assert.equal(done.client_reference, 'paused-payout');

    // A refund of an order created and paid after the pause: the refund decision reads the order on the primary.
    const paid = await paidOrder(ts, client, 20_000);
    const refund = await post(`/merchant/payment-orders/${paid.order_id}/refunds`, randomUUID(), { amount_paise: 1_000, reason: 'paused refund' });
    assert.equal(refund.status, 201, refund.text);

    // A user created after the pause sets a password and signs in again.
    const late = await signedInUser(ts, client.orgId, 'late@example.com', 'viewer');
    const fresh = consoleCaller(ts);
    const signIn = await fresh.call('POST', '/session', { email: 'late@example.com', password: GOOD_PASSWORD });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal((await fresh.call('GET', '/session')).status, 200);

    // A late payment of an expired order: an operations review item, written since the pause.
    const expired = await createIntent(ts, client, intentBody({ amount_paise: 7_700 }));
    assert.equal(await forceExpiry(ts, expired.id), 'expired');
    await sandboxPay(ts, expired.order_id, { callback: true });
    const [item] = await itemsOnceThere(ts, expired.id);
    assert.ok(!(await consoleList('/review-items?limit=200')).includes(item!.id), 'review list: from the standby');

    // The console's audit log and events lists come from the standby: it has not replayed what was written since the pause.
    assert.ok(!(await consoleList('/events?limit=200')).includes(paid.id), 'events list (the order paid since the pause): from the standby');
    assert.ok(!(await consoleList('/audit-log?limit=200')).includes(late.userId), 'audit log: from the standby');
    await standby.query('SELECT pg_wal_replay_resume()');
    await new Promise((r) => setTimeout(r, 1_500));
    assert.ok((await consoleList('/events?limit=200')).includes(paid.id), 'events list: replayed');
    assert.ok((await consoleList('/audit-log?limit=200')).includes(late.userId), 'audit log: replayed');
    assert.ok((await consoleList('/review-items?limit=200')).includes(item!.id), 'review list: replayed');
  } finally {
    await standby.query('SELECT pg_wal_replay_resume()');
  }
});

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
