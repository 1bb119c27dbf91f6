/**
 * PgBouncer in transaction pooling mode in front of PostgreSQL (contract §10, issue #34 item 2):
 * the service runs with DATABASE_URL → PgBouncer (a server pool of 2 for its 6 connections, so
 * every server connection serves transactions of many clients) and DATABASE_DIRECT_URL →
 * PostgreSQL. The main flows work through it: an order created, paid and its collection callback
 * delivered; a payout executed and its callback delivered; a refund completed. Nothing is logged
 * as an error (a named prepared statement run on a server connection that does not have it is
 * "prepared statement ... does not exist"), and the LISTEN session is a direct one.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { type PgBouncer, pgbouncerMissing, startPgBouncer } from '../support/pgbouncer.js';
import { eventually, setDestination, startTrustedReceiver, type TrustedReceiver } from '../callbacks/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';

const skip = pgbouncerMissing();
let database: TestDatabase;
let bouncer: PgBouncer;
let r: TrustedReceiver;
let ts: TestService;
let client: TestClient;

before(async () => {
  if (skip) return;
  database = await createTestDatabase();
  const u = new URL(database.url);
  bouncer = await startPgBouncer({ host: u.hostname, port: Number(u.port || 5432) }, { poolSize: 2 });
  r = await startTrustedReceiver();
  ts = await startTestService(
    { ...r.env, ...FAST_PAYOUT_ENV, DATABASE_URL: bouncer.via(database.url), DATABASE_DIRECT_URL: database.url, DB_POOL_SIZE: '6' },
    { database },
  );
  client = await ts.createClient({});
  r.secrets['/payin'] = (await setDestination(ts, client.orgId, 'payin', r.rx.url('/payin'))).body.data.signing_secret;
  r.secrets['/payout'] = (await setDestination(ts, client.orgId, 'payout', r.rx.url('/payout'))).body.data.signing_secret;
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  assert.equal((await ts.admin('POST', `/orgs/${client.orgId}/settings`, { refund_review: 'none' })).status, 200);
});
after(async () => {
  await ts?.stop();
  await r?.close();
  await bouncer?.stop();
  await database?.drop();
});

const delivered = (path: string, kind: string, id: string) =>
  r.rx.received.some((q) => {
    if (q.path !== path) return false;
    const body = JSON.parse(q.rawBody.toString('utf8'));
    return body.event === kind && JSON.stringify(body.data).includes(id);
  });

test('through PgBouncer (transaction mode): order → paid → callback, payout → executed → callback, refund → completed', { skip, timeout: 120_000 }, async () => {
  const dbName = new URL(database.url).pathname.slice(1);
  const before = await bouncer.stats(dbName);
  // Several at once, so transactions of different client connections share the 2 server connections.
  const orders = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const res = await ts.api('POST', '/merchant/payment-orders', {
        client,
        idempotencyKey: randomUUID(),
        body: { amount_paise: 100_000 + i, purpose: `pooled ${i}`, response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.com', customer_phone: '9876543210', customer_consent: true },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.data;
    }),
  );
  for (const o of orders) assert.equal((await ts.admin('POST', `/sandbox/payment-orders/${o.order_id}/pay`, { callback: true })).status, 200);
  for (const o of orders) {
    await eventually(async () => (await ts.api('GET', `/merchant/payment-orders/${o.order_id}`, { client })).body.data?.status === 'PAID' || undefined, 15_000, `order ${o.order_id} PAID`);
    await eventually(async () => delivered('/payin', 'collection.received', o.order_id) || undefined, 15_000, `collection.received of ${o.order_id} delivered`);
  }

  const payouts = await Promise.all(
    Array.from({ length: 4 }, async (_, i) => {
      const res = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(20_000 + i, { client_reference: `pooled-${i}` }) });
      assert.equal(res.status, 201, res.text);
      return res.body.data;
    }),
  );
  for (const p of payouts) {
    await eventually(async () => (await ts.api('GET', `/merchant/payouts/${p.id}`, { client })).body.data?.status === 'SUCCESS' || undefined, 20_000, `payout ${p.id} SUCCESS`);
    await eventually(async () => delivered('/payout', 'payout.success', p.transaction_id ?? p.id) || undefined, 15_000, `payout.success of ${p.id} delivered`);
  }

  const refund = await ts.api('POST', `/merchant/payment-orders/${orders[0].order_id}/refunds`, { client, idempotencyKey: randomUUID(), body: { amount_paise: 5_000, reason: 'pooled refund' } });
  assert.equal(refund.status, 201, refund.text);
  await eventually(async () => (await ts.api('GET', `/merchant/refunds/${refund.body.data.refund_id}`, { client })).body.data?.status === 'COMPLETED' || undefined, 20_000, 'refund COMPLETED');

  // It all went through PgBouncer ...
  const afterStats = await bouncer.stats(dbName);
  assert.ok(afterStats.xacts - before.xacts > 50, `transactions through PgBouncer: ${afterStats.xacts - before.xacts}`);
  // ... except the LISTEN session, which is a direct one (a LISTEN through transaction pooling hears nothing).
  const pooledPorts = new Set(await bouncer.serverPorts());
  const listeners = await database.db.query<{ client_port: number }>(`SELECT client_port FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'`, [dbName]);
  assert.ok(listeners.rows.length > 0, 'a LISTEN session');
  for (const l of listeners.rows) assert.ok(!pooledPorts.has(l.client_port), 'the LISTEN session does not go through PgBouncer');
  // Nothing failed on the way: no error logged (e.g. "prepared statement ... does not exist").
  assert.deepEqual(ts.logs.filter((l) => /"level":"(error|fatal)"/.test(l) || /prepared statement/.test(l)).slice(0, 3), []);
});
