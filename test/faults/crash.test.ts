/**
 * kill -9 under mixed load (issue 8 §2): the service runs as a child process and is SIGKILLed at a
 * random moment while orders are created and paid at the sandbox (with and without its callback),
 * payouts are created and orders are polled (live checks). The sandbox lives in the same process,
 * so the "bank" dies too and resumes from its tables. Short: 3 rounds; full: 20. After a final
 * restart: every 2xx create is in the database, every uncertain create retried with its key makes
 * exactly one resource, every order paid at the sandbox is PAID with exactly one collection.received
 * event, every payout executed at the bank at most once (SUCCESS ⇔ exactly once), and every event is
 * delivered to the HTTPS receiver.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTrustedReceiver, type TrustedReceiver } from '../callbacks/helpers.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { type ChildService, type Creds, killChildren, merchantCall, report, size, sleep, startChild, until } from './helpers.js';
import { ledgerViolations } from './ledger-check.js';

const ROUNDS = size('FAULTS_CRASH_ROUNDS', 3, 20);
const WORKERS = 4;

let database: TestDatabase;
let rx: TrustedReceiver;
let dataDir: string;
let env: Record<string, string>;
const adminToken = randomBytes(16).toString('hex');

before(async () => {
  database = await createTestDatabase();
  rx = await startTrustedReceiver();
  dataDir = mkdtempSync(join(tmpdir(), 'tijori-faults-crash-'));
  env = {
    ...FAST_PAYOUT_ENV, ...rx.env, CALLBACK_RETRY_SCALE: '0.0004',
    DATABASE_URL: database.url, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'),
  };
});
after(async () => {
  killChildren();
  await rx?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function admin(c: ChildService, method: string, path: string, body?: unknown) {
  const res = await fetch(`${c.internal}/admin${path}`, {
    method, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}), signal: AbortSignal.timeout(5_000),
  });
  return { status: res.status, body: (await res.json()) as any };
}

interface Create { path: string; body: Record<string, unknown>; key: string; status: number; id?: string }

const INTENT = { response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true };

test(`kill -9 at random moments under mixed load (${ROUNDS} rounds): nothing lost, doubled or undelivered`, { timeout: 900_000 }, async () => {
  const started = Date.now();
  const creates: Create[] = [];
  let creds: Creds | undefined;
  let operations = 0;
  let sandboxPays = 0;
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const c = await startChild(env);
    if (!creds) {
      const org = (await admin(c, 'POST', '/orgs', { name: 'crash' })).body.data;
      const cl = (await admin(c, 'POST', '/clients', { org: org.id, scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], rate_limit: 1_000_000 })).body.data;
      creds = { clientId: cl.client_id, secret: cl.client_secret };
      assert.equal((await admin(c, 'POST', '/routes', { org: org.id, modes: ['IMPS'] })).status, 201);
      for (const kind of ['payin', 'payout']) {
        const d = await admin(c, 'PUT', `/orgs/${org.id}/destinations/${kind}`, { url: rx.rx.url(`/${kind}`) });
        rx.secrets[`/${kind}`] = d.body.data.signing_secret;
      }
    }
    const cr = creds;
    let alive = true;
    const worker = async () => {
      while (alive) {
        const i = n++;
        const op = i % 5;
        operations++;
        if (op <= 2) {
          const isPayout = op === 2;
          const body = isPayout
            ? { beneficiary: inlineBeneficiary(), amount_paise: 10_000 + i * 100, mode: 'IMPS', client_reference: `crash-${i}` }
            : { amount_paise: 10_000 + i, purpose: 'crash', merchant_order_reference: `crash-${i}`, ...(op === 1 ? INTENT : {}) };
          const cre: Create = { path: isPayout ? '/merchant/payouts' : '/merchant/payment-orders', body, key: randomUUID(), status: 0 };
          creates.push(cre);
          const r = await merchantCall(c.public, cr, 'POST', cre.path, body, cre.key, 5_000);
          cre.status = r.status;
          cre.id = r.body?.data?.id;
          if (op === 1 && cre.id && alive) {
            // Pay at the sandbox, half of the time without its callback (only a live check finds out).
            const paid = await admin(c, 'POST', `/sandbox/payment-orders/${cre.id}/pay`, { callback: i % 2 === 0 }).catch(() => undefined);
            if (paid?.status === 200) sandboxPays++;
          }
        } else {
          const orders = creates.filter((x) => x.id && x.path.includes('payment'));
          const o = orders[randomInt(Math.max(1, orders.length))];
          if (o) await merchantCall(c.public, cr, 'GET', `/merchant/payment-orders/${o.id}`, undefined, undefined, 5_000);
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await sleep(300 + randomInt(1_700));
    c.proc.kill('SIGKILL');
    assert.equal(await c.exited, 'SIGKILL');
    alive = false;
    await Promise.all(workers);
  }
  assert.ok(creds);
  // The dead instances' delivery claims would run out after their 60 s lease: let them run out now.
  await database.db.query(`UPDATE callback_deliveries SET next_attempt_at = now() WHERE status = 'pending' AND claim_token IS NOT NULL`);
  const final = await startChild(env);
  const violations: string[] = [];
  try {
    // Uncertain creates, retried with their key: exactly one resource each.
    let retried = 0;
    for (const cre of creates) {
      if (cre.status === 201) continue;
      retried++;
      const r = await until(`retry of ${cre.key}`, async () => {
        const x = await merchantCall(final.public, creds!, 'POST', cre.path, cre.body, cre.key);
        return x.status === 409 || x.status >= 500 || x.status === 0 ? undefined : x;
        // An INTENT create killed while it held its key answers 409 until the dead holder's lease
        // (DEFAULT_LEASE_MS, 30 s) runs out; then the retry takes it over with the same order id.
      }, 45_000, 250);
      if (r.status !== 201) violations.push(`retry ${cre.path} → ${r.status} ${r.text.slice(0, 200)}`);
      cre.id = r.body?.data?.id;
    }
    const db = database.db;
    const orders = await db.query<{ id: string; merchant_order_reference: string }>('SELECT id, merchant_order_reference FROM payment_orders');
    const payouts = await db.query<{ id: string; client_reference: string }>('SELECT id, client_reference FROM payouts');
    const present = new Set([...orders.rows.map((r) => r.id), ...payouts.rows.map((r) => r.id)]);
    for (const cre of creates) if (!cre.id || !present.has(cre.id)) violations.push(`create ${cre.key} (${cre.status}) not in the database`);
    if (orders.rowCount! + payouts.rowCount! !== creates.length) violations.push(`${orders.rowCount! + payouts.rowCount!} resources for ${creates.length} keys`);

    // Every order the sandbox paid ends PAID (a live check finds callbacks that died with the process).
    const paidAtSandbox = await db.query<{ id: string }>(`SELECT o.id FROM payment_orders o JOIN sandbox_collections s ON s.reference = o.order_id WHERE s.status = 'SUCCESS'`);
    for (const { id } of paidAtSandbox.rows) {
      await until(`order ${id} to be PAID`, async () => (await merchantCall(final.public, creds!, 'GET', `/merchant/payment-orders/${id}`)).body?.data?.status === 'PAID', 20_000, 500).catch(() => violations.push(`order ${id} paid at the sandbox but not PAID`));
    }
    const events = await db.query<{ id: string; status: string; n: number }>(
      `SELECT o.id, o.status, (SELECT count(*)::int FROM events e WHERE e.aggregate_id = o.id AND e.kind = 'collection.received') AS n FROM payment_orders o`,
    );
    for (const e of events.rows) if ((e.status === 'PAID') !== (e.n === 1) || e.n > 1) violations.push(`order ${e.id} ${e.status} with ${e.n} collection.received`);

    await until('every payout to finish', async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'PROCESSING'`)).rows[0]!.n === 0, 60_000, 250);
    const execs = await db.query<{ transaction_id: string; status: string; n: number }>(
      `SELECT transaction_id, status, (SELECT count(*)::int FROM sandbox_bank_ledger l WHERE l.reference = p.transaction_id) AS n FROM payouts p`,
    );
    for (const e of execs.rows) if (e.n > 1 || (e.status === 'SUCCESS') !== (e.n === 1)) violations.push(`payout ${e.transaction_id} ${e.status} executed ${e.n} times`);

    await until('every event delivered', async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM callback_deliveries WHERE status <> 'delivered'`)).rows[0]!.n === 0, 60_000, 250)
      .catch(() => violations.push('undelivered events remain'));
    const expected = await db.query<{ event_id: string; target: string }>('SELECT event_id::text, target FROM callback_deliveries');
    const got = new Set(rx.rx.received.filter((q) => q.answeredStatus === 200 && q.verification?.ok).map((q) => `${String(q.headers['x-service-event-id'])}@${q.path}`));
    for (const e of expected.rows) if (!got.has(`${e.event_id}@/${e.target}`)) violations.push(`event ${e.event_id} not received at ${e.target}`);

    const ledger = await ledgerViolations(db);
    violations.push(...ledger.violations);
    report('crash', {
      rounds: ROUNDS, kills: ROUNDS, operations, creates: creates.length, uncertain_creates_retried: retried, sandbox_pays: sandboxPays,
      paid_at_sandbox: paidAtSandbox.rowCount, payouts: execs.rowCount, executions: execs.rows.reduce((s, e) => s + e.n, 0),
      events: new Set(expected.rows.map((e) => e.event_id)).size, deliveries: expected.rowCount, ledger_entries: ledger.entries, violations: violations.length, ms: Date.now() - started,
    });
    assert.deepEqual(violations.slice(0, 20), []);
  } finally {
    final.proc.kill('SIGTERM');
    await final.exited;
  }
});
