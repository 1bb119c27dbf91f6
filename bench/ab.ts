/**
 * A/B of two Tijori source trees (e.g. before and after a change), each on its own fresh database,
 * measured alternately with the same load: CHECKOUT create, GET and payout create → SUCCESS. For
 * judging one change on a noisy machine; `npm run bench` is the full benchmark.
 *
 *   node --import tsx bench/ab.ts <dirA> <dirB>
 *
 * env: BENCH_SECONDS (per slice, default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (32),
 *      BENCH_LOG_LEVEL (info), BENCH_AB_KINDS (default create,get; also payout),
 *      BENCH_AB_FLAGS_B (Node.js flags of B's service instead of npm start's: the same tree twice
 *        compares flags),
 *      BENCH_AB_KIND_SECONDS (a kind stops adding rounds, after at least 4, once they took this long),
 *      BENCH_AB_RATE (e.g. create=300,payout=100: requests/s evenly paced instead of flat out, so that
 *        both trees batch alike whatever else the machine does),
 *      BENCH_AB_GATE (kinds that fail the run when B costs more CPU than A; e.g. create,payout: CI's
 *        smoke, .ci/bench-gate), BENCH_AB_MAX_INCREASE_PCT (default 10), BENCH_AB_BUSY_MAX_INCREASE_PCT
 *        (default 50: the limit when fewer than half the rounds kept BENCH_AB_RATE's pace).
 *
 * A round is one slice of each tree, in the order A B, then B A in the next round (A B B A ...),
 * so that a machine getting slower or faster during the run weighs on both alike. Per round the
 * CPU per request (the service process and its database's PostgreSQL backends, the CPU they use
 * idle taken out) of B is divided by A's: the statistic is the median of these per-round ratios, which one disturbed slice cannot
 * move. A payout slice ends when every payout of its tree has left PROCESSING (the sandbox bank has
 * executed it and its callback has been applied), so the CPU counted is create → SUCCESS.
 *
 * The gate: a gated kind whose median ratio is above 1 + MAX_INCREASE/100 is measured again with as
 * many rounds; it fails only when the retry's median is above the limit too (a real regression
 * reproduces, a noisy minute rarely does twice). Exit status 1 on failure.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { LoadResult, LoadSpec } from './load.js';
import { backendCpuByPid, cpuMs, freshDatabase, median, SERVICE_NODE_FLAGS, spawnNode, vacuumAnalyze } from './support.js';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KINDS = ['create', 'get', 'payout'] as const;
type Kind = (typeof KINDS)[number];
const kinds = (process.env.BENCH_AB_KINDS ?? 'create,get').split(',').filter(Boolean) as Kind[];
const gate = (process.env.BENCH_AB_GATE ?? '').split(',').filter(Boolean) as Kind[];
const maxIncrease = Number(process.env.BENCH_AB_MAX_INCREASE_PCT ?? 10);
/** The limit when the machine could not keep the pace in most rounds (see measure()). */
const busyMaxIncrease = Number(process.env.BENCH_AB_BUSY_MAX_INCREASE_PCT ?? 50);
/**
 * BENCH_AB_KIND_SECONDS: a kind stops adding rounds once its rounds took this long (at least
 * MIN_ROUNDS are run): on an overloaded machine a paced slice stretches, and CI has a time limit.
 */
const kindBudgetMs = Number(process.env.BENCH_AB_KIND_SECONDS ?? 0) * 1000;
const MIN_ROUNDS = 4;
/** BENCH_AB_RATE=create=300,payout=100: requests/s evenly paced per kind (open loop) instead of flat out. */
const rates = new Map((process.env.BENCH_AB_RATE ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]).map(([k, v]) => [k, Number(v)]));
for (const k of [...kinds, ...gate]) if (!KINDS.includes(k)) throw new Error(`unknown kind ${k} (known: ${KINDS.join(', ')})`);
for (const k of gate) if (!kinds.includes(k)) kinds.push(k);

const load = async (spec: LoadSpec): Promise<LoadResult> =>
  JSON.parse((await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)], { maxBuffer: 64 << 20 })).stdout.trim().split('\n').pop() as string);

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const PAYOUT_BODY = {
  amount_paise: 150_000,
  mode: 'IMPS',
  beneficiary: { name: 'Ravi Kumar', account_number: '123456789012', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true },
};

