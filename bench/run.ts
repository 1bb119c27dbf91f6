/**
 * `npm run bench`: Tijori against the floor (bench/floor-server.ts) on a real PostgreSQL, driven by
 * autocannon from a separate process (bench/load.ts), alternately (A B A B, medians), plus
 * Tijori-only scenarios. BENCH_SMOKE=1: one short round of each, for CI.
 *
 * Every target gets a warm-up run first (JIT, pools, caches); the service's peak RSS is reset
 * before and read after each scenario. The service logs at info (its one line per request is part
 * of the cost), to a pipe, as it would in production.
 *
 * env: BENCH_DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/test),
 *      BENCH_SECONDS (default 10), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS (default 32),
 *      BENCH_SEED_ROWS (default 1,000,000 existing orders for the table-size scenario; 0 skips it),
 *      BENCH_LIST_ROWS (payment orders seeded for the lists scenario, default 10,000,000; 20,000 in smoke; 0 skips it),
 *      BENCH_LIST_PAYOUTS (payouts seeded with them; default a fifth of BENCH_LIST_ROWS),
 *      BENCH_EXPORT_ROWS (rows of the console CSV export measured there; default 1,000,000),
 *      BENCH_LIST_CONNECTIONS (autocannon connections of the lists scenario; default 4, see docs/performance.md),
 *      BENCH_LISTS_DB (a database kept by an earlier lists run with BENCH_KEEP_DB=1: measured again without seeding),
 *      BENCH_SETTLEMENT_LINES (lines of the settlement imported by the settlements-1m scenario; default 1,000,000;
 *        10,000 in smoke; 0 skips it),
 *      BENCH_LEDGER_ENTRIES (journal entries seeded for ledger-verify-10m; default 10,000,000; 100,000 in smoke; 0 skips it),
 *      BENCH_LEDGER_ORDERS (orders per round of the ledger's cost A/B, ledger-ab; default 2,000; 200 in smoke; 0 skips it),
 *      BENCH_ONLY (comma-separated scenarios: create,get,intent,payout,list,callbacks,lists-10m,settlements-1m,ledger-ab,ledger-verify-10m; callbacks:NAME for
 *        one callback scenario: callbacks:psp, callbacks:psp-paced, callbacks:sandbox,
 *        callbacks:outbox-steady, callbacks:outbox-burst),
 *      BENCH_CALLBACKS (orders confirmed per round of the callback scenario; default 3,000),
 *      BENCH_CALLBACK_RATE (confirmations/s of its paced variant; default 1,000, the target; 100 in smoke),
 *      BENCH_KEEP_DB=1 (leave the run's database for inspection),
 *      BENCH_OUTBOX_WRITERS (concurrent one-event transactions of the steady outbox run; default 16),
 *      BENCH_SERVICE_FLAGS (Node.js flags of the service instead of npm start's, space-separated),
 *      BENCH_CPU_PROF=DIR (the service writes a V8 CPU profile there when it stops).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sandboxSigningSecret as signingSecretFor } from '../src/sandbox/signing.js';
import { callbackScenarios } from './callbacks-suite.js';
import type { LoadResult, LoadSpec } from './load.js';
import { ledgerAbFailures, type LedgerAbResult, ledgerAbScenario } from './ledger-ab.js';
import { verifyScaleFailures, type VerifyScaleResult, verifyScaleScenario } from './ledger-verify-scale.js';
import { listsScenario } from './lists-scenario.js';
import { failuresOf, printTable } from './report.js';
import { seedOrders } from './seed.js';
import { settlementFailures, type SettlementScaleResult, settlementScaleScenario } from './settlement-scenario.js';
import { backendCpuMs, cpuMs, freshDatabase, median, peakRssMb, resetPeakRss, SERVICE_NODE_FLAGS, type Spawned, spawnNode, vacuumAnalyze } from './support.js';

const run = promisify(execFile);
const smoke = process.env.BENCH_SMOKE === '1';
const seconds = smoke ? 2 : Number(process.env.BENCH_SECONDS ?? 10);
const rounds = smoke ? 1 : Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
/**
 * The lists are measured at fewer connections than the writes: on a 2-core machine 4 connections
 * already reach the service's full list throughput, and more only queue (docs/performance.md).
 */
