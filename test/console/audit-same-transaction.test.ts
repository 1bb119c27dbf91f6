/**
 * API client and destination changes made in the console are audited in the SAME transaction as
 * the change (docs/console.md "Audit log"): when the audit entry cannot be written, the change is
 * rolled back too. The failure is a real PostgreSQL one: the actor names a console user that does
 * not exist, so the audit row violates console_audit_log.actor_id's foreign key (23503). With a
 * real user, the same calls commit the change and its entry together.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Actor } from '../../src/services/console/audit.js';
import { signedInUser } from '../support/console.js';
import { serviceWithClient } from '../support/service.js';

const w = serviceWithClient({ rateLimit: 100_000 });
const db = () => w.t.database.db;
/** An actor whose audit row cannot be inserted: no console user has this id. */
const ghost = (): Actor => ({ userId: randomUUID(), label: 'ghost@example.com', ip: '127.0.0.1' });

async function rejectsWithForeignKey(p: Promise<unknown>): Promise<void> {
  await assert.rejects(p, (err: Error & { code?: string; cause?: { code?: string } }) => {
    const code = err.code ?? err.cause?.code;
    assert.ok(code === '23503' || /foreign key/i.test(err.message), `expected the audit row's foreign key violation, got ${code}: ${err.message}`);
    return true;
  });
}

const auditCount = async (orgId: string) => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM console_audit_log WHERE org_id = $1', [orgId])).rows[0]!.n;

test('an API client change whose audit entry fails is rolled back: create, rotate, revoke, allow an IP', async () => {
  const orgId = await w.t.createOrg('Audit tx org');
  const clients = w.t.svc.ctx.console.apiClients;
  const countClients = async () => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM api_clients WHERE org_id = $1', [orgId])).rows[0]!.n;

  await rejectsWithForeignKey(clients.create(orgId, { name: 'never', scopes: ['collections:read'] }, ghost()));
  assert.equal(await countClients(), 0, 'the client was not created');

  // A client made by a real user: its creation and its audit entry are both there.
  const admin = await signedInUser(w.t, orgId, 'audit-tx-admin@example.com', 'admin');
  const real: Actor = { userId: admin.userId, label: 'audit-tx-admin@example.com', ip: '127.0.0.1' };
  const before = await auditCount(orgId);
  const made = await clients.create(orgId, { name: 'kept', scopes: ['collections:read'] }, real);
  assert.ok('client' in made);
  const { client } = made;
  assert.equal(await countClients(), 1);
  assert.equal(await auditCount(orgId), before + 1);

  const row = async () =>
    (await db().query<{ secret_hash: Buffer; active: boolean; allowed_ips: string[]; secret_rotated_at: Date | null }>('SELECT secret_hash, active, allowed_ips, secret_rotated_at FROM api_clients WHERE client_id = $1', [client.client_id])).rows[0]!;
  const original = await row();

  await rejectsWithForeignKey(clients.rotate(orgId, client.client_id, ghost()));
  assert.deepEqual((await row()).secret_hash, original.secret_hash, 'the secret was not replaced');
  assert.equal((await row()).secret_rotated_at, null);

  await rejectsWithForeignKey(clients.allowIp(orgId, client.client_id, '198.51.100.9', ghost()));
  assert.deepEqual((await row()).allowed_ips, original.allowed_ips, 'the address was not added');

  await rejectsWithForeignKey(clients.revoke(orgId, client.client_id, ghost()));
  assert.equal((await row()).active, true, 'the client was not revoked');
  assert.equal(await auditCount(orgId), before + 1, 'no audit entry of the failed changes');

  // The same changes by the real user: each committed with its entry.
  await clients.allowIp(orgId, client.client_id, '198.51.100.9', real);
  await clients.rotate(orgId, client.client_id, real);
  await clients.revoke(orgId, client.client_id, real);
  const after = await row();
  assert.deepEqual([after.allowed_ips, after.active, after.secret_hash.equals(original.secret_hash)], [['198.51.100.9'], false, false]);
  const actions = (await db().query<{ action: string }>('SELECT action FROM console_audit_log WHERE org_id = $1 AND target_id = $2 ORDER BY id', [orgId, client.client_id])).rows.map((r) => r.action);
  assert.deepEqual(actions, ['api_client.created', 'api_client.ip_allowed', 'api_client.secret_rotated', 'api_client.revoked']);
});

