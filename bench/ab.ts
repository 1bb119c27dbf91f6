/**
 * A/B of two Tijori source trees (e.g. before and after a change), each on its own fresh database,
 * measured alternately (A B A B ...) with the same load: CHECKOUT create and GET. For judging one
 * change on a noisy machine; `npm run bench` is the full benchmark.
 *
 *   node --import tsx bench/ab.ts <dirA> <dirB>   (env: BENCH_SECONDS=5, BENCH_ROUNDS=3, BENCH_LOG_LEVEL=info)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { LoadResult, LoadSpec } from './load.js';
import { backendCpuMs, cpuMs, freshDatabase, median, SERVICE_NODE_FLAGS, spawnNode } from './support.js';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const load = async (spec: LoadSpec): Promise<LoadResult> =>
  JSON.parse((await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)], { maxBuffer: 64 << 20 })).stdout.trim().split('\n').pop() as string);

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function start(dir: string) {
  const db = await freshDatabase(adminUrl);
  await run(process.execPath, ['scripts/build.mjs', dir]);
  const svc = await spawnNode([...SERVICE_NODE_FLAGS, join(dir, 'dist/main.js')], {
    DATABASE_URL: db.url, PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-ab-')),
    ADMIN_TOKEN: 'ab', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
  const admin = { authorization: 'Bearer ab', 'content-type': 'application/json' };
  const org = await json(`${svc.line.internal}/admin/orgs`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'AB Org' }) });
  const c = await json(`${svc.line.internal}/admin/clients`, {
    method: 'POST', headers: admin, body: JSON.stringify({ org: org.data.id, scopes: ['collections:write', 'collections:read'], rate_limit: 1_000_000 }),
  });
  const headers = { 'x-service-client-id': c.data.client_id, authorization: `Bearer ${c.data.client_secret}` };
  const paths: string[] = [];
  for (let i = 0; i < 100; i++) {
    const r = await json(`${svc.line.public}/api/v1/merchant/payment-orders`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ amount_paise: 49_900, purpose: 'AB order' }),
    });
    paths.push(`/api/v1/merchant/payment-orders/${r.data.id}`);
  }
  return { dir, svc, db, base: svc.line.public as string, headers, paths };
}

const [dirA, dirB] = process.argv.slice(2).map((d) => resolve(d));
const targets = [await start(dirA as string), await start(dirB as string)];
try {
  for (const kind of ['create', 'get'] as const) {
    const spec = (t: (typeof targets)[number]): LoadSpec =>
      kind === 'create'
        ? { url: t.base, method: 'POST', paths: ['/api/v1/merchant/payment-orders'], headers: t.headers, body: { amount_paise: 49_900, purpose: 'AB order', merchant_order_reference: 'ab-1' }, connections, durationSeconds: seconds }
        : { url: t.base, method: 'GET', paths: t.paths, headers: t.headers, connections, durationSeconds: seconds };
    for (const t of targets) await load({ ...spec(t), durationSeconds: 2 });
    const rps: number[][] = [[], []];
    const p99: number[][] = [[], []];
    const nodeUs: number[][] = [[], []];
    const pgUs: number[][] = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        // CPU per request (service process; its database's backends) is far less sensitive to
        // other load on the machine than req/s.
        const n0 = cpuMs(t.svc.child.pid) as number;
        const b0 = await backendCpuMs(adminUrl, t.db.name);
        const x = await load(spec(t));
        nodeUs[i]!.push(Math.round((((cpuMs(t.svc.child.pid) as number) - n0) * 1000) / x.requests));
        pgUs[i]!.push(Math.round((((await backendCpuMs(adminUrl, t.db.name)) - b0) * 1000) / x.requests));
        rps[i]!.push(x.rps);
        p99[i]!.push(x.p99);
        console.error(
          `${kind} ${i === 0 ? 'A' : 'B'} round ${r + 1}: ${x.rps} req/s p99 ${x.p99} ms errors ${x.errors + x.non2xx}; CPU/request: service ${nodeUs[i]!.at(-1)} µs, PostgreSQL ${pgUs[i]!.at(-1)} µs`,
        );
      }
    }
    const side = (i: number) => ({ rps: median(rps[i]!), p99: median(p99[i]!), service_cpu_us: median(nodeUs[i]!), pg_cpu_us: median(pgUs[i]!) });
    const [a, b] = [side(0), side(1)];
    console.log(JSON.stringify({ kind, A: a, B: b, ratio_B_over_A: Math.round((b.rps / a.rps) * 100) / 100 }));
  }
} finally {
  for (const t of targets) {
    await t.svc.stop();
    await t.db.drop();
  }
}
