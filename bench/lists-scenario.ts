/**
 * The lists scenario (`BENCH_ONLY=lists-10m`; issue #19 item 6, issue #21 item 3): a service of its
 * own on a fresh database seeded with BENCH_LIST_ROWS payment orders (default 10,000,000) and
 * BENCH_LIST_PAYOUTS payouts (default a fifth of that) over six clients of four organizations
 * (bench/lists-seed.ts), then, over HTTP on 127.0.0.1 with autocannon:
 * - the merchant API lists of one client (40 % of the rows): newest pages, status filters, date
 *   ranges, deep cursor pages;
 * - the console's order and payout lists of its organization (50 % of the rows), as 8 signed-in
 *   viewers: search by every reference, status and date filters, keyset pages;
 * each group of requests measured `rounds` times (p50/p99 per group and per kind of request, CPU
 * per request of the service and of its PostgreSQL backends), target p99 ≤ 50 ms;
 * - EXPLAIN (ANALYZE, BUFFERS) of the service's own statements for one request of each kind: which
 *   indexes serve it, and that none scans a whole table;
 * - the console's CSV export of BENCH_EXPORT_ROWS rows (default 1,000,000): total time (≤ 30 s)
 *   and the service's peak RSS (< 250 MB);
 * - the console's first page load: compressed JavaScript (≤ 300 KB).
 */
import pg from 'pg';
import type { ListQuery } from '../src/contract/lists.js';
import { listFilterOf, encodeCursor as merchantCursor } from '../src/services/shared/list-page.js';
import { ConsoleMoney, encodeCursor as consoleCursor, type MoneyListQuery } from '../src/services/console/money.js';
import type { Db, PreparedStatement, Queryable } from '../src/store/db.js';
import * as ordersRepo from '../src/store/repos/payment-order-reads-repo.js';
import * as payoutsRepo from '../src/store/repos/payouts-repo.js';
import type { Vault } from '../src/security/vault.js';
import { FIRST_LOAD_JS_LIMIT_GZ, firstLoadJsOver } from './console-bundle.js';
import type { LoadResult, LoadSpec } from './load.js';
import { type ListSeedResult, seedLists, type Tenant } from './lists-seed.js';
import { backendCpuMs, cpuMs, freshDatabase, median, peakRssMb, resetPeakRss, type Spawned } from './support.js';

export const LIST_P99_TARGET_MS = 50;
export const EXPORT_SECONDS_TARGET = 30;
export const EXPORT_RSS_TARGET_MB = 250;
const VIEWERS = 8;
const PASSWORD = 'violet-harbour-tractor-91';
const DAY = 86_400_000;

export interface ListsSettings {
  orders: number;
  payouts: number;
  exportRows: number;
  seconds: number;
  rounds: number;
  warmupSeconds: number;
  connections: number;
}

export interface ListsDeps {
  adminUrl: string;
  adminToken: string;
  load(spec: LoadSpec): Promise<LoadResult>;
  /** Starts the service (dist/main.js, as the other scenarios run it) on this database. */
  startService(dbUrl: string): Promise<Spawned>;
}

interface Case {
  label: string;
  path: string;
  /** Runs the service's own statement of this request through `q` (EXPLAIN). */
  statement(q: Queryable): Promise<unknown>;
}

interface Group {
  label: string;
  cases: Case[];
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const iso = (ms: number) => new Date(ms).toISOString();
const qs = (q: Record<string, string | undefined>) => {
  const p = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));
  return p.size ? `?${p}` : '';
};

interface Setup {
  tenants: Tenant[];
  orgId: string;
  clientPk: string;
  merchantHeaders: Record<string, string>;
  setupTokens: string[];
}

