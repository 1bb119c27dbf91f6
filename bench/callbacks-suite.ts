/**
 * The callback-delivery scenarios of `npm run bench`, in the order they run: PSP callbacks as fast
 * as possible, the same evenly paced, confirmations through the in-process sandbox PSP as fast as
 * possible, events committed by another instance (steady), and a backlog committed at once (drain
 * rate). Each is measured `rounds` times after a
 * warm-up, with the service's peak RSS reset before it; see callbacks-scenario.ts for one run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { callbackRun, configureDestination, OUTBOX_WRITERS, outboxRun } from './callbacks-scenario.js';
import type { LoadResult, LoadSpec } from './load.js';
import { median, peakRssMb, resetPeakRss, type Spawned } from './support.js';

export interface SuiteTarget {
  svc: Spawned;
  receiver: Spawned;
  adminToken: string;
  dbUrl: string;
  orgId: string;
  load(spec: LoadSpec): Promise<LoadResult>;
  /** The key the sandbox PSP signs its callbacks with. */
  sandboxSigningSecret: string;
  /** Creates n more open INTENT orders. */
  ensureIntentOrders(n: number): Promise<unknown>;
  /** CPU used so far (ms) by the service process and by its PostgreSQL backends: for CPU per confirmation. */
  cpuNow?: () => Promise<{ service: number; pg: number }>;
}

export interface SuiteSettings {
  connections: number;
  rounds: number;
  seconds: number;
  /** Orders confirmed per round of the flat-out run. */
  orders: number;
  /** Confirmations per second of the paced run. */
  ratePerS: number;
  /** Only these scenarios (psp, psp-paced, sandbox, outbox-steady, outbox-burst); undefined = all. */
  only?: string[] | undefined;
}

type Run = Awaited<ReturnType<typeof callbackRun>>;

export async function callbackScenarios(target: SuiteTarget, s: SuiteSettings) {
  const { svc, receiver, adminToken, dbUrl, load } = target;
  const servicePid = svc.child.pid;
  const { connections, rounds, seconds } = s;
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'tijori-bench-cb-')), 'deliveries.json');
    let cpuAtStart: { service: number; pg: number } | undefined;
    const deps = {
      markStart: async () => {
        cpuAtStart = await target.cpuNow?.();
      },
      svc,
      receiver,
      adminToken,
      sandboxSigningSecret: target.sandboxSigningSecret,
      db,
      connections,
      load,
      ensureIntentOrders: async (n: number) => {
        const open = (await db.query(`SELECT count(*)::int AS n FROM payment_orders WHERE response_mode = 'INTENT' AND status = 'PENDING_PAYMENT'`)).rows[0].n;
        if (open < n) await target.ensureIntentOrders(n - open);
      },
    };
    await configureDestination(deps, target.orgId);
    let seen = (await callbackRun(deps, Math.min(300, s.orders), 0, file, { via: 'provider' })).total; // warm-up
    /** `rounds` runs of one scenario after a reset of the peak RSS, summarised under `label`. */
    const measure = async (label: string, name: string, inUnit: string, once: (already: number) => Promise<Run>) => {
      resetPeakRss(servicePid);
      const runs: Run[] = [];
      const cpu: Array<{ service: number; pg: number }> = [];
      for (let r = 0; r < rounds; r++) {
        // CPU per confirmation (or event): from the end of the run's set-up (the orders to confirm
        // made, the tables vacuumed) to the last verified delivery; the receiver's and the load
        // generator's CPU are not counted.
        cpuAtStart = undefined;
        const x = await once(seen);
        const c0 = cpuAtStart as { service: number; pg: number } | undefined;
        const c1 = await target.cpuNow?.();
        seen = x.total;
        if (c0 && c1) cpu.push({ service: Math.round(((c1.service - c0.service) * 1000) / Math.max(1, x.orders)), pg: Math.round(((c1.pg - c0.pg) * 1000) / Math.max(1, x.orders)) });
        console.error(
          `  callbacks (${name}) round ${r + 1}: ${x.confirmations_per_s} ${inUnit}, ${x.deliveries_per_s} deliveries/s, p50 ${x.latency_ms.p50} ms p99 ${x.latency_ms.p99} ms, ${x.delivered}/${x.orders} delivered${cpu.length ? `; CPU per ${inUnit.split('/')[0]?.replace(/s$/, '')} ${cpu.at(-1)?.service} + ${cpu.at(-1)?.pg} µs` : ''}`,
        );
        runs.push(x);
      }
      return {
        label,
        tijori: {
          confirmations_per_s: median(runs.map((x) => x.confirmations_per_s)),
          deliveries_per_s: median(runs.map((x) => x.deliveries_per_s)),
          p50: median(runs.map((x) => x.latency_ms.p50)),
          p99: median(runs.map((x) => x.latency_ms.p99)),
          delivered: runs.reduce((n, x) => n + x.delivered, 0),
          orders: runs.reduce((n, x) => n + x.orders, 0),
          errors: runs.reduce((n, x) => n + x.confirm_errors + (x.orders - x.delivered), 0),
          peak_rss_mb: peakRssMb(servicePid),
          ...(cpu.length ? { service_cpu_us: median(cpu.map((c) => c.service)), pg_cpu_us: median(cpu.map((c) => c.pg)) } : {}),
        },
      };
    };
    const outDeps = { ...deps, dbUrl, orgId: target.orgId };
    const all: Array<[string, () => Promise<unknown>]> = [
      ['psp', () => measure('callback delivery: PSP callbacks in as fast as possible -> HTTPS receiver', 'PSP callbacks', 'confirmations/s', (already) =>
        callbackRun(deps, s.orders, already, file, { via: 'provider' }),
      )],
      ['psp-paced', () => measure(`callback delivery: PSP callbacks in at ${s.ratePerS}/s -> HTTPS receiver`, `PSP callbacks at ${s.ratePerS}/s`, 'confirmations/s', (already) =>
        callbackRun(deps, s.ratePerS * seconds, already, file, { via: 'provider', ratePerS: s.ratePerS }),
      )],
      ['sandbox', () => measure('callback delivery: confirmations via the in-process sandbox PSP as fast as possible -> HTTPS receiver', 'sandbox pay', 'confirmations/s', (already) =>
        callbackRun(deps, s.orders, already, file, { via: 'sandbox' }),
      )],
      ['outbox-steady', () => measure(`callback delivery: events recorded by another instance (${OUTBOX_WRITERS} concurrent commits) -> HTTPS receiver`, 'outbox, steady', 'events/s recorded', (already) =>
        outboxRun(outDeps, s.orders * 2, already, file, 'steady'),
      )],
      ['outbox-burst', () => measure(`callback delivery: backlog of ${(s.orders * 2).toLocaleString('en')} events committed at once -> HTTPS receiver`, 'outbox, burst', 'events/s recorded', (already) =>
        outboxRun(outDeps, s.orders * 2, already, file, 'burst'),
      )],
    ];
    const unknown = s.only?.filter((name) => !all.some(([n]) => n === name)) ?? [];
    if (unknown.length) throw new Error(`unknown callback scenario(s): ${unknown.join(', ')} (known: ${all.map(([n]) => n).join(', ')})`);
    const results: unknown[] = [];
    for (const [name, runIt] of all) if (!s.only || s.only.includes(name)) results.push(await runIt());
    return results;
  } finally {
    await db.end();
  }
}
