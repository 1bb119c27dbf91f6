/**
 * The load generator, run as its own process so it does not share an event loop with what it
 * measures. Input: one JSON argument (LoadSpec), or @file holding it. Output: one JSON line (LoadResult).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

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
  /** Requests per second across all connections (autocannon overallRate); unlimited when absent. */
  overallRate?: number;
  /** Report, per path, when its (last) 2xx answer arrived (Date.now()). */
  recordTimes?: boolean;
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
}

// The spec is the argument itself, or `@file` when it is too long for a command line.
const arg = process.argv[2] as string;
const spec = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as LoadSpec;
let i = 0;
const bodyText = spec.body ? JSON.stringify(spec.body) : undefined;

const answeredAt: Record<string, number> = {};
const started = Date.now();
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSeconds }),
  ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
  pipelining: 1,
  requests: [
    {
      method: spec.method,
      onResponse: (status, _body, context) => {
        if (spec.recordTimes && status >= 200 && status < 300) answeredAt[(context as { path: string }).path] = Date.now();
      },
      setupRequest: (req, context) => {
        const path = spec.paths[i++ % spec.paths.length] as string;
        (context as { path: string }).path = path;
        const headers: Record<string, string> = { ...spec.headers };
        if (spec.method === 'POST') {
          headers['idempotency-key'] = randomUUID();
          headers['content-type'] = 'application/json';
        }
        return { ...req, path, headers, ...(bodyText ? { body: bodyText } : {}) };
      },
    },
  ],
});

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
};
process.stdout.write(`${JSON.stringify(out)}\n`);
