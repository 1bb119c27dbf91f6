/** `tijori destination set` and the admin API behind it: the secret once, HTTPS only, stored encrypted. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { destinationSecretContext } from '../../src/services/callbacks/destinations.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';
import { setDestination } from './helpers.js';

let ts: TestService;
let strict: TestService;
before(async () => {
  ts = await startTestService();
  strict = await startTestService({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' });
});
after(async () => {
  await ts.stop();
  await strict.stop();
});

test('destination set prints exactly {kind, url, signing_secret}; the secret only on first configuration', async () => {
  const org = await ts.createOrg();
  const first = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', 'https://merchant.example.com/hooks/payin', '--json']));
  assert.deepEqual(Object.keys(first), ['kind', 'url', 'signing_secret']);
  assert.equal(first.kind, 'payin');
  assert.equal(first.url, 'https://merchant.example.com/hooks/payin');
  assert.match(first.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

  const again = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', 'https://merchant.example.com/v2/payin', '--json']));
  assert.deepEqual(again, { kind: 'payin', url: 'https://merchant.example.com/v2/payin', signing_secret: null });

  const payout = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payout', '--url', 'https://merchant.example.com/hooks/payout', '--json']));
  assert.match(payout.signing_secret, /^whsec_/);
  assert.notEqual(payout.signing_secret, first.signing_secret, 'each destination has its own secret');

  // Stored encrypted, bound to its row, and still the first secret after the URL change.
  const row = (await ts.svc.ctx.db.query('SELECT secret_enc FROM callback_destinations WHERE org_id = $1 AND kind = $2', [org, 'payin'])).rows[0]!;
  assert.ok(!row.secret_enc.toString('latin1').includes(first.signing_secret));
  assert.equal(ts.svc.ctx.vault.decrypt(row.secret_enc, destinationSecretContext(org, 'payin')), first.signing_secret);

  const text = await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payout', '--url', 'https://merchant.example.com/p']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /unchanged/);

  const listed = await ts.admin('GET', `/orgs/${org}/destinations`);
  assert.deepEqual(listed.body.data.destinations.map((d: any) => [d.kind, d.url]), [
    ['payin', 'https://merchant.example.com/v2/payin'],
    ['payout', 'https://merchant.example.com/p'],
  ]);
  assert.ok(!JSON.stringify(ts.logs).includes(first.signing_secret), 'signing secret never logged');
});

test('destinations must be HTTPS URLs: 422 VALIDATION_FAILED, and the CLI exits non-zero', async () => {
  const org = await ts.createOrg();
  for (const url of ['http://merchant.example.com/hooks', 'not a url', 'https://user:pw@merchant.example.com/', 'ftp://merchant.example.com/']) {
    const r = await setDestination(ts, org, 'payin', url);
    assert.equal(r.status, 422, url);
    assert.equal(r.body.error.code, 'VALIDATION_FAILED');
    assert.equal(r.body.error.details[0].field, 'url');
  }
  const kind = await setDestination(ts, org, 'refunds', 'https://merchant.example.com/');
  assert.equal(kind.status, 422);
  assert.equal(kind.body.error.details[0].field, 'kind');
  const unknownOrg = await setDestination(ts, '00000000-0000-4000-8000-000000000000', 'payin', 'https://merchant.example.com/');
  assert.equal(unknownOrg.status, 404);

  const cli = await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', 'http://merchant.example.com/', '--json']);
  assert.notEqual(cli.code, 0);
  assert.equal(cli.stdout, '');
  assert.match(cli.stderr, /VALIDATION_FAILED.*url/);
  const missing = await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--json']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /--url is required/);
});

test('without CALLBACK_ALLOW_PRIVATE_NETWORKS, literal private addresses and localhost are refused with a clear error', async () => {
  const org = await strict.createOrg();
  for (const url of ['https://127.0.0.1:8443/cb', 'https://10.0.0.5/cb', 'https://169.254.169.254/latest', 'https://[::1]/cb', 'https://localhost/cb']) {
    const r = await setDestination(strict, org, 'payout', url);
    assert.equal(r.status, 422, url);
    assert.match(r.body.error.details[0].issue, /public address/);
  }
  assert.equal((await setDestination(strict, org, 'payout', 'https://merchant.example.com/cb')).status, 201);
  // The same URLs are fine where private networks are allowed (development and tests).
  assert.equal((await setDestination(ts, await ts.createOrg(), 'payout', 'https://127.0.0.1:8443/cb')).status, 201);
});
