/**
 * Key rotation (issue #35 item 3, docs/operations.md "Rotating keys"), on real PostgreSQL and the
 * real `tijori` binary: the master key rotated online and resumably (MASTER_KEY_PREVIOUS accepted
 * meanwhile), an API client secret rotated with an overlap, the admin token rotated with an
 * overlap, each audited.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { Vault } from '../../src/security/vault.js';
import { ENCRYPTED_COLUMNS } from '../../src/services/keys/encrypted-columns.js';
import { pageOfEncrypted } from '../../src/store/repos/key-rotation-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { TestClock } from '../../src/clock.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { checkoutBody, createOrder } from '../payin/helpers.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const b64 = (k: Buffer) => k.toString('base64');

let database: TestDatabase | undefined;
const running: TestService[] = [];
after(async () => {
  for (const s of running) await s.stop().catch(() => undefined);
  await database?.drop();
});

async function start(env: Record<string, string>, clock?: TestClock): Promise<TestService> {
  database ??= await createTestDatabase();
  const s = await startTestService({ ...FAST_PAYOUT_ENV, ...env }, { database, ...(clock ? { clock } : {}) });
  running.push(s);
  return s;
}
async function stop(s: TestService): Promise<void> {
  running.splice(running.indexOf(s), 1);
  await s.stop();
}

/** Every listed encrypted value, with which of the given vaults opens it. */
async function openedBy(vault: Vault): Promise<{ total: number; opened: number }> {
  let total = 0;
  let opened = 0;
  for (const col of ENCRYPTED_COLUMNS) {
    for (const row of await pageOfEncrypted(database!.db, col, null, 100_000)) {
      total += 1;
      try {
        vault.decrypt(row.value, col.context(row.fields));
        opened += 1;
      } catch {
        // not under this key
      }
    }
  }
  return { total, opened };
}

