/** Contract §8 CLI: `tijori provider add|list`, `tijori collections use`, `tijori route create --provider-account`. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';

let t: TestService;
let org: string;
const dir = mkdtempSync(join(tmpdir(), 'tijori-provider-cli-'));
const file = (name: string, value: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
  return p;
};

before(async () => {
  t = await startTestService();
  org = await t.createOrg('Provider CLI org');
});
after(async () => {
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('provider add prints the account id, provider and callback_url only; list never shows a credential', async () => {
  const cf = await runTijori(t, ['provider', 'add', '--org', org, '--provider', 'cashfree', '--config-file', file('cf.json', { base_url: 'https://sandbox.cashfree.com/pg', client_id: 'TESTCLIENT', client_secret: 'cfsk_ma_test_TOPSECRET', api_version: '2025-01-01' }), '--name', 'Cashfree test', '--json']);
  assert.equal(cf.code, 0, cf.stderr);
  const added = parseJsonOutput(cf);
  assert.deepEqual(Object.keys(added).sort(), ['callback_url', 'provider', 'provider_account_id']);
  assert.equal(added.provider, 'cashfree');
  assert.equal(added.callback_url, `${t.svc.internalUrl}/provider/${added.provider_account_id}/callbacks`);
  assert.doesNotMatch(cf.stdout + cf.stderr, /TOPSECRET/);
  const sb = parseJsonOutput(await runTijori(t, ['provider', 'add', '--org', org, '--provider', 'sandbox', '--config-file', file('sb.json', {}), '--json']));
  const list = await runTijori(t, ['provider', 'list', '--org', org, '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout), [
    { provider_account_id: added.provider_account_id, provider: 'cashfree', name: 'Cashfree test', livemode: false },
    { provider_account_id: sb.provider_account_id, provider: 'sandbox', name: 'sandbox account', livemode: false },
  ]);
  assert.doesNotMatch(list.stdout, /TOPSECRET|TESTCLIENT/);

  const use = await runTijori(t, ['collections', 'use', '--org', org, '--provider-account', added.provider_account_id, '--json']);
  assert.equal(use.code, 0, use.stderr);
  assert.equal(parseJsonOutput(use).provider, 'cashfree');
  const row = (await t.database.db.query('SELECT collections_provider_account_id AS a FROM organizations WHERE id = $1', [org])).rows[0]!;
  assert.equal(row.a, added.provider_account_id);

  // A cashfree account carries no payouts; a sandbox account does.
  const bad = await runTijori(t, ['route', 'create', '--org', org, '--modes', 'IMPS', '--provider-account', added.provider_account_id, '--json']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /cannot carry payouts/);
  const bankConnection = await runTijori(t, ['route', 'create', '--org', org, '--modes', 'IMPS', '--provider-account', sb.provider_account_id, '--json']);
  assert.equal(bankConnection.code, 0, bankConnection.stderr);
  const r = (await t.database.db.query('SELECT provider, provider_account_id FROM bank_connections WHERE id = $1', [parseJsonOutput(bankConnection).bank_connection_id])).rows[0]!;
  assert.deepEqual({ ...r }, { provider: 'sandbox', provider_account_id: sb.provider_account_id });
});

test('bad configs are refused with the field named; nothing is stored', async () => {
  const before = Number((await t.database.db.query('SELECT count(*) AS n FROM provider_accounts')).rows[0]!.n);
  const cases: Array<[string, unknown, RegExp]> = [
    ['cashfree', { base_url: 'http://payments.example.com/pg', client_id: 'a', client_secret: 'b' }, /config\.base_url.*loopback/],
    ['cashfree', { client_id: 'a' }, /config\.client_secret/],
    ['razorpayx', { key_id: 'rzp_test_x', key_secret: 'y', account_number: '7878780080316316' }, /config\.webhook_secret/],
    ['paypal', {}, /provider/],
  ];
  for (const [provider, cfg, why] of cases) {
    const r = await runTijori(t, ['provider', 'add', '--org', org, '--provider', provider, '--config-file', file(`${provider}.json`, cfg)]);
    assert.notEqual(r.code, 0, provider);
    assert.match(r.stderr, why);
  }
  const notJson = await runTijori(t, ['provider', 'add', '--org', org, '--provider', 'cashfree', '--config-file', file('x.json', '{nope')]);
  assert.notEqual(notJson.code, 0);
  assert.match(notJson.stderr, /not valid JSON/);
  assert.equal(Number((await t.database.db.query('SELECT count(*) AS n FROM provider_accounts')).rows[0]!.n), before);
});

test('collections use refuses another organization\'s account', async () => {
  const other = await t.createOrg('Other');
  const a = parseJsonOutput(await runTijori(t, ['provider', 'add', '--org', other, '--provider', 'sandbox', '--config-file', file('sb2.json', {}), '--json']));
  const r = await runTijori(t, ['collections', 'use', '--org', org, '--provider-account', a.provider_account_id]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /No such provider account/);
});