const listConnections = Number(process.env.BENCH_LIST_CONNECTIONS ?? 4);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seedRows = smoke ? 0 : Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);
const callbackOrders = smoke ? 200 : Number(process.env.BENCH_CALLBACKS ?? 3_000);
const callbackRate = Number(process.env.BENCH_CALLBACK_RATE ?? (smoke ? 100 : 1_000));
const warmupSeconds = smoke ? 1 : 3;
/** The lists scenario's table (bench/lists-scenario.ts): small in smoke so that CI stays quick. */
const listRows = smoke ? 20_000 : Number(process.env.BENCH_LIST_ROWS ?? 10_000_000);
const listPayouts = smoke ? 4_000 : Number(process.env.BENCH_LIST_PAYOUTS ?? Math.round(listRows / 5));
const exportRows = smoke ? listRows : Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const settlementLines = smoke ? 10_000 : Number(process.env.BENCH_SETTLEMENT_LINES ?? 1_000_000);
const ledgerEntries = smoke ? 100_000 : Number(process.env.BENCH_LEDGER_ENTRIES ?? 10_000_000);
const ledgerOrders = smoke ? 200 : Number(process.env.BENCH_LEDGER_ORDERS ?? 2_000);
/** BENCH_ONLY=create,get,intent,payout,list,callbacks,lists-10m runs only those scenarios (while working on one). */
const only = process.env.BENCH_ONLY?.split(',');
const wanted = (scenario: string) => !only || only.includes(scenario) || only.some((o) => o.startsWith(`${scenario}:`));
/** The callback scenarios named as callbacks:NAME in BENCH_ONLY; undefined = all of them. */
const callbackOnly = only?.filter((o) => o.startsWith('callbacks:')).map((o) => o.slice('callbacks:'.length));

async function load(spec: LoadSpec): Promise<LoadResult> {
  let arg = JSON.stringify(spec);
  if (arg.length > 64_000) {
    const file = join(mkdtempSync(join(tmpdir(), 'tijori-load-')), 'spec.json');
    writeFileSync(file, arg);
    arg = `@${file}`;
  }
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', arg], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as LoadResult;
}

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

interface Target {
  name: string;
  /** Its process, and the application_name of its database connections: for CPU per request. */
  pid: number | undefined;
  app: string;
  /** The database its backends use (the run's database unless set). */
  db?: string;
  orgId?: string;
  base: string;
  headers: Record<string, string>;
  orderPaths: string[];
}

async function tijoriTarget(svc: Spawned, adminToken: string): Promise<Target> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const org = await json(`${svc.line.internal}/admin/orgs`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench Org' }) });
  const c = await json(`${svc.line.internal}/admin/clients`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ org: org.data.id, scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], rate_limit: 1_000_000 }),
  });
  await json(`${svc.line.internal}/admin/routes`, { method: 'POST', headers: admin, body: JSON.stringify({ org: org.data.id, modes: ['IMPS', 'NEFT', 'RTGS'] }) }).catch(() => undefined);
  return { name: 'tijori', pid: svc.child.pid, app: 'tijori', orgId: org.data.id, base: svc.line.public as string, headers: { 'x-service-client-id': c.data.client_id, authorization: `Bearer ${c.data.client_secret}` }, orderPaths: [] };
}

async function floorTarget(floor: Spawned): Promise<Target> {
  const c = await json(`${floor.line.url}/admin/clients`, { method: 'POST' });
  return { name: 'floor', pid: floor.child.pid, app: 'floor', base: floor.line.url as string, headers: { 'x-service-client-id': c.client_id, authorization: `Bearer ${c.client_secret}` }, orderPaths: [] };
}

