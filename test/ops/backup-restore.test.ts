/**
 * The restore drill of docs/operations.md "Backing up and restoring" (issue #35 item 2), run for
 * real: a loaded database is backed up with pg_dump while the service runs, restored with
 * pg_restore into a new database, and a service started on it with the same MASTER_KEY and
 * ADMIN_TOKEN finds every order, payout, API client secret and signing secret intact. Skipped, saying
 * why, when pg_dump/pg_restore are missing or older than the server (pg_dump refuses newer servers).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { Vault } from '../../src/security/vault.js';
import { Db } from '../../src/store/db.js';
import { ENCRYPTED_COLUMNS } from '../../src/services/keys/encrypted-columns.js';
import { pageOfEncrypted } from '../../src/store/repos/key-rotation-repo.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { runTijori } from '../support/cli.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestService } from '../support/service.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { checkoutBody, createOrder, intentBody } from '../payin/helpers.js';

function toolMajor(tool: string): number | null {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  const m = /\) (\d+)/.exec(r.stdout ?? '');
  return r.status === 0 && m ? Number(m[1]) : null;
}

async function serverMajor(): Promise<number> {
  const c = new pg.Client({ connectionString: serverUrl() });
  await c.connect();
  try {
    return Math.floor(Number((await c.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]?.v) / 10_000);
  } finally {
    await c.end();
  }
}

const dumpMajor = toolMajor('pg_dump');
const restoreMajor = toolMajor('pg_restore');
const server = process.env.TEST_DATABASE_URL ? await serverMajor() : null;
const skip =
  dumpMajor === null || restoreMajor === null
    ? 'pg_dump/pg_restore are not installed (apt-get install postgresql-client): the restore drill is not run'
    : server === null
      ? 'TEST_DATABASE_URL is not set'
      : dumpMajor < server
        ? `pg_dump ${dumpMajor} cannot dump PostgreSQL ${server} (install postgresql-client-${server}): the restore drill is not run`
        : false;

const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

test('restore drill: pg_dump of a loaded database, pg_restore into a new one, the service on it finds everything intact', { skip }, async () => {
  const env = { ...FAST_PAYOUT_ENV, PUBLIC_BASE_URL: 'https://pay.example.in', MASTER_KEY: randomBytes(32).toString('base64'), ADMIN_TOKEN: randomBytes(24).toString('hex') };
  const sourceDb = await createTestDatabase();
  cleanup.push(() => sourceDb.drop());
  const source: TestService = await startTestService(env, { database: sourceDb });
  let sourceRunning = true;
  cleanup.push(() => (sourceRunning ? source.stop() : undefined));

  // Load: an organization with a route, a signing secret, orders (some paid, some with their own callback secret), payouts.
  const client = await source.createClient({});
  assert.equal((await source.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT'] })).status, 201);
  const dest = await source.admin('PUT', `/orgs/${client.orgId}/destinations/payout`, { url: 'https://merchant.example/payouts' });
  const signingSecret = dest.body.data.signing_secret as string;
  assert.match(signingSecret, /^whsec_/);
  const orders: any[] = [];
  for (let i = 0; i < 6; i++) {
    const body = i < 2 ? intentBody : checkoutBody; // the first two are paid below (an INTENT order has its collection at once)
    orders.push(await createOrder(source, client, body({ amount_paise: 10_000 + i, ...(i % 2 ? { callback_url: 'https://merchant.example/o', callback_secret: `secret-${i}-${'z'.repeat(40)}` } : {}) })));
  }
  for (const o of orders.slice(0, 2)) {
    const paid = await runTijori(source, ['sandbox', 'pay', o.id]);
    assert.equal(paid.code, 0, paid.stderr);
  }
  const payouts: any[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await source.api('POST', '/merchant/payouts', { client, body: payoutBody(20_000 + i, { beneficiary: { name: 'Ravi Shankar', account_number: `5000100020${i}`, ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } }), idempotencyKey: randomUUID() });
    assert.equal(r.status, 201, r.text);
    payouts.push(r.body.data);
  }
  // Settled states, so both sides show the same thing.
  const views = async (t: TestService, kind: 'payment-orders' | 'payouts', ids: string[]) =>
    Promise.all(ids.map(async (id) => (await t.api('GET', `/merchant/${kind}/${id}`, { client })).body.data));
  await poll(async () => (await views(source, 'payouts', payouts.map((p) => p.id))).every((p) => p.status === 'SUCCESS') || undefined, { what: 'payouts settled', timeoutMs: 30_000, stepMs: 200 });
  await poll(async () => (await views(source, 'payment-orders', orders.slice(0, 2).map((o) => o.id))).every((o) => o.status !== 'CREATED') || undefined, { what: 'orders paid', timeoutMs: 30_000, stepMs: 200 });
  const ordersBefore = await views(source, 'payment-orders', orders.map((o) => o.id));
  const payoutsBefore = await views(source, 'payouts', payouts.map((p) => p.id));

  // Back up while the service runs (pg_dump takes one consistent snapshot), then restore into a new database.
  const dir = mkdtempSync(join(tmpdir(), 'tijori-backup-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tijori.dump');
  execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${source.database.url}`]);
  assert.ok(statSync(file).size > 10_000);
  const name = `tijori_restored_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const restoredUrl = withDatabase(serverUrl(), name);
  const restoredDb = new Db({ url: restoredUrl, poolSize: 2 });
  const restored: TestDatabase = {
    url: restoredUrl,
    db: restoredDb,
    drop: async () => {
      await restoredDb.close().catch(() => undefined);
      const c = new pg.Client({ connectionString: serverUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
  cleanup.push(() => restored.drop());
  execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restoredUrl}`, file]);

  // Same tables, same row counts.
  const counts = async (db: Db) => {
    const tables = (await db.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")).rows.map((r) => r.t);
    const out: Record<string, number> = {};
    for (const t of tables) out[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}"`)).rows[0]?.n);
    return out;
  };
  // The source stopped (its database kept): nothing changes it any more, so the counts compare exactly.
  sourceRunning = false;
  await source.stop();
  const sourceCounts = await counts(sourceDb.db);
  assert.deepEqual(await counts(restoredDb), sourceCounts, 'every table restored with every row');

  // The service on the restored database, with the same MASTER_KEY and ADMIN_TOKEN from their own backup.
  const onRestored = await startTestService(env, { database: restored });
  cleanup.push(() => onRestored.stop());
  assert.deepEqual(await views(onRestored, 'payment-orders', orders.map((o) => o.id)), ordersBefore, 'every order intact (the API client secret still authenticates)');
  assert.deepEqual(await views(onRestored, 'payouts', payouts.map((p) => p.id)), payoutsBefore, 'every payout intact');
  // Every encrypted value opens under the backed-up MASTER_KEY; the destination's signing secret is the one shown at set-up.
  const vault = new Vault(Buffer.from(env.MASTER_KEY, 'base64'));
  let opened = 0;
  for (const col of ENCRYPTED_COLUMNS) {
    for (const row of await pageOfEncrypted(restoredDb, col, null, 100_000)) {
      const plain = vault.decrypt(row.value, col.context(row.fields));
      if (col.table === 'callback_destinations') assert.equal(plain, signingSecret);
      opened += 1;
    }
  }
  assert.ok(opened >= 1 + 3 + 4, `${opened} encrypted values open`);
  // And it keeps working: a new payout on the restored database.
  const fresh = await onRestored.api('POST', '/merchant/payouts', { client, body: payoutBody(30_000), idempotencyKey: randomUUID() });
  assert.equal(fresh.status, 201, fresh.text);
  const adminCall = await runTijori(onRestored, ['org', 'create', '--name', 'After restore', '--json']);
  assert.equal(adminCall.code, 0, 'the restored ADMIN_TOKEN works');
});