/** Four organizations, six clients; the first organization's first client is the measured merchant. */
async function createTenants(svc: Spawned, adminToken: string, db: pg.Client): Promise<Setup> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => json(`${svc.line.internal}/admin${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
  const layout: Array<{ name: string; weights: number[] }> = [
    { name: 'Lists Org A', weights: [40, 10] },
    { name: 'Lists Org B', weights: [15, 10] },
    { name: 'Lists Org C', weights: [15] },
    { name: 'Lists Org D', weights: [10] },
  ];
  const tenants: Tenant[] = [];
  let merchantHeaders: Record<string, string> = {};
  for (const o of layout) {
    const org = (await post('/orgs', { name: o.name })).data.id as string;
    await post('/routes', { org, modes: ['IMPS', 'NEFT', 'RTGS'] });
    for (const weight of o.weights) {
      const c = (await post('/clients', { org, scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], rate_limit: 1_000_000 })).data;
      const pk = (await db.query<{ id: string }>('SELECT id FROM api_clients WHERE client_id = $1', [c.client_id])).rows[0]?.id as string;
      if (tenants.length === 0) merchantHeaders = { 'x-service-client-id': c.client_id, authorization: `Bearer ${c.client_secret}` };
      tenants.push({ orgId: org, clientPk: pk, weight });
    }
  }
  const orgId = (tenants[0] as Tenant).orgId;
  const setupTokens: string[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const u = (await post('/users', { org: orgId, email: `viewer${i}@lists.example.com`, role: 'viewer' })).data;
    setupTokens.push(new URL(u.setup_url as string).hash.replace('#token=', ''));
  }
  return { tenants, orgId, clientPk: (tenants[0] as Tenant).clientPk, merchantHeaders, setupTokens };
}

/** Each viewer sets a password through its set-up link: answers the session cookies. */
async function signIn(svc: Spawned, tokens: string[]): Promise<string[]> {
  const cookies: string[] = [];
  for (const token of tokens) {
    const res = await fetch(`${svc.line.public}/console/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: PASSWORD }) });
    if (res.status !== 200) throw new Error(`console set-up: ${res.status} ${await res.text()}`);
    cookies.push((res.headers.get('set-cookie') ?? '').split(';')[0] as string);
  }
  return cookies;
}

/** A row's merchant cursor (µs key) and console cursor (µs text key) for the page after it. */
async function cursorsAt(db: pg.Client, table: 'payment_orders' | 'payouts', column: 'client_pk' | 'org_id', owner: string, before: number, status?: string) {
  const r = await db.query<{ us: string; ts: string; id: string }>(
    `SELECT (extract(epoch FROM created_at) * 1000000)::bigint::text AS us, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts, id
       FROM ${table} WHERE ${column} = $1 AND created_at < $2 AND ($3::text IS NULL OR status = $3) ORDER BY created_at DESC, id DESC LIMIT 1`,
    [owner, new Date(before), status ?? null],
  );
  const row = r.rows[0];
  if (!row) return null;
  return { merchant: merchantCursor({ createdUs: row.us, id: row.id }), console: consoleCursor({ createdAt: row.ts, id: row.id }) };
}

/** A sample of the organization's rows (TABLESAMPLE: a few random pages, not a scan). */
async function sample<R extends pg.QueryResultRow>(db: pg.Client, table: string, total: number, columns: string, where: string, orgId: string, n: number): Promise<R[]> {
  const pct = Math.min(100, (100 * n * 40) / Math.max(1, total));
  const r = await db.query<R>(`SELECT ${columns} FROM ${table} TABLESAMPLE SYSTEM (${pct}) WHERE org_id = $1 AND ${where} LIMIT ${n}`, [orgId]);
  return r.rows;
}