const CHECKOUT_BODY = { amount_paise: 49_900, purpose: 'Bench order', merchant_order_reference: 'bench-1' };
const INTENT_BODY = {
  amount_paise: 49_900,
  purpose: 'Bench intent',
  response_mode: 'INTENT',
  customer_name: 'Asha Rao',
  customer_email: 'asha@example.com',
  customer_phone: '9876543210',
  customer_consent: true,
};

async function createSome(t: Target, n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await json(`${t.base}/api/v1/merchant/payment-orders`, {
      method: 'POST',
      headers: { ...t.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(CHECKOUT_BODY),
    });
    paths.push(`/api/v1/merchant/payment-orders/${r.data.id}`);
  }
  return paths;
}

function createSpec(t: Target, body: Record<string, unknown>, path = '/api/v1/merchant/payment-orders'): LoadSpec {
  return { url: t.base, method: 'POST', paths: [path], headers: t.headers, body, connections, durationSeconds: seconds };
}

/**
 * The merchant lists (contract §7) as a client uses them: the newest page, a full page of 100, a
 * status no order has (the status index answers at once), a status the seeded orders have, a page
 * ending 15 days ago and the page after it (a cursor deep in the table), and the payouts list.
 */
async function listPaths(t: Target): Promise<string[]> {
  const orders = '/api/v1/merchant/payment-orders';
  const older = `${orders}?${new URLSearchParams({ created_to: new Date(Date.now() - 15 * 86_400_000).toISOString(), limit: '20' })}`;
  const page = await json(`${t.base}${older}`, { method: 'GET', headers: t.headers });
  const first = await json(`${t.base}${orders}?limit=20`, { method: 'GET', headers: t.headers });
  const cursor = (page.next_cursor ?? first.next_cursor) as string | null;
  return [orders, `${orders}?limit=100`, `${orders}?status=PAID`, `${orders}?status=EXPIRED`, older, ...(cursor ? [`${orders}?cursor=${cursor}`] : []), '/api/v1/merchant/payouts?limit=20'];
}

function getSpec(t: Target): LoadSpec {
  return { url: t.base, method: 'GET', paths: t.orderPaths, headers: t.headers, connections, durationSeconds: seconds };
}

let dbName = '';
let dbUrl = '';

interface Measured extends LoadResult {
  service_cpu_us: number;
  pg_cpu_us: number;
}

/**
 * One load run, with the CPU time per request of the target's process and of its PostgreSQL
 * backends: far less sensitive than req/s to whatever else runs on the machine.
 */
async function measure(t: Target, spec: LoadSpec): Promise<Measured> {
  const n0 = cpuMs(t.pid) ?? 0;
  const b0 = await backendCpuMs(adminUrl, t.db ?? dbName, t.app);
  const x = await load(spec);
  const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, x.requests));
  return { ...x, service_cpu_us: per((cpuMs(t.pid) ?? 0) - n0), pg_cpu_us: per((await backendCpuMs(adminUrl, t.db ?? dbName, t.app)) - b0) };
}

/** A B A B: alternates the two targets and keeps each one's runs. */
async function alternate(label: string, a: Target, b: Target, spec: (t: Target) => LoadSpec, rssPid = servicePid) {
  const runs: Record<string, Measured[]> = { [a.name]: [], [b.name]: [] };
  for (const t of [a, b]) await load({ ...spec(t), durationSeconds: warmupSeconds });
  resetPeakRss(rssPid);
  for (let r = 0; r < rounds; r++) {
    for (const t of [a, b]) {
      const res = await measure(t, spec(t));
      (runs[t.name] as Measured[]).push(res);
      console.error(
        `  ${label} ${t.name} round ${r + 1}: ${res.rps} req/s p99 ${res.p99} ms errors ${res.errors} non2xx ${res.non2xx}; CPU/request ${res.service_cpu_us} µs + PostgreSQL ${res.pg_cpu_us} µs`,
      );
    }
  }
  const sa = summary(runs[a.name] as Measured[]);
  const sb = summary(runs[b.name] as Measured[]);
  return { label, [a.name]: { ...sa, peak_rss_mb: peakRssMb(rssPid) }, [b.name]: sb, ratio: Math.round((sa.rps / sb.rps) * 100) / 100 };
}

