/**
 * The deployment files of deploy/ (issue #35 item 1, docs/operations.md "Deploying"): the systemd
 * unit checked by `systemd-analyze`, and the nginx example run for real (Debian's nginx) in front
 * of a running service: TLS with a certificate made here by openssl, only the public paths passed
 * on, the internal listener never reachable through it, the client address from X-Forwarded-For
 * only as the proxy sets it (TRUST_PROXY), the console cookie `__Host-…; Secure`. Each part says
 * plainly when its tool is missing and is skipped. The Containerfile is not built here (no
 * container engine on this machine; docs/operations.md says so).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
import { invite, GOOD_PASSWORD } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';

const UNIT = resolve('deploy/systemd/tijori.service');
const NGINX_CONF = resolve('deploy/nginx/tijori.conf');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

test('systemd unit: systemd-analyze verify has nothing to say, and its security exposure is low', { skip: has('systemd-analyze') ? false : 'systemd-analyze is not installed (apt-get install systemd): the unit is not checked' }, () => {
  const r = spawnSync('systemd-analyze', ['verify', '--man=no', UNIT], { encoding: 'utf8', cwd: tmpdir() });
  // verify exits 0 even for unknown keys; any line about the unit is a finding.
  const findings = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('tijori.service'));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(findings, []);
  const unit = readFileSync(UNIT, 'utf8');
  for (const line of ['User=tijori', 'NoNewPrivileges=yes', 'ProtectSystem=strict', 'Restart=on-failure', 'EnvironmentFile=/etc/tijori/tijori.env', 'KillSignal=SIGTERM']) {
    assert.ok(unit.split('\n').includes(line), line);
  }
  const sec = spawnSync('systemd-analyze', ['security', '--offline=true', UNIT], { encoding: 'utf8', cwd: tmpdir() });
  const level = /Overall exposure level for tijori\.service: ([\d.]+)/.exec(`${sec.stdout}${sec.stderr}`)?.[1];
  assert.ok(level !== undefined, sec.stdout + sec.stderr);
  assert.ok(Number(level) <= 2, `exposure ${level} (0 best, 10 worst)`);
});

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function waitForPort(port: number, proc: ChildProcess, log: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited ${proc.exitCode}: ${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
    const ok = await new Promise<boolean>((res) => {
      const s = createServer();
      s.once('error', () => res(true));
      s.listen(port, '127.0.0.1', () => s.close(() => res(false)));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('nginx did not listen');
}

test('nginx example in front of a running service: TLS, public paths only, TRUST_PROXY, __Host- Secure console cookie', { skip: NGINX && has('openssl') ? false : 'nginx or openssl is not installed (apt-get install nginx-light openssl): the reverse-proxy example is not run' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tijori-nginx-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem')], { stdio: 'ignore' });
  const httpsPort = await freePort();
  const httpPort = await freePort();

  const t: TestService = await startTestService({ PUBLIC_BASE_URL: `https://127.0.0.1:${httpsPort}`, TRUST_PROXY: '127.0.0.1' });
  cleanup.push(() => t.stop());
  const upstream = new URL(t.svc.publicUrl).port;

  // The example as shipped, with this test's ports, certificate and upstream swapped in, inside a minimal main context.
  const site = readFileSync(NGINX_CONF, 'utf8')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstream};`)
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
    .replace('return 308 https://$host$request_uri;', `return 308 https://$host:${httpsPort}$request_uri;`)
    .replaceAll('/etc/ssl/tijori/', `${dir}/`);
  assert.ok(site.includes(`127.0.0.1:${upstream}`) && site.includes(`${dir}/fullchain.pem`), 'the example has the expected lines to swap');
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${site}
}
`);
  const test = spawnSync(NGINX as string, ['-t', '-e', join(dir, 'error.log'), '-p', dir, '-c', conf], { encoding: 'utf8' });
  assert.equal(test.status, 0, test.stderr);
  const nginx = spawn(NGINX as string, ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf], { stdio: 'ignore' });
  cleanup.push(() => {
    nginx.kill('SIGQUIT');
  });
  await waitForPort(httpsPort, nginx, join(dir, 'error.log'));

  const ca = readFileSync(join(dir, 'fullchain.pem'), 'utf8');
  const dispatcher = new Agent({ connect: { ca } });
  cleanup.push(() => dispatcher.close());
  const base = `https://127.0.0.1:${httpsPort}`;
  const get = (path: string, init: Parameters<typeof undiciFetch>[1] = {}) => undiciFetch(`${base}${path}`, { dispatcher, redirect: 'manual', ...init });

  // TLS with the certificate made above; an untrusting client is refused by TLS itself.
  assert.equal((await get('/healthz')).status, 200);
  await assert.rejects(undiciFetch(`${base}/healthz`), /fetch failed/);
  // Plain http is redirected to https.
  const plain = await fetch(`http://127.0.0.1:${httpPort}/api/v1/anything`, { redirect: 'manual' });
  assert.equal(plain.status, 308);
  assert.equal(plain.headers.get('location'), `https://127.0.0.1:${httpsPort}/api/v1/anything`);

  // The internal listener's paths are never passed on (nor is anything unknown).
  for (const path of ['/metrics', '/admin/orgs', '/provider/x/callbacks', '/internal']) {
    const r = await get(path, { headers: { authorization: `Bearer ${t.config.adminToken}` } });
    assert.equal(r.status, 404, path);
    assert.match(r.headers.get('server') ?? '', /nginx/, `${path} is answered by nginx itself`);
  }
  const metricsDirect = await fetch(`${t.svc.internalUrl}/metrics`);
  assert.equal(metricsDirect.status, 200, 'the internal listener works, on its own address only');

  // TRUST_PROXY: the address the service sees is the one nginx saw; a client's own X-Forwarded-For is replaced, not believed.
  const client = await t.createClient({ allowIps: ['203.0.113.9'] });
  const spoofed = await get(`/api/v1/merchant/payment-orders/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
    headers: { 'x-service-client-id': client.clientId, authorization: `Bearer ${client.secret}`, 'x-forwarded-for': '203.0.113.9' },
  });
  assert.equal(spoofed.status, 403, 'an allow list is not passed with a forged X-Forwarded-For');
  assert.equal(((await spoofed.json()) as any).error.code, 'API_IP_NOT_ALLOWED');
  const open = await t.createClient({ allowIps: ['127.0.0.1'] });
  const allowed = await get(`/api/v1/merchant/payment-orders/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
    headers: { 'x-service-client-id': open.clientId, authorization: `Bearer ${open.secret}`, 'x-forwarded-for': '198.51.100.7' },
  });
  assert.equal(allowed.status, 404);
  const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.route?.includes('payment-orders') && l.status === 404);
  assert.equal(line?.ip, '127.0.0.1', 'the logged client address is the one nginx saw');

  // The console over https: the session cookie is __Host- and Secure.
  const orgId = await t.createOrg('Proxy Org');
  const { token } = await invite(t, orgId, 'ops@example.in', 'admin');
  const setup = await get('/console/api/setup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: GOOD_PASSWORD }) });
  assert.equal(setup.status, 200, await setup.clone().text());
  const cookie = setup.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^__Host-tijori_console=[^;]+/);
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; Path=\//);
  assert.doesNotMatch(cookie, /Domain=/i);
  const session = await get('/console/api/session', { headers: { cookie: cookie.split(';')[0] as string } });
  assert.equal(session.status, 200, 'the session works through the proxy');
});