function groups(s: Setup, now: number, ctx: { money: (q: Queryable) => ConsoleMoney; cursors: Record<string, Awaited<ReturnType<typeof cursorsAt>>>; orders: any[]; payouts: any[] }): Group[] {
  const O = '/api/v1/merchant/payment-orders';
  const P = '/api/v1/merchant/payouts';
  const merchant = (label: string, kind: 'orders' | 'payouts', q: ListQuery): Case => ({
    label: `API ${label}`,
    path: `${kind === 'orders' ? O : P}${qs({ ...q })}`,
    statement: (db) => (kind === 'orders' ? ordersRepo.listForClient(db, listFilterOf(s.clientPk, q)) : payoutsRepo.listForClient(db, listFilterOf(s.clientPk, q))),
  });
  const consoleCase = (label: string, kind: 'orders' | 'payouts', q: { status?: string; created_from?: string; created_to?: string; search?: string; cursor?: string }): Case => {
    const mq: MoneyListQuery = {
      orgId: s.orgId,
      limit: 25,
      ...(q.status ? { status: q.status } : {}),
      ...(q.created_from ? { from: new Date(q.created_from) } : {}),
      ...(q.created_to ? { to: new Date(q.created_to) } : {}),
      ...(q.search ? { search: q.search } : {}),
      ...(q.cursor ? { cursor: q.cursor } : {}),
    };
    return {
      label: `console ${label}`,
      path: `/console/api/${kind === 'orders' ? 'payment-orders' : 'payouts'}${qs(q)}`,
      statement: (db) => (kind === 'orders' ? ctx.money(db).listOrders(mq) : ctx.money(db).listPayouts(mq)),
    };
  };
  const day = (daysAgo: number, hours = 24) => ({ created_from: iso(now - daysAgo * DAY), created_to: iso(now - daysAgo * DAY + hours * 3_600_000) });
  const c = (k: string) => ctx.cursors[k];
  const withCursor = (cases: Array<Case | null>) => cases.filter((x): x is Case => x !== null);
  const searches = (label: string, kind: 'orders' | 'payouts', values: string[]) => values.map((v) => consoleCase(label, kind, { search: v }));
  return [
    {
      label: 'merchant lists: newest page',
      cases: [
        merchant('orders, newest 20', 'orders', {}),
        merchant('orders, newest 100', 'orders', { limit: '100' }),
        merchant('payouts, newest 20', 'payouts', {}),
        merchant('payouts, newest 100', 'payouts', { limit: '100' }),
      ],
    },
    {
      label: 'merchant lists: status filter',
      cases: [
        merchant('orders, status=PAID (66 %)', 'orders', { status: 'PAID' }),
        merchant('orders, status=FAILED (6 %)', 'orders', { status: 'FAILED' }),
        merchant('orders, status=MANUALLY_CONFIRMED (1 %)', 'orders', { status: 'MANUALLY_CONFIRMED' }),
        merchant('orders, status=PENDING_PAYMENT (none)', 'orders', { status: 'PENDING_PAYMENT' }),
        merchant('payouts, status=SUCCESS (93 %)', 'payouts', { status: 'SUCCESS' }),
        merchant('payouts, status=FAILED (7 %)', 'payouts', { status: 'FAILED' }),
        merchant('payouts, status=PROCESSING (none)', 'payouts', { status: 'PROCESSING' }),
      ],
    },
    {
      label: 'merchant lists: date range',
      cases: [
        merchant('orders, last 24 h', 'orders', { created_from: iso(now - DAY) }),
        merchant('orders, one hour 10 days ago', 'orders', day(10, 1)),
        merchant('orders, one day 28 days ago', 'orders', day(28)),
        merchant('orders, created_to 20 days ago', 'orders', { created_to: iso(now - 20 * DAY) }),
        merchant('orders, FAILED in one day 15 days ago', 'orders', { status: 'FAILED', ...day(15) }),
        merchant('payouts, one hour 10 days ago', 'payouts', day(10, 1)),
        merchant('payouts, FAILED in one day 15 days ago', 'payouts', { status: 'FAILED', ...day(15) }),
      ],
    },
    {
      label: 'merchant lists: deep cursor pages',
      cases: withCursor([
        c('o7') ? merchant('orders, page after 7 days', 'orders', { cursor: c('o7')?.merchant as string }) : null,
        c('o15') ? merchant('orders, page after 15 days', 'orders', { cursor: c('o15')?.merchant as string, limit: '100' }) : null,
        c('o29') ? merchant('orders, page at the oldest end', 'orders', { cursor: c('o29')?.merchant as string }) : null,
        c('oF20') ? merchant('orders, FAILED page after 20 days', 'orders', { status: 'FAILED', cursor: c('oF20')?.merchant as string }) : null,
        c('p15') ? merchant('payouts, page after 15 days', 'payouts', { cursor: c('p15')?.merchant as string }) : null,
        c('p29') ? merchant('payouts, page at the oldest end', 'payouts', { cursor: c('p29')?.merchant as string }) : null,
      ]),
    },
    {
      label: 'console search: payment orders',
      cases: [
        ...searches('orders, by order_id', 'orders', ctx.orders.map((o) => o.order_id)),
        ...searches('orders, by merchant_order_reference', 'orders', ctx.orders.map((o) => o.merchant_order_reference)),
        ...searches('orders, by UTR', 'orders', ctx.orders.map((o) => o.bank_transaction_id)),
        ...searches('orders, by id', 'orders', ctx.orders.slice(0, 5).map((o) => o.id)),
        consoleCase('orders, no match', 'orders', { search: 'INV-9-404' }),
      ],
    },
    {
      label: 'console search: payouts',
      cases: [
        ...searches('payouts, by transaction_id', 'payouts', ctx.payouts.map((p) => p.transaction_id)),
        ...searches('payouts, by client_reference', 'payouts', ctx.payouts.map((p) => p.client_reference)),
        ...searches('payouts, by UTR', 'payouts', ctx.payouts.map((p) => p.utr)),
        consoleCase('payouts, no match', 'payouts', { search: 'VND-9-404' }),
      ],
    },
    {
      label: 'console lists: status and date filters',
      cases: [
        consoleCase('orders, status=FAILED', 'orders', { status: 'FAILED' }),
        consoleCase('orders, status=MANUALLY_CONFIRMED', 'orders', { status: 'MANUALLY_CONFIRMED' }),
        consoleCase('orders, PAID in one day 15 days ago', 'orders', { status: 'PAID', ...day(15) }),
        consoleCase('orders, one hour 10 days ago', 'orders', day(10, 1)),
        consoleCase('payouts, status=FAILED', 'payouts', { status: 'FAILED' }),
        consoleCase('payouts, SUCCESS in one day 15 days ago', 'payouts', { status: 'SUCCESS', ...day(15) }),
      ],
    },
    {
      label: 'console lists: keyset pages',
      cases: withCursor([
        consoleCase('orders, newest 25', 'orders', {}),
        consoleCase('payouts, newest 25', 'payouts', {}),
        c('co15') ? consoleCase('orders, page after 15 days', 'orders', { cursor: c('co15')?.console as string }) : null,
        c('co29') ? consoleCase('orders, page at the oldest end', 'orders', { cursor: c('co29')?.console as string }) : null,
        c('coF20') ? consoleCase('orders, FAILED page after 20 days', 'orders', { status: 'FAILED', cursor: c('coF20')?.console as string }) : null,
        c('cp15') ? consoleCase('payouts, page after 15 days', 'payouts', { cursor: c('cp15')?.console as string }) : null,
      ]),
    },
  ];
}

