/**
 * Issue #29 item 4, money coming in: an admin adds a provider account (credentials of an account
 * they may control) and chooses it for the organization's collections alone, so new payments are
 * collected into it. Refused (403 SELF_APPROVAL_DENIED) to whoever entered the credentials and to
 * anyone who is that person by credential lineage (a puppet admin); another admin, or the
 * operator's CLI, chooses it. Accounts the operator added may be chosen by any admin.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runTijori } from '../support/cli.js';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
let orgId: string;
let admin: ConsoleCaller & { userId: string };
let admin2: ConsoleCaller & { userId: string };

before(async () => {
  ts = await startTestService();
  orgId = await ts.createOrg('Collections Dual Control');
  admin = await signedInUser(ts, orgId, 'cdc-admin@example.com', 'admin');
  admin2 = await signedInUser(ts, orgId, 'cdc-admin2@example.com', 'admin');
});
after(() => ts?.stop());

const chosen = async () => (await ts.database.db.query<{ a: string | null }>('SELECT collections_provider_account_id AS a FROM organizations WHERE id = $1', [orgId])).rows[0]!.a;

async function addAccount(by: ConsoleCaller, name: string): Promise<string> {
  const r = await by.call('POST', '/provider-accounts', { provider: 'sandbox', name, config: {} });
  assert.equal(r.status, 201, r.text);
  return r.body.data.provider_account_id;
}

test('an admin adds an account and chooses it for collections alone: refused; another admin chooses it', async () => {
  const mine = await addAccount(admin, 'my own account');
  const alone = await admin.call('PUT', '/collections-account', { provider_account_id: mine });
  assert.equal(alone.status, 403, alone.text);
  assert.equal(alone.body.error.code, 'SELF_APPROVAL_DENIED');
  assert.ok(alone.body.request_id);
  assert.equal(await chosen(), null, 'new payments still go where they went');
  const ok = await admin2.call('PUT', '/collections-account', { provider_account_id: mine });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(await chosen(), mine);
});

test('through a puppet admin the adder invited from the console: refused', async () => {
  const invited = await admin.call('POST', '/users', { email: 'cdc-puppet@example.com', role: 'admin' });
  assert.equal(invited.status, 201, invited.text);
  const puppet = consoleCaller(ts);
  assert.equal((await puppet.call('POST', '/setup', { token: new URL(invited.body.data.setup_url).hash.replace('#token=', ''), password: GOOD_PASSWORD })).status, 200);
  const mine = await addAccount(admin, 'puppet-chosen account');
  const before = await chosen();
  const r = await puppet.call('PUT', '/collections-account', { provider_account_id: mine });
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
  assert.equal(await chosen(), before);
});

test("an account the operator added: any admin chooses it; the operator's CLI chooses any", async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cdc-')), 'sandbox.json');
  writeFileSync(file, '{}');
  const added = await runTijori(ts, ['provider', 'add', '--org', orgId, '--provider', 'sandbox', '--name', 'operator account', '--config-file', file, '--json']);
  assert.equal(added.code, 0, added.stderr);
  const id = JSON.parse(added.stdout).provider_account_id as string;
  assert.equal((await admin.call('PUT', '/collections-account', { provider_account_id: id })).status, 200);
  const mine = await addAccount(admin, 'chosen by the operator');
  const cli = await runTijori(ts, ['collections', 'use', '--org', orgId, '--provider-account', mine, '--json']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(await chosen(), mine);
});