let servicePid: number | undefined;

function summary(xs: Measured[]) {
  return {
    rps: median(xs.map((x) => x.rps)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    errors: xs.reduce((s, x) => s + x.errors + x.non2xx, 0),
    service_cpu_us: median(xs.map((x) => x.service_cpu_us)),
    pg_cpu_us: median(xs.map((x) => x.pg_cpu_us)),
  };
}

/** One Tijori-only scenario after a warm-up: median of `rounds` runs and the peak RSS. */
async function single(label: string, t: Target, spec: LoadSpec) {
  await load({ ...spec, durationSeconds: warmupSeconds });
  await vacuumAnalyze(dbUrl);
  resetPeakRss(servicePid);
  const xs: Measured[] = [];
  for (let r = 0; r < rounds; r++) {
    // Each round meets the tables as autovacuum would leave them, not the dead rows of the last.
    if (r > 0) await vacuumAnalyze(dbUrl);
    xs.push(await measure(t, spec));
  }
  console.error(`  ${label}: ${xs.map((x) => `${x.rps} req/s p99 ${x.p99} ms, CPU/request ${x.service_cpu_us} + ${x.pg_cpu_us} µs`).join('; ')}`);
  return { label, tijori: { ...summary(xs), peak_rss_mb: peakRssMb(servicePid) } };
}

async function pgbench(dbUrl: string): Promise<string | null> {
  try {
    await run('pgbench', ['--version']);
  } catch {
    return null;
  }
  const script = join(mkdtempSync(join(tmpdir(), 'pgb-')), 'two-inserts.sql');
  writeFileSync(
    script,
    `BEGIN;
INSERT INTO floor.orders (id, org_id, client_id, amount_paise, purpose, status, checkout_token) VALUES (gen_random_uuid(), gen_random_uuid(), 'pgbench', 49900, 'x', 'AWAITING_CUSTOMER', md5(random()::text || clock_timestamp()::text));
INSERT INTO floor.events (id, aggregate_id, kind, body) VALUES (gen_random_uuid(), gen_random_uuid(), 'order.created', '{}');
COMMIT;
`,
  );
  const { stdout } = await run('pgbench', ['-n', '-c', '16', '-j', '2', '-T', String(Math.max(2, Math.min(seconds, 10))), '-f', script, dbUrl]);
  const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
  const lat = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
  return `pgbench two inserts, 16 clients: ${tps} TPS, average latency ${lat} ms`;
}

const PAYOUT_BODY = {
  amount_paise: 150_000,
  mode: 'IMPS',
  beneficiary: { name: 'Ravi Kumar', account_number: '123456789012', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true },
};

async function main() {
  const db = await freshDatabase(adminUrl);
  dbName = db.name;
  dbUrl = db.url;
  const adminToken = 'bench-admin-token';
  const masterKey = randomBytes(32);
  console.error(`bench: database ${db.url.replace(/\/\/[^@]*@/, '//')}; ${seconds}s per run, ${rounds} round(s), ${connections} connections`);
  // The service trusts the receiver's certificate: the receiver starts first.
  const receiver = await spawnNode(['bench/callback-receiver.ts'], {});
  // The service as `npm start` runs it: compiled to dist/ first.
  await run(process.execPath, ['scripts/build.mjs']);
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const serviceEnv = (url: string, extra: Record<string, string> = {}) => ({
    ...extra,
    DATABASE_URL: url,
    PORT: '0',
    INTERNAL_PORT: '0',
    SANDBOX_PORT: '0',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-bench-')),
    ADMIN_TOKEN: adminToken,
    MASTER_KEY: masterKey.toString('base64'),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
    CALLBACK_EXTRA_CA_FILE: receiver.line.ca_file as string,
  });
  const svc = await spawnNode([...SERVICE_NODE_FLAGS, ...prof, 'dist/main.js'], serviceEnv(db.url));
  servicePid = svc.child.pid;
  const floor = await spawnNode([...prof, 'bench/floor-server.ts'], { DATABASE_URL: db.url, PORT: '0' });
  const results: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length }, seconds, rounds, connections, seed_rows: seedRows };
  try {
    const tijori = await tijoriTarget(svc, adminToken);
    const fl = await floorTarget(floor);
    tijori.orderPaths = await createSome(tijori, 200);
    fl.orderPaths = await createSome(fl, 200);

    const scenarios: unknown[] = [];
    if (wanted('create')) scenarios.push(await alternate('create payment order (CHECKOUT)', tijori, fl, (t) => createSpec(t, CHECKOUT_BODY)));
    if (wanted('get')) scenarios.push(await alternate('get payment order', tijori, fl, (t) => getSpec(t)));
    if (wanted('intent')) scenarios.push(await single('create payment order (INTENT)', tijori, createSpec(tijori, INTENT_BODY)));
    if (wanted('payout')) scenarios.push(await single('create payout (IMPS)', tijori, createSpec(tijori, PAYOUT_BODY, '/api/v1/merchant/payouts')));
    if (wanted('list')) scenarios.push(await single('list payment orders and payouts', tijori, { ...getSpec(tijori), paths: await listPaths(tijori) }));
    if (wanted('callbacks')) {
      const settings = { connections, rounds, seconds, orders: callbackOrders, ratePerS: callbackRate, only: callbackOnly?.length ? callbackOnly : undefined };
      const ensureIntentOrders = (n: number) => load({ ...createSpec(tijori, INTENT_BODY), amount: n });
      const sandboxSigningSecret = signingSecretFor(masterKey);
      const cpuNow = async () => ({ service: cpuMs(svc.child.pid) ?? 0, pg: await backendCpuMs(adminUrl, db.name, 'tijori') });
      scenarios.push(...(await callbackScenarios({ svc, receiver, adminToken, sandboxSigningSecret, dbUrl: db.url, orgId: tijori.orgId as string, load, ensureIntentOrders, cpuNow }, settings)));
    }
    results.scenarios = scenarios;
    if (listRows > 0 && wanted('lists-10m')) {
      results.lists = await listsScenario(
        { adminUrl, adminToken, load, startService: (url) => spawnNode([...SERVICE_NODE_FLAGS, 'dist/main.js'], serviceEnv(url)) },
        { orders: listRows, payouts: listPayouts, exportRows, seconds, rounds, warmupSeconds, connections: listConnections },
      );
    }

    if (settlementLines > 0 && wanted('settlements-1m')) {
      // The targets (≤ 60 s, ≤ 300 MB) are enforced on the full million only, not on smoke's 10,000.
      results.settlements = await settlementScaleScenario(
        { adminUrl, adminToken, startService: (url) => spawnNode([...SERVICE_NODE_FLAGS, ...prof, 'dist/main.js'], serviceEnv(url)) },
        settlementLines,
        !smoke && settlementLines >= 1_000_000,
      );
    }

    if (ledgerOrders > 0 && wanted('ledger-ab')) {
      results.ledger_ab = await ledgerAbScenario(
        { adminUrl, adminToken, sandboxSigningSecret: signingSecretFor(masterKey), load, startService: (url, extra) => spawnNode([...SERVICE_NODE_FLAGS, 'dist/main.js'], serviceEnv(url, extra)) },
        // 8 connections: enough to keep 2 cores busy; 32 made an overloaded machine refuse creates.
        { orders: ledgerOrders, rounds: smoke ? 1 : Math.max(3, rounds), connections: Number(process.env.BENCH_LEDGER_CONNECTIONS ?? 8) },
      );
    }

    if (ledgerEntries > 0 && wanted('ledger-verify-10m')) {
      results.ledger_verify = await verifyScaleScenario(
        { adminUrl, adminToken, startService: (url) => spawnNode([...SERVICE_NODE_FLAGS, 'dist/main.js'], serviceEnv(url)) },
        ledgerEntries,
      );
    }

    // The table-size phase re-measures create, get and list: skipped when BENCH_ONLY names none of them.
    if (seedRows > 0 && (wanted('create') || wanted('get') || wanted('list'))) {
      // "Within 10 % of an empty database" is measured on two fresh instances started together:
      // one on a database seeded with the orders, one on a database without them, alternated
      // (A B A B), so that neither the machine's speed drifting between the phases of the run nor
      // the history of the long-running instance (its heap, its workers) decides the result.
      const seeded = await seedOrders(db.url, seedRows);
      const n = seedRows.toLocaleString('en');
      const big = await alternate(`create payment order (CHECKOUT), ${n} orders in table`, tijori, fl, (t) => createSpec(t, CHECKOUT_BODY));
      const bigGet = await alternate(`get payment order, ${n} orders in table`, tijori, fl, (t) => getSpec(t));
      const bigList = wanted('list') ? await single(`list payment orders and payouts, ${n} orders in table`, tijori, { ...getSpec(tijori), paths: await listPaths(tijori) }) : undefined;
      const twinDbs = [await freshDatabase(adminUrl), await freshDatabase(adminUrl)] as const;
      const twinSvcs: Spawned[] = [];
      try {
        for (const d of twinDbs) twinSvcs.push(await spawnNode([...SERVICE_NODE_FLAGS, 'dist/main.js'], serviceEnv(d.url)));
        const twins: Target[] = [];
        for (const [i, name] of (['tijori_seeded', 'tijori_unseeded'] as const).entries()) {
          const twin: Target = { ...(await tijoriTarget(twinSvcs[i] as Spawned, adminToken)), name, db: (twinDbs[i] as { name: string }).name };
          twin.orderPaths = await createSome(twin, 200);
          twins.push(twin);
        }
        const twinSeed = await seedOrders(twinDbs[0].url, seedRows, { floor: false });
        await vacuumAnalyze(twinDbs[1].url);
        const [withRows, without] = twins as [Target, Target];
        const createVsEmpty = await alternate(`create (CHECKOUT), ${n} orders in table vs none (two fresh instances; floor columns: the unseeded one)`, withRows, without, (t) => createSpec(t, CHECKOUT_BODY), twinSvcs[0]?.child.pid);
        const getVsEmpty = await alternate(`get, ${n} orders in table vs none (two fresh instances; floor columns: the unseeded one)`, withRows, without, (t) => getSpec(t), twinSvcs[0]?.child.pid);
        results.large = { seeded, create: big, get: bigGet, ...(bigList ? { list: bigList } : {}), versus_empty: { seeded: twinSeed, create: createVsEmpty, get: getVsEmpty } };
      } finally {
        for (const t of twinSvcs) await t.stop();
        for (const d of twinDbs) await d.drop();
      }
    }
    results.pgbench = await pgbench(db.url);
  } finally {
    await svc.stop();
    await floor.stop();
    await receiver.stop();
    if (process.env.BENCH_KEEP_DB === '1') console.error(`kept database ${db.name}`);
    else await db.drop();
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  printTable(results);
  // A run with errors, or a callback scenario that delivered nothing, is a failed run (CI's smoke
  // run included), whatever its speed.
  const failures = failuresOf(results);
  if (results.ledger_ab) failures.push(...ledgerAbFailures(results.ledger_ab as LedgerAbResult, !smoke));
  if (results.ledger_verify) failures.push(...verifyScaleFailures(results.ledger_verify as VerifyScaleResult));
  if (results.settlements) failures.push(...settlementFailures(results.settlements as SettlementScaleResult));
  for (const f of failures) console.error(`bench: FAILED: ${f}`);
  if (failures.length > 0) process.exitCode = 1;
}

await main();