test('a destination change whose audit entry fails is rolled back: first set, URL change, secret rotation', async () => {
  const orgId = await w.t.createOrg('Audit tx destinations');
  const destinations = w.t.svc.ctx.console.destinations;
  const dest = async () =>
    (await db().query<{ url: string; secret_enc: Buffer; next_secret_enc: Buffer | null }>(`SELECT url, secret_enc, next_secret_enc FROM callback_destinations WHERE org_id = $1 AND kind = 'payin'`, [orgId])).rows[0] ?? null;

  await rejectsWithForeignKey(destinations.set(orgId, 'payin', 'https://merchant.example.com/first', ghost()));
  assert.equal(await dest(), null, 'the destination was not created');

  const admin = await signedInUser(w.t, orgId, 'audit-tx-dest@example.com', 'admin');
  const real: Actor = { userId: admin.userId, label: 'audit-tx-dest@example.com', ip: '127.0.0.1' };
  const created = await destinations.set(orgId, 'payin', 'https://merchant.example.com/first', real);
  assert.ok(created.signing_secret);
  const original = (await dest())!;

  await rejectsWithForeignKey(destinations.set(orgId, 'payin', 'https://merchant.example.com/second', ghost()));
  assert.equal((await dest())!.url, 'https://merchant.example.com/first', 'the URL was not changed');

  await rejectsWithForeignKey(destinations.rotate(orgId, 'payin', ghost()));
  assert.ok((await dest())!.secret_enc.equals(original.secret_enc), 'the secret was not replaced');
  assert.equal((await dest())!.next_secret_enc, null, 'no new secret waits');

  await destinations.set(orgId, 'payin', 'https://merchant.example.com/second', real);
  await destinations.rotate(orgId, 'payin', real);
  assert.equal((await dest())!.url, 'https://merchant.example.com/second');
  assert.ok((await dest())!.secret_enc.equals(original.secret_enc), 'the old secret signs until activation (contract §11)');
  assert.ok((await dest())!.next_secret_enc);
  const actions = (await db().query<{ action: string; before: unknown; after: unknown }>(`SELECT action, before, after FROM console_audit_log WHERE org_id = $1 AND target_type = 'destination' ORDER BY id`, [orgId])).rows;
  assert.deepEqual(
    actions.map((a) => [a.action, a.before, a.after]),
    [
      ['destination.created', null, { url: 'https://merchant.example.com/first' }],
      ['destination.url_changed', { url: 'https://merchant.example.com/first' }, { url: 'https://merchant.example.com/second' }],
      ['destination.secret_rotated', null, null],
    ],
  );
});

test('a provider account change whose audit entry fails is rolled back: add, choose for collections (issue #22)', async () => {
  const orgId = await w.t.createOrg('Audit tx providers org');
  const accounts = w.t.svc.ctx.providerAccounts;
  const rows = async () => (await db().query<{ id: string }>('SELECT id FROM provider_accounts WHERE org_id = $1', [orgId])).rows;
  const chosen = async () => (await db().query<{ a: string | null }>('SELECT collections_provider_account_id AS a FROM organizations WHERE id = $1', [orgId])).rows[0]!.a;

  await rejectsWithForeignKey(accounts.add({ orgId, provider: 'sandbox', config: {}, name: 'never', actor: ghost() }));
  assert.deepEqual(await rows(), [], 'the account was not added');

  const admin = await signedInUser(w.t, orgId, 'audit-tx-providers@example.com', 'admin');
  const real: Actor = { userId: admin.userId, label: 'audit-tx-providers@example.com', ip: '127.0.0.1' };
  // Another admin chooses it: who entered its credentials does not (issue #29 item 4).
  const other = await signedInUser(w.t, orgId, 'audit-tx-providers-2@example.com', 'admin');
  const before = await auditCount(orgId);
  const added = await accounts.add({ orgId, provider: 'sandbox', config: {}, name: 'kept', actor: real });
  assert.deepEqual((await rows()).map((r) => r.id), [added.provider_account_id]);
  const entry = (await db().query("SELECT action, target_id, after FROM console_audit_log WHERE org_id = $1 AND target_type = 'provider_account'", [orgId])).rows[0];
  assert.deepEqual(entry, { action: 'provider_account.added', target_id: added.provider_account_id, after: { provider: 'sandbox', name: 'kept', livemode: false } });

  await rejectsWithForeignKey(accounts.useForCollections(orgId, added.provider_account_id, ghost()));
  assert.equal(await chosen(), null, 'the collections account was not changed');
  await accounts.useForCollections(orgId, added.provider_account_id, { userId: other.userId, label: 'audit-tx-providers-2@example.com', ip: '127.0.0.1' });
  assert.equal(await chosen(), added.provider_account_id);
  assert.equal(await auditCount(orgId), before + 2, 'one entry per change that was made, none for the failed ones');
});
