/**
 * PostgreSQL "restarted" under load (issue 8 §3): a TCP proxy in front of the real PostgreSQL is
 * cut (every connection dropped, new ones refused) and restored while a mixed load runs (orders,
 * payouts, retrievals). While it is down the service answers 503 SERVICE_UNAVAILABLE in the
 * envelope; every request answers within a bound (no hung request); after the restore it recovers
 * without a restart; every create that got a 2xx is in the database, and every create that got a
 * 503 succeeds when retried with the same key, exactly once. Payouts are executed at most once.
 * Short: one 3 s outage; full: three 5 s outages.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { FULL, report, size, sleep, until } from './helpers.js';
import { ledgerViolations } from './ledger-check.js';

const OUTAGES = size('FAULTS_DB_OUTAGES', 1, 3);
const OUTAGE_MS = FULL ? 5_000 : 3_000;
const WORKERS = 6;
/** No request may take longer than this, outage or not. */
const BOUND_MS = 10_000;

let database: TestDatabase;
let proxy: TcpProxy;
let ts: TestService;
let client: TestClient;

before(async () => {
  database = await createTestDatabase();
  const u = new URL(database.url);
  proxy = await startTcpProxy(u.hostname, Number(u.port || 5432));
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  ts = await startTestService({ ...FAST_PAYOUT_ENV, DATABASE_URL: u.toString() }, { database: { ...database, drop: async () => {} } });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
});
after(async () => {
  proxy?.restore();
  await ts?.stop();
  await proxy?.close();
  await database?.drop();
});

interface Create {
  path: string;
  body: Record<string, unknown>;
  key: string;
  status: number;
  id?: string;
}