/** A Queryable that EXPLAINs the statements it is given (prepared ones as the generic plan the service may settle on) and answers no rows. */
function explainer(db: pg.Client, plans: unknown[]): Queryable {
  const literal = (v: unknown) => (v === null || v === undefined ? 'NULL' : db.escapeLiteral(v instanceof Date ? v.toISOString() : Array.isArray(v) ? `{${v.join(',')}}` : String(v)));
  return {
    async query(text: string | PreparedStatement, values: unknown[] = []) {
      if (typeof text === 'string') {
        plans.push((await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values)).rows[0]['QUERY PLAN'][0]);
      } else {
        await db.query(`PREPARE bench_explain AS ${text.text}`);
        try {
          await db.query('SET plan_cache_mode = force_generic_plan');
          plans.push((await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE bench_explain(${values.map(literal).join(', ')})`)).rows[0]['QUERY PLAN'][0]);
        } finally {
          await db.query('RESET plan_cache_mode');
          await db.query('DEALLOCATE bench_explain');
        }
      }
      return { rows: [], rowCount: 0, command: 'SELECT', oid: 0, fields: [] } as never;
    },
  };
}

interface PlanSummary {
  label: string;
  execution_ms: number;
  buffers: number;
  indexes: string[];
  full_scans: string[];
}

function summarisePlan(label: string, plan: any): PlanSummary {
  const indexes = new Set<string>();
  const fullScans = new Set<string>();
  const walk = (n: any) => {
    if (n['Index Name']) indexes.add(n['Index Name']);
    if (n['Node Type'] === 'Seq Scan' && ['payment_orders', 'payouts', 'payout_attempts'].includes(n['Relation Name'])) fullScans.add(n['Relation Name']);
    for (const child of n.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  return {
    label,
    execution_ms: Math.round(plan['Execution Time'] * 100) / 100,
    buffers: (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0),
    indexes: [...indexes],
    full_scans: [...fullScans],
  };
}

interface Measured extends LoadResult {
  service_cpu_us: number;
  pg_cpu_us: number;
}

/** The console's CSV export streamed to the end: rows, time to the first byte and to the last, peak RSS. */
async function exportCsv(svc: Spawned, cookie: string, orgId: string, db: pg.Client, rows: number) {
  const from = (
    await db.query<{ ts: string | null }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts FROM payment_orders WHERE org_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [orgId, rows - 1],
    )
  ).rows[0]?.ts;
  const path = `/console/api/payment-orders/export${from ? qs({ created_from: from }) : ''}`;
  resetPeakRss(svc.child.pid);
  const cpu0 = cpuMs(svc.child.pid) ?? 0;
  const t0 = performance.now();
  const res = await fetch(`${svc.line.public}${path}`, { headers: { cookie } });
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
  let firstByte = 0;
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!firstByte) firstByte = performance.now() - t0;
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    path,
    rows: lines - 1,
    mb: Math.round(bytes / 2 ** 20),
    seconds: Math.round(seconds * 10) / 10,
    first_byte_ms: Math.round(firstByte),
    service_cpu_s: Math.round(((cpuMs(svc.child.pid) ?? 0) - cpu0) / 100) / 10,
    peak_rss_mb: peakRssMb(svc.child.pid),
  };
}

/** A database kept by an earlier run (BENCH_KEEP_DB=1), named by BENCH_LISTS_DB: its tables are used as they are. */
function keptDatabase(adminUrl: string, name: string) {
  if (!/^tijori_bench_\d+$/.test(name)) throw new Error(`BENCH_LISTS_DB: ${name} is not a kept bench database`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), drop: async () => undefined };
}

/**
 * The tenants of a kept, seeded database (createTenants' layout, found by name and age), a new
 * secret of the measured client (rotated: the old one was not kept) and new viewers to sign in.
 */
async function reuseTenants(svc: Spawned, adminToken: string, db: pg.Client, s: ListsSettings): Promise<{ setup: Setup; seeded: ListSeedResult }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => json(`${svc.line.internal}/admin${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
  const rows = (
    await db.query<{ org_id: string; id: string; client_id: string }>(
      `SELECT o.id AS org_id, c.id, c.client_id FROM organizations o JOIN api_clients c ON c.org_id = o.id
        WHERE o.name LIKE 'Lists Org %' AND NOT c.console_principal ORDER BY o.name, c.created_at, c.id`,
    )
  ).rows;
  const first = rows[0];
  if (!first) throw new Error('BENCH_LISTS_DB: no lists tenants in that database');
  const tenants: Tenant[] = rows.map((r) => ({ orgId: r.org_id, clientPk: r.id, weight: 1 }));
  const secret = (await post(`/clients/${first.client_id}/rotate-secret`, {})).data.client_secret as string;
  const stamp = Date.now();
  const setupTokens: string[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const u = (await post('/users', { org: first.org_id, email: `viewer${i}-${stamp}@lists.example.com`, role: 'viewer' })).data;
    setupTokens.push(new URL(u.setup_url as string).hash.replace('#token=', ''));
  }
  const count = async (t: string) => Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${t}`)).rows[0]?.n);
  const seeded = { orders: await count('payment_orders'), payouts: await count('payouts'), seconds: 0 } as ListSeedResult;
  if (seeded.orders < s.orders) console.error(`  lists: the kept database holds ${seeded.orders.toLocaleString('en')} orders (BENCH_LIST_ROWS ${s.orders.toLocaleString('en')})`);
  return {
    setup: { tenants, orgId: first.org_id, clientPk: first.id, merchantHeaders: { 'x-service-client-id': first.client_id, authorization: `Bearer ${secret}` }, setupTokens },
    seeded,
  };
}

export async function listsScenario(d: ListsDeps, s: ListsSettings) {
  const kept = process.env.BENCH_LISTS_DB;
  const database = kept ? keptDatabase(d.adminUrl, kept) : await freshDatabase(d.adminUrl);
  const db = new pg.Client({ connectionString: database.url });
  let svc: Spawned | undefined;
  try {
    svc = await d.startService(database.url);
    await db.connect();
    let setup: Setup;
    let seeded: ListSeedResult;
    if (kept) {
      ({ setup, seeded } = await reuseTenants(svc, d.adminToken, db, s));
      console.error(`  lists: reusing ${kept} (${seeded.orders.toLocaleString('en')} orders, ${seeded.payouts.toLocaleString('en')} payouts)`);
    } else {
      setup = await createTenants(svc, d.adminToken, db);
      // The service stops while the tables are loaded (seedLists drops and rebuilds their
      // indexes), and starts again on the loaded tables, as after a restore.
      await svc.stop();
      console.error(`  lists: seeding ${s.orders.toLocaleString('en')} payment orders and ${s.payouts.toLocaleString('en')} payouts`);
      seeded = await seedLists(database.url, { orders: s.orders, payouts: s.payouts, tenants: setup.tenants, days: 30 });
      console.error(`  lists: seeded in ${seeded.seconds} s (${JSON.stringify(seeded)})`);
      svc = await d.startService(database.url);
    }
    const cookies = await signIn(svc, setup.setupTokens);
    const now = Date.now();
    const cursors: Record<string, Awaited<ReturnType<typeof cursorsAt>>> = {
      o7: await cursorsAt(db, 'payment_orders', 'client_pk', setup.clientPk, now - 7 * DAY),
      o15: await cursorsAt(db, 'payment_orders', 'client_pk', setup.clientPk, now - 15 * DAY),
      o29: await cursorsAt(db, 'payment_orders', 'client_pk', setup.clientPk, now - 29.95 * DAY),
      oF20: await cursorsAt(db, 'payment_orders', 'client_pk', setup.clientPk, now - 20 * DAY, 'FAILED'),
      p15: await cursorsAt(db, 'payouts', 'client_pk', setup.clientPk, now - 15 * DAY),
      p29: await cursorsAt(db, 'payouts', 'client_pk', setup.clientPk, now - 29.95 * DAY),
      co15: await cursorsAt(db, 'payment_orders', 'org_id', setup.orgId, now - 15 * DAY),
      co29: await cursorsAt(db, 'payment_orders', 'org_id', setup.orgId, now - 29.95 * DAY),
      coF20: await cursorsAt(db, 'payment_orders', 'org_id', setup.orgId, now - 20 * DAY, 'FAILED'),
      cp15: await cursorsAt(db, 'payouts', 'org_id', setup.orgId, now - 15 * DAY),
    };
    const orders = await sample(db, 'payment_orders', s.orders, 'id, order_id, merchant_order_reference, bank_transaction_id', 'merchant_order_reference IS NOT NULL AND bank_transaction_id IS NOT NULL', setup.orgId, 20);
    const payouts = await sample(db, 'payouts', s.payouts, 'transaction_id, client_reference, utr', 'client_reference IS NOT NULL AND utr IS NOT NULL', setup.orgId, 20);
    const noVault = {} as Vault; // the lists never decrypt or sign
    // The statements explained here run on `q` (no standby in the bench): list reads go through
    // replicaReads.read, which for this Db reads on `q` itself.
    const onQ = (q: Queryable) => ({ query: q.query.bind(q), replicaReads: { read: <T>(fn: (r: Queryable) => Promise<T>) => fn(q) } });
    const money = (q: Queryable) => new ConsoleMoney({ db: onQ(q) as unknown as Db, vault: noVault, publicBaseUrl: () => '' });
    const all = groups(setup, now, { money, cursors, orders, payouts });

    // Plans of the service's statements, one request of each kind, on the loaded tables.
    const plans: PlanSummary[] = [];
    for (const g of all) {
      for (const c of g.cases) {
        if (plans.some((p) => p.label === c.label)) continue;
        const got: unknown[] = [];
        await c.statement(explainer(db, got));
        for (const p of got) plans.push(summarisePlan(c.label, p));
      }
    }

    for (const p of plans) console.error(`  plan: ${p.label}: ${p.execution_ms} ms, ${p.buffers} buffers, ${p.indexes.join(' + ') || 'no index'}${p.full_scans.length ? `, FULL SCAN of ${p.full_scans.join(', ')}` : ''}`);
    const specOf = (g: Group, seconds: number): LoadSpec => {
      const isConsole = g.cases[0]?.path.startsWith('/console/') ?? false;
      return {
        url: svc?.line.public as string,
        method: 'GET',
        paths: g.cases.map((c) => c.path),
        labels: g.cases.map((c) => c.label),
        headers: isConsole ? {} : setup.merchantHeaders,
        ...(isConsole ? { headerSets: cookies.map((cookie) => ({ cookie })) } : {}),
        connections: s.connections,
        durationSeconds: seconds,
      };
    };
    const pid = svc.child.pid;
    const measure = async (spec: LoadSpec): Promise<Measured> => {
      const n0 = cpuMs(pid) ?? 0;
      const b0 = await backendCpuMs(d.adminUrl, database.name, 'tijori');
      const x = await d.load(spec);
      const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, x.requests));
      return { ...x, service_cpu_us: per((cpuMs(pid) ?? 0) - n0), pg_cpu_us: per((await backendCpuMs(d.adminUrl, database.name, 'tijori')) - b0) };
    };
    // One warm-up over every kind of request (JIT, pools, prepared statements, caches).
    for (const g of all) await d.load(specOf(g, s.warmupSeconds));
    const results = [];
    for (const g of all) {
      resetPeakRss(pid);
      const xs: Measured[] = [];
      for (let r = 0; r < s.rounds; r++) xs.push(await measure(specOf(g, s.seconds)));
      const labels = [...new Set(g.cases.map((c) => c.label))];
      const byLabel = Object.fromEntries(
        labels.map((l) => {
          const runs = xs.map((x) => x.byLabel?.[l]).filter((v) => v !== undefined);
          return [l, { requests: runs.reduce((n, v) => n + v.requests, 0), p50: median(runs.map((v) => v.p50)), p99: median(runs.map((v) => v.p99)), non2xx: runs.reduce((n, v) => n + v.non2xx, 0) }];
        }),
      );
      const summary = {
        rps: median(xs.map((x) => x.rps)),
        p50: median(xs.map((x) => x.p50)),
        p99: median(xs.map((x) => x.p99)),
        errors: xs.reduce((n, x) => n + x.errors + x.non2xx, 0),
        service_cpu_us: median(xs.map((x) => x.service_cpu_us)),
        pg_cpu_us: median(xs.map((x) => x.pg_cpu_us)),
        peak_rss_mb: peakRssMb(pid),
      };
      const worst = Object.entries(byLabel).sort((a, b) => b[1].p99 - a[1].p99)[0];
      console.error(
        `  ${g.label}: ${summary.rps} req/s p50 ${summary.p50} ms p99 ${summary.p99} ms errors ${summary.errors}; CPU/request ${summary.service_cpu_us} + ${summary.pg_cpu_us} µs; slowest kind: ${worst?.[0]} p99 ${worst?.[1].p99} ms`,
      );
      results.push({ label: `${g.label} (${s.orders.toLocaleString('en')} orders)`, tijori: summary, by_label: byLabel });
    }

    const orgOrders = Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM payment_orders WHERE org_id = $1', [setup.orgId])).rows[0]?.n);
    const exported = await exportCsv(svc, cookies[0] as string, setup.orgId, db, s.exportRows);
    console.error(`  lists: CSV export of ${exported.rows.toLocaleString('en')} rows in ${exported.seconds} s, peak RSS ${exported.peak_rss_mb} MB`);
    const bundle = await firstLoadJsOver(svc.line.public as string);
    console.error(`  lists: console first page load ${bundle.gzip_bytes.toLocaleString('en')} bytes of gzipped JavaScript in ${bundle.files.length} file(s)`);
    const slowPlans = plans.filter((p) => p.full_scans.length > 0);
    for (const p of slowPlans) console.error(`  lists: ${p.label}: full scan of ${p.full_scans.join(', ')}`);
    return {
      seeded,
      groups: results,
      plans,
      // created_from is the exact time of the last wanted row; the service reads it as a Date
      // (milliseconds), so rows of the same millisecond just before it may come too.
      export: { ...exported, expected_rows: Math.min(s.exportRows, orgOrders) },
      console_first_load: { gzip_bytes: bundle.gzip_bytes, bytes: bundle.bytes, files: bundle.files.length },
      targets: {
        list_p99_ms: LIST_P99_TARGET_MS,
        list_p99_met: results.every((r) => r.tijori.p99 <= LIST_P99_TARGET_MS),
        export_seconds: EXPORT_SECONDS_TARGET,
        export_seconds_met: exported.seconds <= EXPORT_SECONDS_TARGET,
        export_rss_mb: EXPORT_RSS_TARGET_MB,
        export_rss_met: (exported.peak_rss_mb ?? Infinity) < EXPORT_RSS_TARGET_MB,
        first_load_gzip_bytes: FIRST_LOAD_JS_LIMIT_GZ,
        first_load_met: bundle.gzip_bytes <= FIRST_LOAD_JS_LIMIT_GZ,
        plans_use_indexes: slowPlans.length === 0,
      },
    };
  } finally {
    await svc?.stop();
    await db.end().catch(() => undefined);
    if (kept || process.env.BENCH_KEEP_DB === '1') console.error(`kept database ${database.name}`);
    else await database.drop();
  }
}
