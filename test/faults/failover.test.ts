/**
 * Failover under load (contract §10, issue #34 item 1), on real PostgreSQL 15 servers this test
 * starts: a primary, a synchronous standby (A) and, with FAULTS_FULL=1, an asynchronous one (B); a
 * TCP proxy in this process stands for the operator's virtual address, and the service only knows
 * the proxy.
 *
 * Under order, payout and refund creates: kill -9 the primary, promote A, move the address to A:
 * creates are answered again, without a restart of the service. Then the address leads to a
 * read-only node for a moment (the old primary, rewound and back as a standby of A; also B, a
 * standby nobody promoted, in the full run): `/readyz` answers 503, every write 503
 * SERVICE_UNAVAILABLE with Retry-After (never 500) and nothing is logged as an error with a stack;
 * back to A: 200. At the end every create acknowledged with 201 is there once, every create
 * answered otherwise succeeds when retried with its key, and every payout was executed at most once.
 * Short in `npm test`; longer load phases with FAULTS_FULL=1 (`npm run test:faults`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db } from '../../src/store/db.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { type PgNode, pgBinariesMissing, promote, removeAll, rewindAsStandby, startPrimary, startStandby, waitForSync } from '../support/pg-cluster.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { paidOrder } from '../refunds/helpers.js';
import { FULL, report, sleep, until } from './helpers.js';

const skip = pgBinariesMissing();
const LOAD_MS = FULL ? 8_000 : 1_500;
const WORKERS = 4;

let primary: PgNode;
let standbyA: PgNode;
let standbyB: PgNode;
let proxy: TcpProxy;
let ts: TestService;
let client: TestClient;
let db: Db;
const paid: Array<{ order_id: string }> = [];

before(async () => {
  if (skip) return;
  primary = await startPrimary('primary', 'standby_a');
  standbyA = await startStandby('standby_a', primary);
  if (FULL) standbyB = await startStandby('standby_b', primary);
  await waitForSync(primary, 'standby_a');
  await primary.query('CREATE DATABASE tijori');
  proxy = await startTcpProxy('127.0.0.1', primary.port);
  const url = `postgres://postgres@127.0.0.1:${proxy.port}/tijori`;
  db = new Db({ url, poolSize: 2 });
  ts = await startTestService({ ...FAST_PAYOUT_ENV, DATABASE_URL: url, DB_POOL_SIZE: '6' }, { database: { url, db, drop: async () => {} } });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  assert.equal((await ts.admin('POST', `/orgs/${client.orgId}/settings`, { refund_review: 'none' })).status, 200);
  for (let i = 0; i < 3; i++) paid.push(await paidOrder(ts, client, 10_000_000));
}, { timeout: 120_000 });

after(async () => {
  await ts?.stop().catch(() => undefined);
  await db?.close().catch(() => undefined);
  await proxy?.close();
  await removeAll();
});

interface Create {
  kind: 'order' | 'payout' | 'refund';
  path: string;
  body: Record<string, unknown>;
  key: string;
  status: number;
  id?: string;
}

const readyz = async () => (await fetch(`${ts.svc.publicUrl}/readyz`)).status;

test('kill -9 of the primary, promotion, a read-only node behind the address: 503 not 500, nothing lost or paid twice', { skip, timeout: 300_000 }, async () => {
  const started = Date.now();
  const creates: Create[] = [];
  const statuses = new Map<number, number>();
  const violations: string[] = [];
  let stop = false;
  let n = 0;

  const body = (kind: Create['kind'], i: number): { path: string; body: Record<string, unknown> } => {
    if (kind === 'order') return { path: '/merchant/payment-orders', body: { amount_paise: 10_000 + i, purpose: 'failover', merchant_order_reference: `fo-${i}` } };
    // Whole rupees: the sandbox bank reads the last two digits of the paise as magic (77: pending for 10 minutes).
    if (kind === 'payout') return { path: '/merchant/payouts', body: { beneficiary: inlineBeneficiary(), amount_paise: 10_000 + i * 100, mode: 'IMPS', client_reference: `fo-${i}` } };
    return { path: `/merchant/payment-orders/${paid[i % paid.length]!.order_id}/refunds`, body: { amount_paise: 100, reason: `failover ${i}` } };
  };
  const one = async () => {
    const i = n++;
    const kind = (['order', 'payout', 'refund'] as const)[i % 3]!;
    const c: Create = { kind, ...body(kind, i), key: randomUUID(), status: 0 };
    const res = await ts.api('POST', c.path, { client, body: c.body, idempotencyKey: c.key }).catch((err: Error) => ({ status: 0, text: err.message, body: undefined, headers: new Headers() }));
    c.status = res.status;
    c.id = res.body?.data?.id;
    creates.push(c);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status !== 201 && res.status !== 503) violations.push(`${kind} create answered ${res.status}: ${res.text.slice(0, 200)}`);
    if (res.status === 503 && (res.body?.error?.code !== 'SERVICE_UNAVAILABLE' || !/^\d+$/.test(res.headers.get('retry-after') ?? ''))) violations.push(`503 without the envelope or Retry-After: ${res.text.slice(0, 200)}`);
    if (res.status === 503) await sleep(50);
  };
  const workers = Array.from({ length: WORKERS }, async () => {
    while (!stop) await one();
  });

  // 1. Load on the primary, then it dies; A is promoted and the address moves to it.
  await sleep(LOAD_MS);
  const before201 = creates.filter((c) => c.status === 201).length;
  assert.ok(before201 > 0, 'creates succeeded before the failover');
  primary.kill9();
  const killedAt = Date.now();
  await sleep(300);
  await promote(standbyA);
  proxy.retarget(standbyA.port);
  const movedAt = Date.now();
  const firstAfter = creates.length;
  await until('a create answered 201 after the promotion', async () => creates.slice(firstAfter).some((c) => c.status === 201), 15_000, 50);
  const answeredAgainMs = Date.now() - movedAt;
  await sleep(LOAD_MS);

  // 2. The address leads to a read-only node for a moment: not ready, writes refused with 503;
  // then back to the new primary: ready again, creates answered. The old primary comes back as a
  // standby (pg_rewind); with FAULTS_FULL=1 the standby nobody promoted takes a turn first.
  const oldPrimary = await rewindAsStandby(primary, standbyA);
  const readOnlyNodes = FULL ? [standbyB, oldPrimary] : [oldPrimary];
  let readOnly503 = 0;
  for (const node of readOnlyNodes) {
    const logMark = ts.logs.length;
    const roFrom = creates.length;
    proxy.retarget(node.port);
    await until(`/readyz to answer 503 with ${node.name} behind the address`, async () => (await readyz()) === 503, 10_000, 50);
    await sleep(LOAD_MS / 2);
    for (const kind of ['order', 'payout', 'refund'] as const) {
      const b = body(kind, n++);
      const r = await ts.api('POST', b.path, { client, body: b.body, idempotencyKey: randomUUID() });
      assert.equal(r.status, 503, `${kind} create on ${node.name}: ${r.text}`);
      assert.equal(r.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    }
    assert.equal(await readyz(), 503, `still not ready while only ${node.name} is reachable`);
    const roCreates = creates.slice(roFrom);
    const roLogs = ts.logs.slice(logMark);

    proxy.retarget(standbyA.port);
    await until('/readyz to answer 200 again', async () => (await readyz()) === 200, 10_000, 50);
    const backFrom = creates.length;
    await until('a create answered 201 once the primary is back', async () => creates.slice(backFrom).some((c) => c.status === 201), 10_000, 50);

    assert.ok(roCreates.some((c) => c.status === 503), `the load met ${node.name}`);
    assert.deepEqual(roCreates.filter((c) => c.status >= 500 && c.status !== 503).map((c) => c.status), []);
    const stacks = roLogs.filter((l) => /"level":"(error|fatal)"/.test(l) && /"stack"/.test(l));
    assert.deepEqual(stacks.slice(0, 3), [], `no error-level stack while ${node.name} was behind the address`);
    assert.ok(roLogs.some((l) => /in a read-only transaction/.test(l)), 'the refused writes were logged (at warn)');
    readOnly503 += roCreates.filter((c) => c.status === 503).length;
  }
  await sleep(LOAD_MS / 2);
  stop = true;
  await Promise.all(workers);

  // Nothing acknowledged lost: every create is retried with its key (201s must answer the same id).
  // A leased create (a refund) whose write failed keeps its key in progress until its lease ends
  // (30 s): its retry is answered 409 IDEMPOTENCY_KEY_IN_PROGRESS until then, and retried again.
  let retried = 0;
  let pending = creates.slice();
  const retryUntil = Date.now() + 45_000;
  while (pending.length > 0) {
    const inProgress: Create[] = [];
    for (const c of pending) {
      const again = await ts.api('POST', c.path, { client, body: c.body, idempotencyKey: c.key });
      if (again.status === 409 && again.body?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS' && Date.now() < retryUntil) inProgress.push(c);
      else if (again.status !== 201) violations.push(`retry of a ${c.status} ${c.kind} create → ${again.status} ${again.text.slice(0, 200)}`);
      else if (c.status === 201 && again.body.data.id !== c.id) violations.push(`${c.kind} ${c.id} acknowledged, then another one answered: ${again.body.data.id}`);
    }
    pending = inProgress;
    if (pending.length > 0) await sleep(1_000);
  }
  retried = creates.filter((c) => c.status !== 201).length;
  const count = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]!.n;
  const orders = creates.filter((c) => c.kind === 'order').length;
  const payouts = creates.filter((c) => c.kind === 'payout').length;
  const refunds = creates.filter((c) => c.kind === 'refund').length;
  const ordersRows = await count(`SELECT count(*)::int AS n FROM payment_orders WHERE merchant_order_reference LIKE 'fo-%'`);
  if (ordersRows !== orders) violations.push(`${ordersRows} orders for ${orders} keys`);
  const payoutsRows = await count(`SELECT count(*)::int AS n FROM payouts WHERE client_reference LIKE 'fo-%'`);
  if (payoutsRows !== payouts) violations.push(`${payoutsRows} payouts for ${payouts} keys`);
  const refundsRows = await count(`SELECT count(*)::int AS n FROM refunds WHERE reason LIKE 'failover %'`);
  if (refundsRows !== refunds) violations.push(`${refundsRows} refunds for ${refunds} keys`);
  // Nothing paid twice: every payout ends, executed by the bank at most once (exactly once when SUCCESS).
  const finished = await until('every payout to finish', async () => (await count(`SELECT count(*)::int AS n FROM payouts WHERE status = 'PROCESSING'`)) === 0, 60_000, 250).catch(() => false);
  if (!finished) {
    const stuck = await db.query(`SELECT p.transaction_id, p.created_at, a.*, now() AS now, (SELECT row_to_json(t) FROM sandbox_bank_transfers t WHERE t.reference = p.transaction_id LIMIT 1) AS bank FROM payouts p JOIN payout_attempts a ON a.payout_id = p.id WHERE p.status = 'PROCESSING' LIMIT 3`);
    violations.push(`payouts left PROCESSING, e.g. ${JSON.stringify(stuck.rows[0])}`);
  }
  const execs = await db.query<{ transaction_id: string; status: string; n: number }>(
    `SELECT p.transaction_id, p.status, (SELECT count(*)::int FROM sandbox_bank_ledger l WHERE l.reference = p.transaction_id) AS n FROM payouts p`,
  );
  for (const e of execs.rows) if (e.n > 1 || (e.status === 'SUCCESS') !== (e.n === 1)) violations.push(`payout ${e.transaction_id}: ${e.status}, ${e.n} executions`);

  report('failover', {
    creates: creates.length, acknowledged: creates.filter((c) => c.status === 201).length, retried_after_5xx: retried, statuses: Object.fromEntries(statuses),
    outage_ms: movedAt - killedAt, answered_again_ms: answeredAgainMs, read_only_503: readOnly503, violations: violations.length, ms: Date.now() - started,
  });
  assert.deepEqual(violations.slice(0, 20), []);
});
