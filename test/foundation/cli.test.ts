/**
 * The `tijori` CLI as an operator uses it (contract §2): the documented objects, each command's own
 * help, the version, one-line usage errors with exit 2, failures of the service or the connection
 * with exit 1, and INTERNAL_PORT when ADMIN_URL is unset.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

/** Lines of a stream's text, without the trailing newline. */
const lines = (s: string) => s.trimEnd().split('\n').filter(Boolean);

test("COMMAND --help and help COMMAND print that command's own usage and exit 0", async () => {
  for (const args of [['org', 'create', '--help'], ['help', 'org', 'create'], ['org', 'create', '-h']]) {
    const r = await runTijori(ts, args);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: tijori org create --name NAME \[--json\]\n/);
    assert.match(r.stdout, /--name NAME +the organization's name \(required\)/);
    assert.doesNotMatch(r.stdout, /client create/, 'not the whole list');
    assert.equal(r.stderr, '');
  }
  const flags = await runTijori(ts, ['help', 'client', 'create']);
  for (const f of ['--org ORG', '--scopes S1,S2', '--name N', '--allow-ip IP', '--rate-limit PER_MINUTE']) assert.ok(flags.stdout.includes(f), f);
  const pay = await runTijori(ts, ['sandbox', 'pay', '--help']);
  assert.match(pay.stdout, /^usage: tijori sandbox pay ORDER \[--utr UTR\] \[--no-callback\]/);
  const group = await runTijori(ts, ['help', 'sandbox']);
  assert.equal(group.code, 0);
  assert.deepEqual(
    lines(group.stdout).filter((l) => l.startsWith('  ')).map((l) => l.trim().split(' ').slice(0, 2).join(' ')),
    ['sandbox pay', 'sandbox fail', 'sandbox stats', 'sandbox settle', 'sandbox serve'],
  );
  const all = await runTijori(ts, ['--help']);
  assert.equal(all.code, 0);
  assert.match(all.stdout, /org create[\s\S]*client create[\s\S]*sandbox pay[\s\S]*callbacks replay/);
  const asJson = parseJsonOutput(await runTijori(ts, ['org', 'create', '--help', '--json']));
  assert.match(asJson.usage, /^usage: tijori org create/);
});

test('--version prints the package version', async () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const r = await runTijori(ts, ['--version']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `tijori ${version}\n`);
  assert.deepEqual(parseJsonOutput(await runTijori(ts, ['--version', '--json'])), { version });
});

test('usage errors: one line and at most one hint on stderr, nothing on stdout, exit 2', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['frobnicate'], /^tijori: unknown command "frobnicate"$/],
    [['org', 'frobnicate'], /^tijori: unknown command "org frobnicate"$/],
    [['org'], /^tijori: "org" needs a subcommand: create, set, list$/],
    [[], /^tijori: a command is needed$/],
    [['--bogus'], /^tijori: unknown flag --bogus$/],
    [['org', 'create', '--name', 'x', '--bogus'], /^tijori: org create: unknown flag --bogus$/],
    [['org', 'create', '--nmae', 'x'], /^tijori: org create: unknown flag --nmae$/],
    [['org', 'create', '--name'], /^tijori: org create: --name needs a value$/],
    [['org', 'create', '--json'], /^tijori: org create: --name is required$/],
    [['org', 'create', '--name', 'Acme', 'Retail'], /^tijori: org create: unexpected argument "Retail"$/],
    [['sandbox', 'pay'], /^tijori: sandbox pay: ORDER is required$/],
    [['sandbox', 'pay', 'ord_1', 'ord_2'], /^tijori: sandbox pay: unexpected argument "ord_2"$/],
    [['sandbox', 'stats', 'now'], /^tijori: sandbox stats: unexpected argument "now"$/],
    [['sandbox', 'pay', 'ord_1', '--no-callback=yes'], /^tijori: sandbox pay: --no-callback does not take an argument$/],
    [['help', 'frobnicate'], /^tijori: unknown command "frobnicate"$/],
  ];
  for (const [args, first] of cases) {
    const r = await runTijori(ts, args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    const err = lines(r.stderr);
    assert.ok(err.length >= 1 && err.length <= 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(err[0] as string, first);
  }
  const typo = await runTijori(ts, ['org', 'create', '--nmae', 'x']);
  assert.equal(lines(typo.stderr)[1], 'did you mean --name? (tijori org create --help)');
});

test('a failure of the service exits 1; a usage error of the same command exits 2', async () => {
  const service = await runTijori(ts, ['sandbox', 'pay', 'ord_does_not_exist', '--json']);
  assert.equal(service.code, 1);
  assert.match(service.stderr, /NOT_FOUND/);
  const usage = await runTijori(ts, ['sandbox', 'pay', '--json']);
  assert.equal(usage.code, 2);
});

test('a connection that fails says why, with exit 1', async () => {
  // A port nothing listens on: bound, then closed.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const r = await runTijori(ts, ['org', 'create', '--name', 'x', '--json'], { ADMIN_URL: `http://127.0.0.1:${port}` });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `tijori: cannot reach the admin API at http://127.0.0.1:${port}: connection refused — is the service running?\n`);
});

test('without ADMIN_URL the CLI calls the internal listener on INTERNAL_PORT', async () => {
  const port = new URL(ts.svc.internalUrl).port;
  const org = parseJsonOutput(await runTijori(ts, ['org', 'create', '--name', 'By port', '--json'], { ADMIN_URL: '', INTERNAL_PORT: port }));
  assert.equal(org.name, 'By port');
});