/** BENCH_AB_FLAGS_B: Node.js flags of B's service instead of npm start's (space-separated): A/B of flags on one tree. */
const flagsB = process.env.BENCH_AB_FLAGS_B?.split(' ').filter(Boolean);

async function start(dir: string, flags = SERVICE_NODE_FLAGS) {
  const db = await freshDatabase(adminUrl);
  await run(process.execPath, ['scripts/build.mjs', dir]);
  const svc = await spawnNode([...flags, join(dir, 'dist/main.js')], {
    DATABASE_URL: db.url, PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-ab-')),
    ADMIN_TOKEN: 'ab', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
  const admin = { authorization: 'Bearer ab', 'content-type': 'application/json' };
  const org = await json(`${svc.line.internal}/admin/orgs`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'AB Org' }) });
  const c = await json(`${svc.line.internal}/admin/clients`, {
    method: 'POST', headers: admin,
    body: JSON.stringify({ org: org.data.id, scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], rate_limit: 1_000_000 }),
  });
  if (kinds.includes('payout')) {
    await json(`${svc.line.internal}/admin/routes`, { method: 'POST', headers: admin, body: JSON.stringify({ org: org.data.id, modes: ['IMPS', 'NEFT', 'RTGS'] }) });
  }
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
type Target = Awaited<ReturnType<typeof start>>;

/** Waits until no payout of the target's database is still PROCESSING (at most 20 s). */
async function payoutsSettled(t: Target): Promise<void> {
  const c = new pg.Client({ connectionString: t.db.url });
  await c.connect();
  try {
    for (let waited = 0; waited < 20_000; waited += 50) {
      const n = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'PROCESSING'`)).rows[0]?.n ?? 0;
      if (n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${t.dir}: payouts still PROCESSING 20 s after the slice`);
  } finally {
    await c.end();
  }
}

function spec(kind: Kind, t: Target): LoadSpec {
  const rate = rates.get(kind);
  return rate ? { ...flatOutSpec(kind, t), overallRate: rate } : flatOutSpec(kind, t);
}

function flatOutSpec(kind: Kind, t: Target): LoadSpec {
  if (kind === 'create') {
    return { url: t.base, method: 'POST', paths: ['/api/v1/merchant/payment-orders'], headers: t.headers, body: { amount_paise: 49_900, purpose: 'AB order', merchant_order_reference: 'ab-1' }, connections, durationSeconds: seconds };
  }
  if (kind === 'payout') return { url: t.base, method: 'POST', paths: ['/api/v1/merchant/payouts'], headers: t.headers, body: PAYOUT_BODY, connections, durationSeconds: seconds };
  return { url: t.base, method: 'GET', paths: t.paths, headers: t.headers, connections, durationSeconds: seconds };
}

/** CPU time so far, ms, by process: the service (key 'service') and its database's backends (by pid). */
type Cpu = { at: number; service: number; pg: Map<number, number> };

async function backendPids(t: Target): Promise<number[]> {
  return [...(await backendCpuByPid(adminUrl, t.db.name)).keys()];
}

async function cpuNow(t: Target): Promise<Cpu> {
  return { at: Date.now(), service: cpuMs(t.svc.child.pid) as number, pg: await backendCpuByPid(adminUrl, t.db.name) };
}

/**
 * CPU between two readings, ms. A backend that exited in between takes its CPU of the interval
 * with it (not its whole life, as a sum over the live backends would: pooled connections closing
 * made the PostgreSQL figure negative); one that started in between counts whole.
 */
function cpuBetween(a: Cpu, b: Cpu) {
  let pgMs = 0;
  for (const [pid, ms] of b.pg) pgMs += ms - (a.pg.get(pid) ?? 0);
  return { ms: Math.max(1, b.at - a.at), service: b.service - a.service, pg: pgMs };
}

/** What one slice measured, raw: its requests, and the CPU of its window (ms) and the window's length. */
interface Slice {
  rps: number;
  p99: number;
  errors: number;
  requests: number;
  windowMs: number;
  serviceMs: number;
  pgMs: number;
}

/**
 * One slice of `t`. The window starts when the load generator sends its first request (it reads
 * the CPU times itself then, so its own start-up is outside) and ends when the work is done (for a
 * payout: when no payout is PROCESSING any more). Meanwhile `other`, the idle tree, is read over
 * the same time: its CPU per second then is an idle sample (its workers' polls, the sandbox bank's
 * ticks) taken under the same machine conditions.
 */