async function payoutTo(t: TestService, client: TestClient, body: Record<string, unknown>): Promise<any> {
  const r = await t.api('POST', '/merchant/payouts', { client, body, idempotencyKey: randomUUID() });
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

test('master key: rotated online with both keys accepted, resumable, verified and audited; the service then runs on the new key alone', async () => {
  // A loaded database under key A: a destination's signing secret, an order's callback secret, a beneficiary's account number.
  const a = await start({ MASTER_KEY: b64(keyA) });
  const client = await a.createClient({});
  assert.equal((await a.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  const dest = await a.admin('PUT', `/orgs/${client.orgId}/destinations/payin`, { url: 'https://merchant.example/hooks' });
  assert.ok(dest.status === 200 || dest.status === 201, dest.text);
  const signingSecret = dest.body.data.signing_secret as string;
  for (let i = 0; i < 5; i++) await createOrder(a, client, checkoutBody({ callback_url: 'https://merchant.example/order-hook', callback_secret: `order-secret-${i}-${'x'.repeat(32)}` }));
  const first = await payoutTo(a, client, payoutBody(10_000));
  const beneficiaryId = first.beneficiary.id as string;
  assert.ok(beneficiaryId);
  await stop(a);
  const before = await openedBy(new Vault(keyA));
  assert.ok(before.total >= 7, `loaded ${before.total} encrypted values`);
  assert.equal(before.opened, before.total);

  // Without MASTER_KEY_PREVIOUS there is nothing to rotate from: refused, exit 1, the reason said.
  const b0 = await start({ MASTER_KEY: b64(keyB) });
  const refused = await runTijori(b0, ['keys', 'rotate-master', '--json']);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /MASTER_KEY_PREVIOUS is not set/);
  await stop(b0);

  // Every instance on MASTER_KEY=B, MASTER_KEY_PREVIOUS=A: old values still work before any is rotated.
  const b = await start({ MASTER_KEY: b64(keyB), MASTER_KEY_PREVIOUS: b64(keyA) });
  const byId = await payoutTo(b, client, { beneficiary_id: beneficiaryId, amount_paise: 10_100, mode: 'IMPS' });
  assert.equal(byId.beneficiary.id, beneficiaryId);
  // New writes are under B already.
  await createOrder(b, client, checkoutBody({ callback_url: 'https://merchant.example/order-hook', callback_secret: `order-secret-new-${'y'.repeat(32)}` }));

  // A rotation stopped after one page of two rows ...
  const page = await b.admin('POST', '/keys/rotate-master', { limit: 2 });
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.data.rotated, 1, 'the first column has one row: the destination');
  assert.notEqual(page.body.data.next, null);
  const partly = await openedBy(new Vault(keyB));
  assert.ok(partly.opened > 1 && partly.opened < partly.total, `part-way: ${partly.opened}/${partly.total} under B`);

  // ... is resumed by running the command again (small pages: several calls).
  const run = await runTijori(b, ['keys', 'rotate-master', '--batch', '2', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const out = parseJsonOutput(run);
  assert.equal(out.complete, true, run.stdout);
  assert.equal(out.unreadable.length, 0);
  assert.ok(out.rotated >= before.total - 1, `rotated ${out.rotated}`);
  assert.ok(out.already_current >= 2, 'the rows done before and the row written under B are skipped');
  for (const c of out.columns) assert.equal(c.previous, 0, `${c.table}.${c.column}`);
  const after = await openedBy(new Vault(keyB));
  assert.equal(after.opened, after.total);
  assert.equal((await openedBy(new Vault(keyA))).opened, 0, 'nothing is left under the old key');

  // Audited: started (twice: the page, then the command) and verified complete.
  const audit = await database!.db.query<{ action: string; detail: any }>('SELECT action, detail FROM operator_audit_log ORDER BY id');
  assert.deepEqual(audit.rows.map((r) => r.action), ['master_key.rotation_started', 'master_key.rotation_started', 'master_key.rotation_verified']);
  assert.equal(audit.rows[2]?.detail.complete, true);
  assert.ok(!JSON.stringify(audit.rows).includes(signingSecret), 'no secret in the audit log');
  await stop(b);

  // The old key retired without pinning the look-up key: refused at start, saying what to set.
  await assert.rejects(start({ MASTER_KEY: b64(keyB) }), /look-up key does not match .*set LOOKUP_KEY/);

  // The old key retired: MASTER_KEY=B alone, LOOKUP_KEY=A pinning the keyed look-ups.
  const c = await start({ MASTER_KEY: b64(keyB), LOOKUP_KEY: b64(keyA) });
  const again = await payoutTo(c, client, { beneficiary_id: beneficiaryId, amount_paise: 10_200, mode: 'IMPS' });
  assert.equal(again.beneficiary.id, beneficiaryId, 'the account number decrypts under B alone');
  const inline = await payoutTo(c, client, payoutBody(10_300));
  assert.equal(inline.beneficiary.id, beneficiaryId, 'the same account still finds its beneficiary (look-up key pinned)');
  const destRow = await database!.db.query<{ secret_enc: Buffer }>('SELECT secret_enc FROM callback_destinations WHERE org_id = $1', [client.orgId]);
  assert.equal(new Vault(keyB).decrypt(destRow.rows[0]!.secret_enc, `callback_destination:${client.orgId}:payin`), signingSecret, 'the signing secret is intact');
  await stop(c);
});

test('master key: a second rotation while the service keeps writing (orders, beneficiaries, destinations) ends complete', async () => {
  // The database of the test above is all under B (LOOKUP_KEY stays A); now B -> C with writes racing the rotation.
  const keyC = randomBytes(32);
  const t = await start({ MASTER_KEY: b64(keyC), MASTER_KEY_PREVIOUS: b64(keyB), LOOKUP_KEY: b64(keyA) });
  const client = await t.createClient({});
  assert.equal((await t.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  const writes = (async () => {
    for (let i = 0; i < 8; i++) {
      await createOrder(t, client, checkoutBody({ callback_url: 'https://merchant.example/o', callback_secret: `racing-secret-${i}-${'r'.repeat(32)}` }));
      await payoutTo(t, client, payoutBody(11_000 + i, { beneficiary: { name: 'Meera Iyer', account_number: `7000100020${i}`, ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } }));
      const org = await t.createOrg(`Racing ${i}`);
      assert.equal((await t.admin('PUT', `/orgs/${org}/destinations/payout`, { url: 'https://merchant.example/p' })).status, 201);
    }
  })();
  const run = await runTijori(t, ['keys', 'rotate-master', '--batch', '1', '--json']);
  await writes;
  assert.equal(run.code, 0, run.stderr);
  assert.ok(parseJsonOutput(run).rotated > 0);
  // Whatever the interleaving, a second run finds nothing left under B (the racing rows were written under C).
  const second = parseJsonOutput(await runTijori(t, ['keys', 'rotate-master', '--json']));
  assert.equal(second.complete, true);
  assert.equal(second.rotated, 0);
  const underC = await openedBy(new Vault(keyC));
  assert.equal(underC.opened, underC.total);
  await stop(t);
});

test('API client secret: rotated with an overlap, both secrets work until it ends; without one the old stops at once; audited', async () => {
  // (The database is shared with the rotations above: its look-ups stay under key A.)
  // The service's clock (src/clock.ts) is moved by the test: the 2 s client cache without waiting.
  const clock = new TestClock();
  const t = await start({ LOOKUP_KEY: b64(keyA) }, clock);
  const client = await t.createClient({});
  const probe = async (secret: string) => (await t.api('GET', `/merchant/payment-orders/${randomUUID()}`, { client: { ...client, secret } })).status;
  assert.equal(await probe(client.secret), 404);

  const rotated = await runTijori(t, ['client', 'rotate-secret', '--client', client.clientId, '--overlap-hours', '24', '--json']);
  assert.equal(rotated.code, 0, rotated.stderr);
  const r = parseJsonOutput(rotated);
  assert.match(r.client_secret, /^tj_secret_/);
  const until = Date.parse(r.previous_secret_expires_at);
  assert.ok(Math.abs(until - (Date.now() + 24 * 3600_000)) < 60_000, r.previous_secret_expires_at);
  assert.equal(await probe(r.client_secret), 404, 'the new secret works');
  assert.equal(await probe(client.secret), 404, 'the old secret still works during the overlap');

  // The overlap ends (its end moved into the past): the old secret stops, once the 2 s client cache has expired.
  await database!.db.query('UPDATE api_clients SET previous_secret_expires_at = $2 WHERE client_id = $1', [client.clientId, new Date(clock.now() - 1_000)]);
  clock.advance(2_000);
  assert.equal(await probe(client.secret), 404, 'the cached row (its overlap still open) serves for 2 s');
  clock.advance(1);
  assert.equal(await probe(client.secret), 401);
  assert.equal(await probe(r.client_secret), 404);

  // Without --overlap-hours (contract §2): the old one stops at once, and no earlier overlap survives.
  const again = parseJsonOutput(await runTijori(t, ['client', 'rotate-secret', '--client', client.clientId, '--overlap-hours', '1', '--json']));
  const last = parseJsonOutput(await runTijori(t, ['client', 'rotate-secret', '--client', client.clientId, '--json']));
  assert.equal(last.previous_secret_expires_at, undefined);
  assert.equal(await probe(again.client_secret), 401);
  assert.equal(await probe(last.client_secret), 404);

  const bad = await runTijori(t, ['client', 'rotate-secret', '--client', client.clientId, '--overlap-hours', '169']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /0 to 168/);

  const audit = await database!.db.query<{ action: string; actor: string; after: any }>(
    "SELECT action, actor, after FROM console_audit_log WHERE target_id = $1 AND action = 'api_client.secret_rotated' ORDER BY id",
    [client.clientId],
  );
  assert.deepEqual(audit.rows.map((x) => [x.actor, x.after.overlap_hours]), [['operator', 24], ['operator', 1], ['operator', 0]]);
  await stop(t);
});

test('admin token: ADMIN_TOKEN_PREVIOUS accepted during the overlap, each use counted and warned, the overlap audited once', async () => {
  const oldToken = randomBytes(16).toString('hex');
  const newToken = randomBytes(16).toString('hex');
  const t = await start({ ADMIN_TOKEN: newToken, ADMIN_TOKEN_PREVIOUS: oldToken, LOOKUP_KEY: b64(keyA) });
  const call = (token: string) => fetch(`${t.svc.internalUrl}/admin/orgs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Org' }) });
  assert.equal((await call(newToken)).status, 201);
  assert.equal((await call(oldToken)).status, 201);
  assert.equal((await call(oldToken)).status, 201);
  assert.equal((await call(randomBytes(16).toString('hex'))).status, 401);
  const cli = await runTijori(t, ['org', 'create', '--name', 'Via old token', '--json'], { ADMIN_TOKEN: oldToken });
  assert.equal(cli.code, 0, cli.stderr);
  const metrics = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
  assert.match(metrics, /^tijori_admin_previous_token_uses_total 3$/m);
  assert.ok(t.logs.filter((l) => l.includes('admin_previous_token_used')).length >= 3);
  const audit = await database!.db.query<{ detail: any }>("SELECT detail FROM operator_audit_log WHERE action = 'admin_token.overlap_started'");
  assert.equal(audit.rows.length, 1);
  assert.match(audit.rows[0]!.detail.token, /^[0-9a-f]{16}$/);
  assert.ok(!JSON.stringify(audit.rows).includes(oldToken) && !JSON.stringify(audit.rows).includes(newToken));
  await stop(t);

  // The overlap over: the old token is refused.
  const t2 = await start({ ADMIN_TOKEN: newToken, LOOKUP_KEY: b64(keyA) });
  const refused = await fetch(`${t2.svc.internalUrl}/admin/orgs`, { method: 'POST', headers: { authorization: `Bearer ${oldToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Org' }) });
  assert.equal(refused.status, 401);
  await stop(t2);
});
