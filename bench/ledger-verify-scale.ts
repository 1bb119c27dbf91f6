/**
 * `tijori ledger verify` over a journal of 10,000,000 entries (issue #33 item 7: measured and
 * documented; BENCH_SMOKE: 100,000). A fresh database migrated by the service; the entries (two
 * postings each, a confirmed collection's) written directly in SQL by INSERT … SELECT
 * generate_series into the migration's own tables, a million per statement, with
 * session_replication_role = replica so that the per-row balance triggers (deferred constraint
 * triggers: 30 million calls) do not run: every seeded entry balances by construction, and verify
 * recomputes that anyway. The records (orders) are not seeded: verify then reports the journal's
 * balances as mismatches, which is what the measurement expects (it counts them); the records side
 * (sums over the organization's orders, refunds, payouts, settlements) is measured by the lists
 * scenario's 10,000,000 orders, not here.
 *
 * Measured: the wall time of GET /admin/orgs/:org/ledger/verify (what the CLI calls), the
 * service's CPU and its PostgreSQL backends' CPU, and the load average.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { Agent, fetch } from 'undici';
import { backendCpuMs, cpuMs, freshDatabase, type Spawned } from './support.js';

export interface VerifyScaleDeps {
  adminUrl: string;
  adminToken: string;
  startService(dbUrl: string): Promise<Spawned>;
}

/** Verify over 10M entries answers after minutes; fetch's own 300 s header time-out would cut it off. */
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

async function call(svc: Spawned, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${svc.line.internal}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(1_800_000),
    dispatcher: patient,
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function verifyScaleScenario(d: VerifyScaleDeps, entries: number) {
  const database = await freshDatabase(d.adminUrl);
  const db = new pg.Client({ connectionString: database.url });
  let svc: Spawned | undefined;
  try {
    svc = await d.startService(database.url);
    await db.connect();
    const org = (await call(svc, d.adminToken, 'POST', '/admin/orgs', { name: 'Bench Ledger' })).body.data.id as string;
    const s0 = Date.now();
    await db.query('SET session_replication_role = replica');
    const batch = 1_000_000;
    for (let from = 0; from < entries; from += batch) {
      const n = Math.min(batch, entries - from);
      await db.query(
        `WITH e AS (INSERT INTO ledger_entries (id, org_id, provider_account_id, kind, source_type, source_id)
                    SELECT gen_random_uuid(), $1, '00000000-0000-0000-0000-000000000000', 'collection_confirmed', 'payment_order', gen_random_uuid()
                      FROM generate_series(1, $2::int) RETURNING id)
         INSERT INTO ledger_postings (entry_id, account, amount_paise)
         SELECT id, 'collections_receivable', 10000 FROM e UNION ALL SELECT id, 'collections', -10000 FROM e`,
        [org, n],
      );
    }
    await db.query('SET session_replication_role = origin');
    await db.query('VACUUM (ANALYZE) ledger_entries, ledger_postings');
    await db.query('CHECKPOINT');
    const seedSeconds = Math.round((Date.now() - s0) / 1000);
    const size = (await db.query(`SELECT pg_size_pretty(pg_total_relation_size('ledger_entries') + pg_total_relation_size('ledger_postings')) AS s`)).rows[0].s as string;
    console.error(`  ledger verify: seeded ${entries.toLocaleString('en')} entries (${size} with indexes) in ${seedSeconds} s`);

    const runs: Array<{ seconds: number; service_cpu_s: number; pg_cpu_s: number; loadavg_1m: number; status: number }> = [];
    let answer: any = null;
    for (let r = 0; r < 2; r++) {
      const pid = svc.child.pid;
      const c0 = cpuMs(pid) ?? 0;
      const b0 = await backendCpuMs(d.adminUrl, database.name);
      const load = loadavg()[0] as number;
      const t0 = performance.now();
      const v = await call(svc, d.adminToken, 'GET', `/admin/orgs/${org}/ledger/verify`);
      const seconds = (performance.now() - t0) / 1000;
      answer = v.body;
      runs.push({
        seconds: Math.round(seconds * 10) / 10,
        service_cpu_s: Math.round(((cpuMs(pid) ?? 0) - c0) / 100) / 10,
        pg_cpu_s: Math.round(((await backendCpuMs(d.adminUrl, database.name)) - b0) / 100) / 10,
        loadavg_1m: Math.round(load * 100) / 100,
        status: v.status,
      });
      console.error(`  ledger verify over ${entries.toLocaleString('en')} entries: HTTP ${v.status} in ${runs.at(-1)?.seconds} s (PostgreSQL CPU ${runs.at(-1)?.pg_cpu_s} s), load average ${runs.at(-1)?.loadavg_1m}`);
    }
    const data = answer?.data;
    return {
      entries,
      seed_seconds: seedSeconds,
      journal_size: size,
      runs,
      answer: data ? { entries: data.entries, balanced: data.balanced, mismatches: data.mismatches.length } : answer,
    };
  } finally {
    await db.end().catch(() => undefined);
    await svc?.stop();
    if (process.env.BENCH_KEEP_DB === '1') console.error(`kept database ${database.name}`);
    else await database.drop();
  }
}

export type VerifyScaleResult = Awaited<ReturnType<typeof verifyScaleScenario>>;

/** A verify that does not answer 200 with every seeded entry counted and balanced fails the run. */
export function verifyScaleFailures(r: VerifyScaleResult): string[] {
  const bad = r.runs.filter((x) => x.status !== 200);
  if (bad.length > 0) return [`ledger verify over ${r.entries} entries: HTTP ${bad.map((x) => x.status).join(', ')}`];
  if (r.answer?.entries !== r.entries || r.answer?.balanced !== true) return [`ledger verify over ${r.entries} entries: ${JSON.stringify(r.answer)}`];
  return [];
}