async function slice(kind: Kind, t: Target, other: Target): Promise<{ busy: Slice; idle: { ms: number; service: number; pg: number } }> {
  // Outside the window, as autovacuum would have by then: without it each slice met the dead row
  // versions of all the slices before it, and a payout's PostgreSQL CPU grew from round to round
  // (about 1,300 µs in the first, 1,700–2,100 µs in the sixth, the same tree twice). Autovacuum's
  // own CPU was never counted (client backends only), so this takes out no cost counted before.
  await vacuumAnalyze(t.db.url);
  const pids = [t.svc.child.pid as number, ...(await backendPids(t))];
  const o0 = await cpuNow(other);
  const x = await load({ ...spec(kind, t), cpuPids: pids });
  if (kind === 'payout') await payoutsSettled(t);
  const [end, o1] = [await cpuNow(t), await cpuNow(other)];
  const at0 = x.cpuAtStart ?? {};
  const start: Cpu = { at: x.cpuReadAt ?? end.at, service: at0[String(t.svc.child.pid)] ?? end.service, pg: new Map(pids.slice(1).filter((p) => at0[String(p)] !== undefined).map((p) => [p, at0[String(p)] as number])) };
  const d = cpuBetween(start, end);
  return {
    busy: { rps: x.rps, p99: x.p99, errors: x.errors + x.non2xx, requests: x.requests, windowMs: d.ms, serviceMs: d.service, pgMs: d.pg },
    idle: cpuBetween(o0, o1),
  };
}

/**
 * `rounds` rounds A B, B A, ...; each tree's idle CPU per ms is the median of its samples (taken
 * while the other tree ran) and is taken out of its slices in proportion to their length; per round
 * the ratio of B's total CPU per request to A's, and the median of those ratios.
 */
async function measure(kind: Kind, targets: Target[], attempt: number) {
  const busy: Slice[][] = [[], []];
  const idle: Array<Array<{ service: number; pg: number }>> = [[], []];
  const began = Date.now();
  let done = 0;
  let last = -1;
  for (let r = 0; r < rounds; r++) {
    if (kindBudgetMs > 0 && r >= MIN_ROUNDS && r % 2 === 0 && Date.now() - began > kindBudgetMs) {
      console.error(`${kind}: ${r} rounds in ${Math.round((Date.now() - began) / 1000)} s, over BENCH_AB_KIND_SECONDS: no more rounds`);
      break;
    }
    done++;
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const s = await slice(kind, targets[i] as Target, targets[1 - i] as Target);
      busy[i]!.push(s.busy);
      // An idle sample counts only when the idle tree did not run the slice just before: right
      // after its own slice it is still finishing that (garbage collection, log writes, the last
      // payouts' callbacks), which a median of 4-8 samples half made of those did not survive.
      if (last !== 1 - i) idle[1 - i]!.push({ service: s.idle.service / s.idle.ms, pg: s.idle.pg / s.idle.ms });
      last = i;
    }
  }
  const idleRate = [0, 1].map((i) => ({ service: median(idle[i]!.map((x) => x.service)), pg: median(idle[i]!.map((x) => x.pg)) }));
  const perRequest = (i: number, x: Slice) => {
    const per = (ms: number) => Math.round((Math.max(0, ms) * 1000) / Math.max(1, x.requests));
    return { service_us: per(x.serviceMs - idleRate[i]!.service * x.windowMs), pg_us: per(x.pgMs - idleRate[i]!.pg * x.windowMs) };
  };
  const ratios: number[] = [];
  for (let r = 0; r < done; r++) {
    const [a, b] = [perRequest(0, busy[0]![r] as Slice), perRequest(1, busy[1]![r] as Slice)];
    ratios.push((b.service_us + b.pg_us) / Math.max(1, a.service_us + a.pg_us));
    for (const [i, x, c] of [[0, busy[0]![r] as Slice, a], [1, busy[1]![r] as Slice, b]] as const) {
      console.error(
        `${kind}${attempt > 1 ? ' (retry)' : ''} ${i === 0 ? 'A' : 'B'} round ${r + 1}: ${x.rps} req/s p99 ${Math.round(x.p99)} ms errors ${x.errors}; CPU/request: service ${c.service_us} µs, PostgreSQL ${c.pg_us} µs (window ${x.windowMs} ms, ${x.requests} requests)`,
      );
    }
  }
  const side = (i: number) => {
    const xs = busy[i] as Slice[];
    const cs = xs.map((x) => perRequest(i, x));
    return {
      rps: median(xs.map((x) => x.rps)), p99: median(xs.map((x) => x.p99)), errors: xs.reduce((n, x) => n + x.errors, 0),
      service_cpu_us: median(cs.map((c) => c.service_us)), pg_cpu_us: median(cs.map((c) => c.pg_us)),
      idle_cpu_ms_per_s: { service: Math.round(idleRate[i]!.service * 10_000) / 10, pg: Math.round(idleRate[i]!.pg * 10_000) / 10 },
    };
  };
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  // Paced: a slice kept the pace when its requests were answered at 80 % of the rate or more. When
  // fewer than half the rounds kept it on both sides, the machine was too busy for CPU per request
  // to resolve 10 % (the idle CPU of the stretched windows outweighs the requests' own): the gate's
  // limit is then BENCH_AB_BUSY_MAX_INCREASE_PCT (default 50 %), and the output says so.
  const rate = rates.get(kind);
  const kept = rate ? Array.from({ length: done }, (_, r) => [0, 1].every((i) => (busy[i]![r] as Slice).rps >= 0.8 * rate)).filter(Boolean).length : done;
  const paceKept = kept * 2 >= done;
  const limit = 1 + (paceKept ? maxIncrease : busyMaxIncrease) / 100;
  return {
    kind, A: side(0), B: side(1), ratio_B_over_A: round3(side(1).rps / side(0).rps), cpu_ratios_B_over_A: ratios.map(round3), cpu_B_over_A: round3(median(ratios)),
    rounds_at_pace: `${kept}/${done}`, limit,
  };
}

