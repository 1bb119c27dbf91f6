/**
 * The load generator, run as its own process so it does not share an event loop with what it
 * measures. Input: one JSON argument (LoadSpec), or @file holding it. Output: one JSON line (LoadResult).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { percentile } from './support.js';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  /** For GET: paths are drawn round-robin from this list. */
  paths: string[];
  headers: Record<string, string>;
  /** POST body template; every request gets a fresh Idempotency-Key. */
  body?: Record<string, unknown>;
  connections: number;
  durationSeconds: number;
  /** Send exactly this many requests (one per path when it equals paths.length) instead of running for durationSeconds. */
  amount?: number;
  /**
   * Requests per second, evenly spaced (one every 1000/rate ms, over up to `connections` sockets);
   * unlimited when absent. Not autocannon's overallRate: that sends each second's quota at once at
   * the start of the second, i.e. bursts, which measures how fast a burst drains, not latency at a rate.
   */
  overallRate?: number;
  /**
   * Explicit requests, each sent once in this order (instead of `paths` and `body`): for bodies
   * that differ per request, such as signed provider callbacks. `amount` defaults to their number.
   */
  requests?: ExplicitRequest[];
  /** Report when each path's (or explicit request's id's) last 2xx answer arrived (Date.now()). */
  recordTimes?: boolean;
  /**
   * One label per entry of `paths` (same order): latency percentiles are also reported per label
   * (`byLabel`), so one run mixing several kinds of request still shows each kind's tail.
   */
  labels?: string[];
  /** Extra headers per request, request k taking headerSets[k % n]: e.g. several signed-in sessions. */
  headerSets?: Record<string, string>[];
  /**
   * Processes whose CPU time (ms, Linux /proc) is read just before the first request is sent and
   * reported as `cpuAtStart`: the caller reads them again when it deems the work done, so that the
   * load generator's own start-up is not inside the measured window (bench/ab.ts).
   */
  cpuPids?: number[];
}

export interface ExplicitRequest {
  id: string;
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statusCounts: Record<string, number>;
  /** Wall-clock span of the run, ms. */
  durationMs: number;
  answeredAt?: Record<string, number>;
  /** With spec.labels: per label, the requests answered and their p50/p99 in ms (measured from just before each request was written). */
  byLabel?: Record<string, { requests: number; non2xx: number; p50: number; p99: number }>;
  /** With spec.cpuPids: their CPU time (ms) just before the first request, and when that was (Date.now()). */
  cpuAtStart?: Record<string, number>;
  cpuReadAt?: number;
}

/** CPU time (user + system) of a process so far, ms (Linux); undefined when it is gone. */
function cpuOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

// The spec is the argument itself, or `@file` when it is too long for a command line.
const arg = process.argv[2] as string;
const spec = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as LoadSpec;
let i = 0;
const bodyText = spec.body ? JSON.stringify(spec.body) : undefined;

/** The spec's headers; a POST also gets a fresh Idempotency-Key and its content type. */
function requestHeaders(k: number): Record<string, string> {
  const headers: Record<string, string> = { ...spec.headers, ...spec.headerSets?.[k % spec.headerSets.length] };
  if (spec.method === 'POST') {
    headers['idempotency-key'] = randomUUID();
    headers['content-type'] = 'application/json';
  }
  return headers;
}

/** Request k: its path, headers and body, and the key its answer time is recorded under. */
function requestFor(k: number): { key: string; path: string; headers: Record<string, string>; body: string | undefined; label: string | undefined } {
  const explicit = spec.requests?.[k];
  if (explicit) return { key: explicit.id, path: explicit.path, headers: explicit.headers, body: explicit.body, label: undefined };
  const path = spec.paths[k % spec.paths.length] as string;
  return { key: path, path, headers: requestHeaders(k), body: bodyText, label: spec.labels?.[k % spec.paths.length] };
}

/** Per label: latencies (ms) and non-2xx answers, when spec.labels is given. */
const labelled = new Map<string, { latencies: number[]; non2xx: number }>();
function recordLabel(label: string | undefined, status: number, ms: number): void {
  if (label === undefined) return;
  let l = labelled.get(label);
  if (!l) labelled.set(label, (l = { latencies: [], non2xx: 0 }));
  l.latencies.push(ms);
  if (status < 200 || status >= 300) l.non2xx++;
}
const amount = spec.amount ?? spec.requests?.length;