test('database cut under load: 503s while down, no hung request, full recovery, nothing lost or doubled', { timeout: 300_000 }, async () => {
  const started = Date.now();
  const creates: Create[] = [];
  const statuses = new Map<string, number>();
  const violations: string[] = [];
  let maxLatency = 0;
  let operations = 0;
  let stop = false;
  let n = 0;

  const one = async (w: number) => {
    const i = n++;
    const kind = i % 4;
    const t0 = Date.now();
    let res;
    if (kind === 0 || kind === 1) {
      const isPayout = kind === 1;
      const c: Create = isPayout
        ? { path: '/merchant/payouts', body: { beneficiary: inlineBeneficiary(), amount_paise: 10_000 + i * 100, mode: 'IMPS', client_reference: `db-${i}` }, key: randomUUID(), status: 0 }
        : { path: '/merchant/payment-orders', body: { amount_paise: 10_000 + i, purpose: 'db outage', merchant_order_reference: `db-${i}` }, key: randomUUID(), status: 0 };
      res = await ts.api('POST', c.path, { client, body: c.body, idempotencyKey: c.key, headers: {} }).catch(() => undefined);
      c.status = res?.status ?? 0;
      c.id = res?.body?.data?.id;
      creates.push(c);
    } else {
      const done = creates.filter((c) => c.id && c.path.includes(kind === 2 ? 'payment' : 'payouts'));
      const target = done[(i * 7 + w) % Math.max(1, done.length)];
      res = await ts.api('GET', target ? `${target.path}/${target.id}` : '/merchant/payment-orders/none', { client }).catch(() => undefined);
    }
    const ms = Date.now() - t0;
    maxLatency = Math.max(maxLatency, ms);
    operations++;
    const status = res?.status ?? 0;
    statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
    if (ms > BOUND_MS) violations.push(`a request took ${ms} ms`);
    if (status === 0 || status >= 500 && status !== 503) violations.push(`answer ${status}: ${res?.text?.slice(0, 200)}`);
    if (status === 503 && (res?.body?.error?.code !== 'SERVICE_UNAVAILABLE' || typeof res?.body?.request_id !== 'string')) violations.push(`503 outside the envelope: ${res?.text?.slice(0, 200)}`);
  };
  const workers = Array.from({ length: WORKERS }, async (_, w) => {
    while (!stop) await one(w);
  });

  let outageMs = 0;
  let recoveryMs = 0;
  for (let k = 0; k < OUTAGES; k++) {
    await sleep(1_500);
    proxy.cut();
    const cutAt = Date.now();
    await sleep(OUTAGE_MS);
    proxy.restore();
    outageMs += Date.now() - cutAt;
    // Recovery without a restart: a fresh read succeeds within a few seconds.
    const restoredAt = Date.now();
    await until('recovery after the outage', async () => (await ts.api('GET', '/merchant/payment-orders/none', { client })).status === 404, 15_000, 100);
    recoveryMs = Math.max(recoveryMs, Date.now() - restoredAt);
  }
  await sleep(1_000);
  stop = true;
  await Promise.all(workers);

  // Every 2xx create is there; every uncertain one (503) succeeds when retried with the same key.
  let retried = 0;
  for (const c of creates) {
    if (c.status !== 201) {
      retried++;
      const again = await ts.api('POST', c.path, { client, body: c.body, idempotencyKey: c.key });
      if (again.status !== 201) violations.push(`retry of a ${c.status} create → ${again.status} ${again.text.slice(0, 200)}`);
      c.id = again.body?.data?.id;
    }
  }
  const orders = creates.filter((c) => c.path.includes('payment'));
  const payouts = creates.filter((c) => c.path.includes('payouts'));
  const rowsO = await database.db.query<{ merchant_order_reference: string; id: string }>('SELECT id, merchant_order_reference FROM payment_orders');
  const rowsP = await database.db.query<{ client_reference: string; id: string; transaction_id: string }>('SELECT id, client_reference, transaction_id FROM payouts');
  if (rowsO.rowCount !== orders.length) violations.push(`${rowsO.rowCount} orders for ${orders.length} keys`);
  if (rowsP.rowCount !== payouts.length) violations.push(`${rowsP.rowCount} payouts for ${payouts.length} keys`);
  const byRef = new Map(rowsO.rows.map((r) => [r.merchant_order_reference, r.id]));
  for (const c of orders) if (byRef.get(String(c.body.merchant_order_reference)) !== c.id) violations.push(`order ${String(c.body.merchant_order_reference)} not the one answered`);
  // Every payout ends SUCCESS, executed exactly once at the bank.
  await until('every payout to finish', async () => {
    const r = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'PROCESSING'`);
    return r.rows[0]!.n === 0;
  }, 60_000, 250);
  const execs = await database.db.query<{ transaction_id: string; status: string; n: number }>(
    `SELECT p.transaction_id, p.status, (SELECT count(*)::int FROM sandbox_bank_ledger l WHERE l.reference = p.transaction_id) AS n FROM payouts p`,
  );
  for (const e of execs.rows) if (e.status !== 'SUCCESS' || e.n !== 1) violations.push(`payout ${e.transaction_id}: ${e.status}, ${e.n} executions`);

  const ledger = await ledgerViolations(database.db);
  violations.push(...ledger.violations);
  report('db-outage', {
    outages: OUTAGES, outage_ms: outageMs, operations, creates: creates.length, retried_after_5xx: retried, statuses: Object.fromEntries(statuses),
    max_latency_ms: maxLatency, bound_ms: BOUND_MS, max_recovery_ms: recoveryMs, ledger_entries: ledger.entries, violations: violations.length, ms: Date.now() - started,
  });
  assert.deepEqual(violations.slice(0, 20), []);
  assert.ok((statuses.get('503') ?? 0) > 0, 'the outage was seen');
});

test('a connection that dies while checked out (between two queries of a transaction) is no uncaught exception', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    for (const hold of ['tx', 'withClient'] as const) {
      const run = async (q: { query(t: string): Promise<unknown> }) => {
        await q.query('SELECT 1');
        proxy.cut();
        await sleep(300); // the socket dies while the client is checked out and idle
        await q.query('SELECT 1');
      };
      const attempt = hold === 'tx' ? ts.svc.ctx.db.tx(run) : ts.svc.ctx.db.withClient(run);
      await assert.rejects(attempt, (err: any) => err?.code === 'SERVICE_UNAVAILABLE' || /terminated|ECONNRESET|not queryable/i.test(String(err?.message)));
      proxy.restore();
      await until('the pool to reconnect', async () => ts.svc.ctx.db.ping(), 10_000);
    }
    await sleep(200);
    assert.deepEqual(uncaught.map(String), []);
  } finally {
    proxy.restore();
    process.off('uncaughtException', onUncaught);
  }
});