const [dirA, dirB] = process.argv.slice(2).map((d) => resolve(d));
if (!dirA || !dirB) throw new Error('usage: node --import tsx bench/ab.ts <dirA> <dirB>');
const targets: Target[] = [];
let stopping: Promise<void> | undefined;
/** Stops the services and drops their databases, once (a signal and the main flow's `finally` share it). */
const stopAll = () =>
  (stopping ??= (async () => {
    for (const t of targets) {
      await t.svc.stop();
      await t.db.drop();
    }
  })());
// Stopped from outside (CI's time limit, ^C): the services and their databases go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.exitCode = 130;
    void stopAll().finally(() => process.exit(130));
  });
}
targets.push(await start(dirA), await start(dirB, flagsB));
const failures: string[] = [];
try {
  for (const kind of kinds) {
    for (const t of targets) await load({ ...spec(kind, t), durationSeconds: 2 });
    if (kind === 'payout') for (const t of targets) await payoutsSettled(t);
    const busyNote = (r: { rounds_at_pace: string; limit: number }) =>
      r.limit > 1 + maxIncrease / 100 ? ` (the machine kept the pace in ${r.rounds_at_pace} rounds only: too busy to resolve ${maxIncrease} %, limit widened)` : '';
    let result = await measure(kind, targets, 1);
    console.log(JSON.stringify(result));
    if (gate.includes(kind) && result.cpu_B_over_A > result.limit) {
      console.error(`${kind}: B costs ${result.cpu_B_over_A}× A's CPU per request (limit ${result.limit}${busyNote(result)}): measuring again`);
      const first = result;
      result = await measure(kind, targets, 2);
      console.log(JSON.stringify(result));
      // Both measurements over their limits: a real regression reproduces, a noisy minute rarely does.
      if (result.cpu_B_over_A > result.limit) {
        failures.push(`${kind}: B costs ${first.cpu_B_over_A}× then ${result.cpu_B_over_A}× A's CPU per request (limits ${first.limit}, ${result.limit}; per round ${result.cpu_ratios_B_over_A.join(', ')})`);
      }
    }
    if (result.A.errors + result.B.errors > 0) failures.push(`${kind}: ${result.A.errors} error(s) A, ${result.B.errors} B`);
    if (gate.includes(kind)) console.error(`${kind}: CPU per request B/A ${result.cpu_B_over_A} (limit ${result.limit}${busyNote(result)}) ${result.cpu_B_over_A > result.limit ? 'FAILED' : 'ok'}`);
  }
} finally {
  await stopAll();
}
for (const f of failures) console.error(`bench/ab: FAILED: ${f}`);
if (failures.length > 0) process.exitCode = 1;
