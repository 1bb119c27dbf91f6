/**
 * Issue #33 item 7: importing and reconciling one settlement of 1,000,000 lines (BENCH_SMOKE:
 * 10,000) through the normal path: `POST /admin/settlements/sync` (what `tijori settlements sync`
 * calls) makes the service ask its sandbox PSP over HTTP for the settlement, page its lines (1,000
 * in the list answer, then 5,000 per page of the lines route), stage them, match them by joins and
 * store the settlement with its ledger entry. Target: ≤ 60 s and a peak RSS of the service ≤ 300 MB.
 *
 * Seeded directly in SQL, because the sandbox's own `settle` makes one line per paid collection
 * (a million collections through its pay API would take an hour here): the paid orders in
 * Tijori's payment_orders (order_id = orderIdFor(id), as the service makes them), and one sandbox
 * settlement over all of them in the sandbox's tables, every 1,000th line settled 100 paise short
 * (an AMOUNT_MISMATCH break each). A fresh service and database of its own: nothing else runs.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { orderIdFor } from '../src/services/payin/payment-order-view.js';
import { newRowId } from '../src/store/row-id.js';
import { backendCpuMs, cpuMs, freshDatabase, peakRssMb, resetPeakRss, type Spawned } from './support.js';

export interface SettlementScaleDeps {
  adminUrl: string;
  adminToken: string;
  startService(dbUrl: string): Promise<Spawned>;
}

export interface SettlementScaleResult {
  lines: number;
  seed_seconds: number;
  import_seconds: number;
  lines_per_s: number;
  peak_rss_mb: number | null;
  service_cpu_s: number;
  pg_cpu_s: number;
  loadavg_1m_before: number;
  loadavg_1m_after: number;
  counts: { settlements_new: number; lines_new: number; matched: number; breaks: number };
  expected: { matched: number; breaks: number };
  again: { settlements_new: number; lines_new: number };
  targets: { seconds: number; rss_mb: number; enforced: boolean };
}

async function admin(svc: Spawned, token: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${svc.line.internal}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

const SHORT_EVERY = 1_000;

async function seed(db: pg.Client, orgId: string, n: number): Promise<void> {
  const clientPk = (await db.query('SELECT id FROM api_clients WHERE org_id = $1 LIMIT 1', [orgId])).rows[0].id as string;
  const batch = 50_000;
  for (let from = 0; from < n; from += batch) {
    const ids: string[] = [];
    const orderIds: string[] = [];
    for (let i = from; i < Math.min(n, from + batch); i++) {
      const id = newRowId();
      ids.push(id);
      orderIds.push(orderIdFor(id));
    }
    await db.query(
      `INSERT INTO payment_orders (id, order_id, org_id, client_pk, amount_paise, purpose, response_mode, status, provider, provider_status,
         expires_in_minutes, bank_transaction_id, confirmed_at)
       SELECT id, order_id, $3, $4, 10000 + (row_number() OVER ()) % 5000, 'bench settled', 'INTENT', 'PAID', 'sandbox', 'SUCCESS', 30, 'BENCHUTR' || order_id, now() - interval '1 day'
         FROM unnest($1::uuid[], $2::text[]) AS v(id, order_id)`,
      [ids, orderIds, orgId, clientPk],
    );
  }
  // One settlement of every order, in id order; fee 2 %, GST 18 % of the fee (the sandbox's rules).
  await db.query(
    `WITH l AS (SELECT row_number() OVER (ORDER BY id) AS n, order_id, amount_paise FROM payment_orders WHERE org_id = $1 AND purpose = 'bench settled'),
          a AS (SELECT n, order_id, CASE WHEN n % $3 = 0 THEN amount_paise - 100 ELSE amount_paise END AS amount FROM l),
          f AS (SELECT n, order_id, amount, round(amount * 0.02)::bigint AS fee FROM a),
          g AS (SELECT n, order_id, amount, fee, round(fee * 0.18)::bigint AS tax FROM f),
          s AS (INSERT INTO sandbox_settlements (id, merchant, utr, gross_paise, fees_paise, tax_paise, refunds_paise, net_paise)
                SELECT $2, $1, 'BENCHSETTLE00001', sum(amount), sum(fee), sum(tax), 0, sum(amount) - sum(fee) - sum(tax) FROM g RETURNING id)
     INSERT INTO sandbox_settlement_lines (id, settlement_id, type, collection_reference, provider_reference, amount_paise, fee_paise, tax_paise)
     SELECT s.id || '-' || lpad(n::text, 7, '0'), s.id, 'PAYMENT', order_id, 'BENCHPAY' || n, amount, fee, tax FROM g, s`,
    [orgId, 'SBXSETBENCH000000001', SHORT_EVERY],
  );
  await db.query('VACUUM (ANALYZE)');
  await db.query('CHECKPOINT');
}

export async function settlementScaleScenario(d: SettlementScaleDeps, n: number, enforce: boolean): Promise<SettlementScaleResult> {
  const database = await freshDatabase(d.adminUrl);
  const db = new pg.Client({ connectionString: database.url });
  let svc: Spawned | undefined;
  try {
    svc = await d.startService(database.url);
    await db.connect();
    const org = await admin(svc, d.adminToken, '/admin/orgs', { name: 'Bench Settlements' });
    await admin(svc, d.adminToken, '/admin/clients', { org: org.data.id, scopes: ['collections:read'], rate_limit: 1000 });
    const s0 = Date.now();
    await seed(db, org.data.id, n);
    const seedSeconds = Math.round((Date.now() - s0) / 100) / 10;
    console.error(`  settlements: seeded ${n.toLocaleString('en')} paid orders and one sandbox settlement of them in ${seedSeconds} s`);

    const pid = svc.child.pid;
    resetPeakRss(pid);
    const cpu0 = cpuMs(pid) ?? 0;
    const pg0 = await backendCpuMs(d.adminUrl, database.name);
    const load0 = loadavg()[0] as number;
    const t0 = performance.now();
    const counts = (await admin(svc, d.adminToken, '/admin/settlements/sync', { org: org.data.id })).data;
    const seconds = (performance.now() - t0) / 1000;
    const rss = peakRssMb(pid);
    const serviceCpu = ((cpuMs(pid) ?? 0) - cpu0) / 1000;
    const pgCpu = ((await backendCpuMs(d.adminUrl, database.name)) - pg0) / 1000;
    const load1 = loadavg()[0] as number;
    const again = (await admin(svc, d.adminToken, '/admin/settlements/sync', { org: org.data.id })).data;
    const r: SettlementScaleResult = {
      lines: n,
      seed_seconds: seedSeconds,
      import_seconds: Math.round(seconds * 10) / 10,
      lines_per_s: Math.round(n / seconds),
      peak_rss_mb: rss,
      service_cpu_s: Math.round(serviceCpu * 10) / 10,
      pg_cpu_s: Math.round(pgCpu * 10) / 10,
      loadavg_1m_before: Math.round(load0 * 100) / 100,
      loadavg_1m_after: Math.round(load1 * 100) / 100,
      counts,
      expected: { matched: n - Math.floor(n / SHORT_EVERY), breaks: Math.floor(n / SHORT_EVERY) },
      again: { settlements_new: again.settlements_new, lines_new: again.lines_new },
      targets: { seconds: 60, rss_mb: 300, enforced: enforce },
    };
    console.error(
      `  settlements: ${n.toLocaleString('en')} lines imported and reconciled in ${r.import_seconds} s (${r.lines_per_s.toLocaleString('en')} lines/s), ` +
        `peak RSS ${rss} MB, CPU ${r.service_cpu_s} s service + ${r.pg_cpu_s} s PostgreSQL; load average ${r.loadavg_1m_before} → ${r.loadavg_1m_after}`,
    );
    return r;
  } finally {
    await db.end().catch(() => undefined);
    await svc?.stop();
    if (process.env.BENCH_KEEP_DB === '1') console.error(`kept database ${database.name}`);
    else await database.drop();
  }
}

/** What makes the run fail: wrong counts always; the time and memory targets in the full run. */
export function settlementFailures(r: SettlementScaleResult): string[] {
  const out: string[] = [];
  if (r.counts.lines_new !== r.lines || r.counts.matched !== r.expected.matched || r.counts.breaks !== r.expected.breaks || r.counts.settlements_new !== 1) {
    out.push(`settlement import: counts ${JSON.stringify(r.counts)}, expected ${r.lines} lines, ${JSON.stringify(r.expected)}`);
  }
  if (r.again.settlements_new !== 0 || r.again.lines_new !== 0) out.push(`settlement import: a second sync stored ${JSON.stringify(r.again)}`);
  if (r.targets.enforced && r.import_seconds > r.targets.seconds) out.push(`settlement import: ${r.import_seconds} s for ${r.lines} lines (target ≤ ${r.targets.seconds} s)`);
  if (r.targets.enforced && (r.peak_rss_mb ?? 0) > r.targets.rss_mb) out.push(`settlement import: peak RSS ${r.peak_rss_mb} MB (target ≤ ${r.targets.rss_mb} MB)`);
  return out;
}
