/**
 * What the ledger costs an order's path from create to PAID (issue #33 item 7: ≤ 15 % CPU). Two
 * instances of the same build, each on a fresh database of its own, started together: "ledger"
 * posts as always, "no-ledger" runs with BENCH_LEDGER_OFF=1 (src/services/ledger/post.ts: the
 * writers do all their work but insert no entry). Measured alternately (A B A B), each round on
 * each: `orders` INTENT orders created through the merchant API, then confirmed by the PSP's
 * signed callbacks (what a real PSP sends), until all are PAID. The figure is CPU per order: the
 * service's process plus its PostgreSQL backends, which far less than req/s depends on what else
 * the machine runs.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SANDBOX_SIGNATURE_HEADER, signSandboxBody } from '../src/sandbox/signing.js';
import type { ExplicitRequest, LoadResult, LoadSpec } from './load.js';
import { backendCpuMs, cpuMs, freshDatabase, median, type Spawned } from './support.js';

export interface LedgerAbDeps {
  adminUrl: string;
  adminToken: string;
  sandboxSigningSecret: string;
  startService(dbUrl: string, env: Record<string, string>): Promise<Spawned>;
  load(spec: LoadSpec): Promise<LoadResult>;
}

interface Side {
  name: string;
  svc: Spawned;
  db: { name: string; url: string; drop(): Promise<void> };
  client: pg.Client;
  headers: Record<string, string>;
  perOrderUs: number[];
  seconds: number[];
  failed: number;
}

const INTENT = { amount_paise: 49_900, purpose: 'Ledger A/B', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.com', customer_phone: '9876543210', customer_consent: true };

async function post(url: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

function callback(secret: string, o: { id: string; order_id: string; provider_reference: string; amount_paise: number }, k: number): ExplicitRequest {
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'collection.updated',
    reference: o.order_id,
    provider_reference: o.provider_reference,
    status: 'SUCCESS',
    amount_paise: o.amount_paise,
    utr: String(500_000_000_000 + k),
    paid_at: new Date().toISOString(),
    failure_reason: null,
  });
  return { id: o.id, path: '/provider/sandbox/callbacks', body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(secret, body) } };
}

/** One round on one side: create n orders, confirm them all, wait for PAID; CPU per order. */
async function round(d: LedgerAbDeps, s: Side, n: number, connections: number, k0: number): Promise<void> {
  await s.client.query('VACUUM (ANALYZE) payment_orders');
  const n0 = cpuMs(s.svc.child.pid) ?? 0;
  const b0 = await backendCpuMs(d.adminUrl, s.db.name);
  const t0 = performance.now();
  const created = await d.load({ url: s.svc.line.public as string, method: 'POST', paths: ['/api/v1/merchant/payment-orders'], headers: s.headers, body: INTENT, connections, durationSeconds: 0, amount: n });
  // A create refused on an overloaded machine (the pool's connection timeout) is counted, not fatal:
  // CPU is divided by the orders that did reach PAID.
  s.failed += created.errors + created.non2xx;
  const open = (await s.client.query(`SELECT id, order_id, provider_reference, amount_paise::int AS amount_paise FROM payment_orders WHERE status = 'PENDING_PAYMENT'`)).rows;
  const requests = open.map((o, i) => callback(d.sandboxSigningSecret, o, k0 + i));
  const confirmed = await d.load({ url: s.svc.line.internal as string, method: 'POST', paths: [], headers: {}, requests, connections, durationSeconds: 0 });
  s.failed += confirmed.errors + confirmed.non2xx;
  for (let i = 0; i < 600; i++) {
    const left = (await s.client.query(`SELECT count(*)::int AS n FROM payment_orders WHERE status = 'PENDING_PAYMENT'`)).rows[0].n;
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  const paid = (await s.client.query(`SELECT count(*)::int AS n FROM payment_orders WHERE id = ANY($1::uuid[]) AND status = 'PAID'`, [open.map((o) => o.id)])).rows[0].n as number;
  const cpu = (cpuMs(s.svc.child.pid) ?? 0) - n0 + ((await backendCpuMs(d.adminUrl, s.db.name)) - b0);
  s.perOrderUs.push(Math.round((cpu * 1000) / Math.max(1, paid)));
  s.seconds.push(Math.round(seconds * 10) / 10);
  console.error(`  ledger A/B ${s.name} round ${s.perOrderUs.length}: ${paid} orders created and PAID (${s.failed} refused so far) in ${s.seconds.at(-1)} s, CPU ${s.perOrderUs.at(-1)} µs/order (service + PostgreSQL)`);
}

export async function ledgerAbScenario(d: LedgerAbDeps, o: { orders: number; rounds: number; connections: number }) {
  const sides: Side[] = [];
  try {
    for (const [name, env] of [['ledger', {}], ['no-ledger', { BENCH_LEDGER_OFF: '1' }]] as const) {
      const db = await freshDatabase(d.adminUrl);
      const svc = await d.startService(db.url, env);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const org = await post(`${svc.line.internal}/admin/orgs`, d.adminToken, { name: `Ledger AB ${name}` });
      const c = await post(`${svc.line.internal}/admin/clients`, d.adminToken, { org: org.data.id, scopes: ['collections:write', 'collections:read'], rate_limit: 1_000_000 });
      sides.push({ name, svc, db, client, headers: { 'x-service-client-id': c.data.client_id, authorization: `Bearer ${c.data.client_secret}` }, perOrderUs: [], seconds: [], failed: 0 });
    }
    // Warm-up (JIT, pools), not counted.
    for (const s of sides) {
      await round(d, s, Math.min(200, o.orders), o.connections, 0);
      s.perOrderUs.length = 0;
      s.seconds.length = 0;
      s.failed = 0;
    }
    for (let r = 0; r < o.rounds; r++) for (const s of sides) await round(d, s, o.orders, o.connections, (r + 1) * 1_000_000);
    const [on, off] = sides as [Side, Side];
    const entries = Number((await on.client.query('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
    const offEntries = Number((await off.client.query('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
    const ledger = median(on.perOrderUs);
    const noLedger = median(off.perOrderUs);
    const result = {
      orders_per_round: o.orders,
      rounds: o.rounds,
      ledger: { cpu_us_per_order: ledger, runs_us: on.perOrderUs, seconds: on.seconds, refused: on.failed, ledger_entries: entries },
      no_ledger: { cpu_us_per_order: noLedger, runs_us: off.perOrderUs, seconds: off.seconds, refused: off.failed, ledger_entries: offEntries },
      added_cpu_pct: Math.round(((ledger - noLedger) / noLedger) * 1000) / 10,
      target_pct: 15,
    };
    console.error(`  ledger A/B: ${ledger} µs/order with the ledger, ${noLedger} without: +${result.added_cpu_pct} % (target ≤ 15 %)`);
    return result;
  } finally {
    for (const s of sides) {
      await s.client.end().catch(() => undefined);
      await s.svc.stop();
      await s.db.drop();
    }
  }
}

export type LedgerAbResult = Awaited<ReturnType<typeof ledgerAbScenario>>;

export function ledgerAbFailures(r: LedgerAbResult, enforce: boolean): string[] {
  const out: string[] = [];
  if (r.ledger.ledger_entries === 0) out.push('ledger A/B: the ledger side posted no entries');
  if (r.no_ledger.ledger_entries !== 0) out.push(`ledger A/B: the no-ledger side posted ${r.no_ledger.ledger_entries} entries`);
  if (enforce && r.added_cpu_pct > r.target_pct) out.push(`ledger A/B: the ledger adds ${r.added_cpu_pct} % CPU to create → PAID (target ≤ ${r.target_pct} %)`);
  return out;
}
