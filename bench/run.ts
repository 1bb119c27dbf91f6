/**
 * `npm run bench`: Tijori against the floor (bench/floor-server.ts) on a real PostgreSQL, driven by
 * autocannon from a separate process (bench/load.ts), alternately (A B A B, medians), plus
 * Tijori-only scenarios. BENCH_SMOKE=1: one short round of each, for CI.
 *
 * env: BENCH_DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/test),
 *      BENCH_SECONDS (default 10), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS (default 32),
 *      BENCH_SEED_ROWS (default 1,000,000 existing orders for the table-size scenario; 0 skips it).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LoadResult, LoadSpec } from './load.js';
import { seedOrders } from './seed.js';
import { freshDatabase, median, peakRssMb, type Spawned, spawnNode } from './support.js';

const run = promisify(execFile);
const smoke = process.env.BENCH_SMOKE === '1';
const seconds = smoke ? 2 : Number(process.env.BENCH_SECONDS ?? 10);
const rounds = smoke ? 1 : Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seedRows = smoke ? 0 : Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);

async function load(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)], { maxBuffer: 1 << 20 });
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
  return { name: 'tijori', base: svc.line.public as string, headers: { 'x-service-client-id': c.data.client_id, authorization: `Bearer ${c.data.client_secret}` }, orderPaths: [] };
}

async function floorTarget(floor: Spawned): Promise<Target> {
  const c = await json(`${floor.line.url}/admin/clients`, { method: 'POST' });
  return { name: 'floor', base: floor.line.url as string, headers: { 'x-service-client-id': c.client_id, authorization: `Bearer ${c.client_secret}` }, orderPaths: [] };
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

function getSpec(t: Target): LoadSpec {
  return { url: t.base, method: 'GET', paths: t.orderPaths, headers: t.headers, connections, durationSeconds: seconds };
}

/** A B A B: alternates the two targets and keeps each one's runs. */
async function alternate(label: string, a: Target, b: Target, spec: (t: Target) => LoadSpec) {
  const runs: Record<string, LoadResult[]> = { [a.name]: [], [b.name]: [] };
  for (let r = 0; r < rounds; r++) {
    for (const t of [a, b]) {
      const res = await load(spec(t));
      (runs[t.name] as LoadResult[]).push(res);
      console.error(`  ${label} ${t.name} round ${r + 1}: ${res.rps} req/s p99 ${res.p99} ms errors ${res.errors} non2xx ${res.non2xx}`);
    }
  }
  const summary = (xs: LoadResult[]) => ({
    rps: median(xs.map((x) => x.rps)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    errors: xs.reduce((s, x) => s + x.errors + x.non2xx, 0),
  });
  const sa = summary(runs[a.name] as LoadResult[]);
  const sb = summary(runs[b.name] as LoadResult[]);
  return { label, [a.name]: sa, [b.name]: sb, ratio: Math.round((sa.rps / sb.rps) * 100) / 100 };
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

async function main() {
  const db = await freshDatabase(adminUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'tijori-bench-'));
  const adminToken = 'bench-admin-token';
  console.error(`bench: database ${db.url.replace(/\/\/[^@]*@/, '//')}; ${seconds}s per run, ${rounds} round(s), ${connections} connections`);
  const svc = await spawnNode(['src/main.ts'], {
    DATABASE_URL: db.url,
    PORT: '0',
    INTERNAL_PORT: '0',
    SANDBOX_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const floor = await spawnNode(['bench/floor-server.ts'], { DATABASE_URL: db.url, PORT: '0' });
  const results: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length }, seconds, rounds, connections, seed_rows: seedRows };
  try {
    const tijori = await tijoriTarget(svc, adminToken);
    const fl = await floorTarget(floor);
    tijori.orderPaths = await createSome(tijori, 200);
    fl.orderPaths = await createSome(fl, 200);

    const scenarios: unknown[] = [];
    scenarios.push(await alternate('create payment order (CHECKOUT)', tijori, fl, (t) => createSpec(t, CHECKOUT_BODY)));
    scenarios.push(await alternate('get payment order', tijori, fl, (t) => getSpec(t)));
    const intent = await load(createSpec(tijori, INTENT_BODY));
    scenarios.push({ label: 'create payment order (INTENT)', tijori: intent });
    const payout = await load(
      createSpec(tijori, { amount_paise: 150_000, mode: 'IMPS', beneficiary: { name: 'Ravi Kumar', account_number: '123456789012', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } }, '/api/v1/merchant/payouts'),
    );
    scenarios.push({ label: 'create payout (IMPS)', tijori: payout });
    results.scenarios = scenarios;

    if (seedRows > 0) {
      const seeded = await seedOrders(db.url, seedRows);
      const big = await alternate('create payment order, 1,000,000 orders in table', tijori, fl, (t) => createSpec(t, CHECKOUT_BODY));
      const bigGet = await load(getSpec(tijori));
      results.large = { seeded, create: big, get: bigGet };
    }
    results.pgbench = await pgbench(db.url);
    results.peak_rss_mb = peakRssMb(svc.child.pid);
  } finally {
    await svc.stop();
    await floor.stop();
    await db.drop();
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

await main();