const answeredAt: Record<string, number> = {};
let cpuAtStart: Record<string, number> | undefined;
if (spec.cpuPids) {
  cpuAtStart = {};
  for (const pid of spec.cpuPids) {
    const ms = cpuOf(pid);
    if (ms !== undefined) cpuAtStart[pid] = ms;
  }
}
const cpuReadAt = Date.now();
const started = Date.now();
const result = spec.overallRate ? await paced(spec.overallRate) : await flatOut();

function flatOut(): Promise<autocannon.Result> {
  return autocannon({
    url: spec.url,
    // autocannon refuses more connections than requests (e.g. topping up a few orders).
    connections: amount ? Math.min(spec.connections, amount) : spec.connections,
    ...(amount ? { amount } : { duration: spec.durationSeconds }),
    pipelining: 1,
    requests: [
      {
        method: spec.method,
        // With pipelining 1, a client's context holds the request it is waiting for: setupRequest
        // runs just before the request is written, onResponse once its answer is parsed.
        onResponse: (status, _body, context) => {
          const c = context as { key: string; label: string | undefined; t0: number };
          if (spec.recordTimes && status >= 200 && status < 300) answeredAt[c.key] = Date.now();
          recordLabel(c.label, status, performance.now() - c.t0);
        },
        setupRequest: (req, context) => {
          const r = requestFor(i++);
          const c = context as { key: string; label: string | undefined; t0: number };
          c.key = r.key;
          c.label = r.label;
          c.t0 = performance.now();
          return { ...req, path: r.path, headers: r.headers, ...(r.body ? { body: r.body } : {}) };
        },
      },
    ],
  });
}

/** `amount` requests (or durationSeconds × rate), request k sent at started + k × 1000 / rate ms. */
async function paced(rate: number): Promise<Pick<autocannon.Result, 'requests' | 'latency' | 'errors' | 'timeouts' | 'non2xx' | 'statusCodeStats'>> {
  const total = amount ?? Math.round(spec.durationSeconds * rate);
  const pool = new Pool(spec.url, { connections: spec.connections, pipelining: 1 });
  const latencies: number[] = [];
  const codes: Record<string, { count: number }> = {};
  let errors = 0;
  let non2xx = 0;
  const one = async (k: number): Promise<void> => {
    const r = requestFor(k);
    const t0 = performance.now();
    try {
      const res = await pool.request({ method: spec.method, path: r.path, headers: r.headers, ...(r.body ? { body: r.body } : {}) });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      recordLabel(r.label, res.statusCode, performance.now() - t0);
      const c = (codes[String(res.statusCode)] ??= { count: 0 });
      c.count++;
      if (res.statusCode >= 200 && res.statusCode < 300) {
        if (spec.recordTimes) answeredAt[r.key] = Date.now();
      } else non2xx++;
    } catch {
      errors++;
    }
  };
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  for (let k = 0; k < total; k++) {
    const due = t0 + (k * 1000) / rate - performance.now();
    if (due > 1) await new Promise((r) => setTimeout(r, due));
    inFlight.push(one(k));
  }
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const seconds = (performance.now() - t0) / 1000;
  return {
    requests: { total: latencies.length, average: latencies.length / seconds } as autocannon.Result['requests'],
    latency: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) } as autocannon.Result['latency'],
    errors,
    timeouts: 0,
    non2xx,
    statusCodeStats: codes as autocannon.Result['statusCodeStats'],
  };
}

const statusCounts: Record<string, number> = {};
for (const [k, v] of Object.entries(result.statusCodeStats ?? {})) statusCounts[k] = (v as { count: number }).count;
const out: LoadResult = {
  requests: result.requests.total,
  rps: Math.round(result.requests.average),
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
  statusCounts,
  durationMs: Date.now() - started,
  ...(spec.recordTimes ? { answeredAt } : {}),
  ...(cpuAtStart ? { cpuAtStart, cpuReadAt } : {}),
  ...(spec.labels ? { byLabel: Object.fromEntries([...labelled].map(([label, l]) => {
    const sorted = l.latencies.sort((a, b) => a - b);
    const ms = (x: number) => Math.round(x * 10) / 10;
    return [label, { requests: sorted.length, non2xx: l.non2xx, p50: ms(percentile(sorted, 0.5)), p99: ms(percentile(sorted, 0.99)) }];
  })) } : {}),
};
process.stdout.write(`${JSON.stringify(out)}\n`);
