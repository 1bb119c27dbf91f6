/**
 * The load generator, run as its own process so it does not share an event loop with what it
 * measures. Input: one JSON argument (LoadSpec). Output: one JSON line (LoadResult).
 */
import { randomUUID } from 'node:crypto';
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
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statusCounts: Record<string, number>;
}

const spec = JSON.parse(process.argv[2] as string) as LoadSpec;
let i = 0;
const bodyText = spec.body ? JSON.stringify(spec.body) : undefined;

const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.durationSeconds,
  pipelining: 1,
  requests: [
    {
      method: spec.method,
      setupRequest: (req) => {
        const path = spec.paths[i++ % spec.paths.length] as string;
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
};
process.stdout.write(`${JSON.stringify(out)}\n`);
