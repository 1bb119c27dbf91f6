/** The `tijori` CLI as an operator uses it, then curl-like calls with the printed credentials. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
before(async () => {
  ts = await startTestService();
});
after(() => ts.stop());

test('org create, client create, allow-ip, rotate-secret print exactly the documented objects', async () => {
  const org = parseJsonOutput(await runTijori(ts, ['org', 'create', '--name', 'Acme Retail', '--json']));
  assert.deepEqual(Object.keys(org).sort(), ['id', 'name']);
  assert.equal(org.name, 'Acme Retail');

  const created = parseJsonOutput(
    await runTijori(ts, ['client', 'create', '--org', org.id, '--scopes', 'collections:write,collections:read', '--name', 'web', '--rate-limit', '100', '--json']),
  );
  assert.deepEqual(Object.keys(created).sort(), ['client_id', 'client_secret', 'scopes']);
  assert.deepEqual(created.scopes, ['collections:write', 'collections:read']);
  assert.match(created.client_secret, /^tj_secret_/);

  const allowed = parseJsonOutput(await runTijori(ts, ['client', 'allow-ip', '--client', created.client_id, '--ip', '127.0.0.1', '--json']));
  assert.deepEqual(allowed, { client_id: created.client_id, allowed_ips: ['127.0.0.1'] });

  const rotated = parseJsonOutput(await runTijori(ts, ['client', 'rotate-secret', '--client', created.client_id, '--json']));
  assert.deepEqual(Object.keys(rotated).sort(), ['client_id', 'client_secret']);
  assert.notEqual(rotated.client_secret, created.client_secret);

  const secrets = JSON.stringify(ts.logs);
  assert.ok(!secrets.includes(created.client_secret), 'client secret never logged');
  assert.ok(!secrets.includes(rotated.client_secret), 'rotated secret never logged');
});

test('errors go to stderr with a non-zero exit code and nothing on stdout', async () => {
  const bad = await runTijori(ts, ['client', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--scopes', 'collections:write', '--json']);
  assert.notEqual(bad.code, 0);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /NOT_FOUND/);
  const scopes = await runTijori(ts, ['client', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--scopes', 'everything', '--json']);
  assert.notEqual(scopes.code, 0);
  assert.match(scopes.stderr, /VALIDATION_FAILED/);
  const token = await runTijori(ts, ['org', 'create', '--name', 'x', '--json'], { ADMIN_TOKEN: 'wrong' });
  assert.notEqual(token.code, 0);
  assert.match(token.stderr, /API_AUTH_FAILED/);
  const usage = await runTijori(ts, ['frobnicate']);
  assert.equal(usage.code, 2);
});
