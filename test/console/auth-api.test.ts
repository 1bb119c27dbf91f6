/**
 * The console's auth rules against the real service and PostgreSQL: set-up links, password
 * policy, sign-in and lockout, CSRF, roles, sessions (idle time-out, sign out everywhere), TOTP
 * with recovery codes, organizations kept apart, the audit log, and `tijori user create|list`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { consoleCaller, GOOD_PASSWORD, invite, signedInUser } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';
import { TestClock } from '../../src/clock.js';

let ts: TestService;
let orgA: string;
let orgB: string;
before(async () => {
  ts = await startTestService();
  orgA = await ts.createOrg('Org A');
  orgB = await ts.createOrg('Org B');
});
after(() => ts?.stop());

test('tijori user create prints the contract fields and a one-time set-up link; user list shows the status', async () => {
  const r = await runTijori(ts, ['user', 'create', '--org', orgA, '--email', 'Dev.One@Example.com', '--role', 'developer', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const u = parseJsonOutput(r);
  assert.deepEqual(Object.keys(u).sort(), ['email', 'role', 'setup_url', 'user_id']);
  assert.equal(u.email, 'dev.one@example.com');
  assert.equal(u.role, 'developer');
  assert.match(u.setup_url, new RegExp(`^${ts.svc.publicUrl}/console/setup#token=[A-Za-z0-9_-]{43}$`));
  const list = await runTijori(ts, ['user', 'list', '--org', orgA, '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(parseJsonOutput(list), [{ user_id: u.user_id, email: 'dev.one@example.com', role: 'developer', status: 'invited' }]);
  const bad = await runTijori(ts, ['user', 'create', '--org', orgA, '--email', 'x@example.com', '--role', 'owner', '--json']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /role/);

  const token = new URL(u.setup_url).hash.replace('#token=', '');
  const c = consoleCaller(ts);
  assert.deepEqual((await c.call('POST', '/setup/inspect', { token })).body.data, { email: 'dev.one@example.com' });
  const short = await c.call('POST', '/setup', { token, password: 'short-pass' });
  assert.equal(short.status, 422);
  assert.match(short.text, /at least 12/);
  const common = await c.call('POST', '/setup', { token, password: 'password1234' });
  assert.equal(common.status, 422, common.text);
  assert.match(common.text, /commonly used/);
  const ok = await c.call('POST', '/setup', { token, password: GOOD_PASSWORD });
  assert.equal(ok.status, 200, ok.text);
  const cookie = ok.headers.get('set-cookie') ?? '';
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.doesNotMatch(cookie, /Secure/, 'plain http origin: no Secure flag');
  assert.equal(ok.body.data.user.status, 'active');
  const again = await consoleCaller(ts).call('POST', '/setup', { token, password: GOOD_PASSWORD });
  assert.equal(again.status, 404, 'the link works once');
  assert.equal(again.body.error.code, 'NOT_FOUND');
  assert.ok(again.body.request_id);
  const listed = parseJsonOutput(await runTijori(ts, ['user', 'list', '--org', orgA, '--json']));
  assert.equal(listed[0].status, 'active');
});

test('sign-in: wrong password is 401 in the envelope; five in a row lock the account (429) even for the right password', async () => {
  await invite(ts, orgA, 'lock@example.com', 'viewer').then(({ token }) => consoleCaller(ts).call('POST', '/setup', { token, password: GOOD_PASSWORD }));
  const c = consoleCaller(ts);
  for (let i = 0; i < 5; i++) {
    const r = await c.call('POST', '/session', { email: 'lock@example.com', password: `wrong-password-${i}` });
    assert.equal(r.status, 401, r.text);
    assert.equal(r.body.error.code, 'API_AUTH_FAILED');
    assert.ok(r.body.error.request_id);
  }
  const locked = await c.call('POST', '/session', { email: 'lock@example.com', password: GOOD_PASSWORD });
  assert.equal(locked.status, 429, locked.text);
  assert.equal(locked.body.error.code, 'RATE_LIMITED');
  const unknown = await c.call('POST', '/session', { email: 'nobody@example.com', password: GOOD_PASSWORD });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.error.message, 'The email or password is not right.');
});

test('a session needs its CSRF token for every change; without a session the API is 401', async () => {
  const dev = await signedInUser(ts, orgA, 'csrf@example.com', 'developer');
  const none = await consoleCaller(ts).call('GET', '/api-clients');
  assert.equal(none.status, 401);
  const noToken = await dev.call('POST', '/api-clients', { scopes: ['payouts:read'] }, { csrf: null });
  assert.equal(noToken.status, 403, noToken.text);
  assert.match(noToken.body.error.message, /x-csrf-token/);
  const wrong = await dev.call('POST', '/api-clients', { scopes: ['payouts:read'] }, { csrf: 'not-the-token' });
  assert.equal(wrong.status, 403);
  const right = await dev.call('POST', '/api-clients', { scopes: ['payouts:read'], name: 'csrf ok' });
  assert.equal(right.status, 201, right.text);
  assert.match(right.body.data.client_secret, /^tj_secret_/);
  const list = await dev.call('GET', '/api-clients');
  assert.ok(!list.text.includes(right.body.data.client_secret), 'the list never shows a secret');
});

test('a viewer reads but every change is 403, whatever the route', async () => {
  const viewer = await signedInUser(ts, orgA, 'viewer@example.com', 'viewer');
  assert.equal((await viewer.call('GET', '/api-clients')).status, 200);
  assert.equal((await viewer.call('GET', '/audit-log')).status, 200);
  const changes: Array<[string, string, unknown]> = [
    ['POST', '/api-clients', { scopes: ['payouts:read'] }],
    ['POST', '/api-clients/tj_client_x/rotate-secret', undefined],
    ['POST', '/api-clients/tj_client_x/revoke', undefined],
    ['POST', '/users', { email: 'n@example.com', role: 'admin' }],
    ['POST', '/users/00000000-0000-4000-8000-000000000000/role', { role: 'admin' }],
    ['POST', '/users/00000000-0000-4000-8000-000000000000/disable', undefined],
    ['POST', '/me/totp/begin', undefined],
  ];
  for (const [method, path, body] of changes) {
    const r = await viewer.call(method, path, body);
    assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
    assert.equal(r.body.error.code, 'API_SCOPE_DENIED');
  }
  // A developer may manage clients but not users.
  const dev = await signedInUser(ts, orgA, 'dev2@example.com', 'developer');
  assert.equal((await dev.call('POST', '/users', { email: 'n2@example.com', role: 'admin' })).status, 403);
});

test('two organizations never see or touch each other\'s clients, users or audit entries', async () => {
  const adminA = await signedInUser(ts, orgA, 'admin-a@example.com', 'admin');
  const adminB = await signedInUser(ts, orgB, 'admin-b@example.com', 'admin');
  const created = await adminA.call('POST', '/api-clients', { scopes: ['collections:read'], name: 'A only' });
  assert.equal(created.status, 201);
  const id = created.body.data.client.client_id;
  const bList = await adminB.call('GET', '/api-clients');
  assert.ok(!bList.text.includes(id));
  assert.equal((await adminB.call('POST', `/api-clients/${id}/rotate-secret`)).status, 404);
  assert.equal((await adminB.call('POST', `/api-clients/${id}/revoke`)).status, 404);
  const bUsers = await adminB.call('GET', '/users');
  assert.deepEqual(bUsers.body.data.map((u: any) => u.email), ['admin-b@example.com']);
  assert.equal((await adminB.call('POST', `/users/${adminA.userId}/disable`)).status, 404);
  const bAudit = await adminB.call('GET', '/audit-log');
  assert.ok(!bAudit.text.includes('admin-a@example.com'));
  assert.ok(!bAudit.text.includes(id));
});

test('admin: invite, change role, new set-up link, disable (sessions end); all in the audit log without secrets', async () => {
  const admin = await signedInUser(ts, orgA, 'boss@example.com', 'admin');
  const invited = await admin.call('POST', '/users', { email: 'ops@example.com', role: 'viewer' });
  assert.equal(invited.status, 201, invited.text);
  const opsId = invited.body.data.user.user_id;
  const ops = consoleCaller(ts);
  await ops.call('POST', '/setup', { token: new URL(invited.body.data.setup_url).hash.slice(7), password: GOOD_PASSWORD });
  assert.equal((await ops.call('GET', '/session')).status, 200);
  const role = await admin.call('POST', `/users/${opsId}/role`, { role: 'reviewer' });
  assert.equal(role.body.data.role, 'reviewer');
  assert.equal((await admin.call('POST', `/users/${admin.userId}/role`, { role: 'viewer' })).status, 409, 'not one\'s own role');
  const disabled = await admin.call('POST', `/users/${opsId}/disable`);
  assert.equal(disabled.body.data.status, 'disabled');
  assert.equal((await ops.call('GET', '/session')).status, 401, 'a disabled user\'s session ends');
  const client = await admin.call('POST', '/api-clients', { scopes: ['payouts:read'], allowed_ips: ['203.0.113.7'] });
  const rotated = await admin.call('POST', `/api-clients/${client.body.data.client.client_id}/rotate-secret`);
  assert.equal((await admin.call('POST', `/api-clients/${client.body.data.client.client_id}/revoke`)).status, 200);
  const log = await admin.call('GET', '/audit-log?limit=200');
  const actions = log.body.data.map((e: any) => e.action);
  for (const a of ['user.invited', 'user.role_changed', 'user.disabled', 'api_client.created', 'api_client.secret_rotated', 'api_client.revoked', 'session.signed_in']) {
    assert.ok(actions.includes(a), `${a} in ${actions}`);
  }
  const roleEntry = log.body.data.find((e: any) => e.action === 'user.role_changed');
  assert.deepEqual([roleEntry.actor, roleEntry.before, roleEntry.after, roleEntry.ip], ['boss@example.com', { role: 'viewer' }, { role: 'reviewer' }, '127.0.0.1']);
  assert.ok(!log.text.includes(client.body.data.client_secret) && !log.text.includes(rotated.body.data.client_secret), 'no secret in the audit log');
  assert.ok(!log.text.includes(GOOD_PASSWORD));
  const filtered = await admin.call('GET', '/audit-log?action=api_client.');
  assert.ok(filtered.body.data.length >= 3 && filtered.body.data.every((e: any) => e.action.startsWith('api_client.')));
  const page1 = await admin.call('GET', '/audit-log?limit=2');
  const page2 = await admin.call('GET', `/audit-log?limit=2&cursor=${page1.body.next_cursor}`);
  assert.equal(page2.body.data.length, 2);
  assert.ok(page2.body.data.every((e: any) => !page1.body.data.some((f: any) => f.id === e.id)));
});

test('sessions: sign out, sign out everywhere, and the idle time-out', async () => {
  const a = await signedInUser(ts, orgA, 'sess@example.com', 'maker');
  const b = consoleCaller(ts);
  assert.equal((await b.call('POST', '/session', { email: 'sess@example.com', password: GOOD_PASSWORD })).status, 200);
  const everywhere = await a.call('POST', '/session/sign-out-everywhere');
  assert.equal(everywhere.body.data.sessions_ended, 2);
  assert.equal((await b.call('GET', '/session')).status, 401);
  const c = consoleCaller(ts);
  await c.call('POST', '/session', { email: 'sess@example.com', password: GOOD_PASSWORD });
  assert.equal((await c.call('DELETE', '/session')).status, 200);
  assert.equal(c.cookie, null, 'sign-out clears the cookie');
  // The idle time-out, on a second instance of the same database set to 60 seconds, whose clock
  // the test moves (src/clock.ts): no waiting, and one second short of the time-out is still alive.
  const clock = new TestClock();
  const short = await startTestService({ CONSOLE_IDLE_TIMEOUT_S: '60' }, { database: ts.database, clock });
  try {
    const d = consoleCaller(short);
    assert.equal((await d.call('POST', '/session', { email: 'sess@example.com', password: GOOD_PASSWORD })).status, 200);
    assert.equal((await d.call('GET', '/session')).status, 200);
    clock.advance(59_000);
    assert.equal((await d.call('GET', '/session')).status, 200, '59 s after its last use: alive, and this use keeps it alive');
    clock.advance(59_000);
    assert.equal((await d.call('GET', '/session')).status, 200, '118 s after sign-in, 59 s after its last use: alive');
    clock.advance(61_000);
    assert.equal((await d.call('GET', '/session')).status, 401, 'idle past the time-out');
  } finally {
    await short.stop();
  }
});

test('TOTP: enrol with a code, then sign-in needs a code (once) or a recovery code (once)', async () => {
  const u = await signedInUser(ts, orgA, 'totp@example.com', 'developer');
  const begin = await u.call('POST', '/me/totp/begin');
  assert.equal(begin.status, 200, begin.text);
  assert.match(begin.body.data.qr_data_url, /^data:image\/png;base64,/);
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.data.secret), digits: 6, period: 30 });
  assert.equal((await u.call('POST', '/me/totp/confirm', { code: '000000' === totp.generate() ? '111111' : '000000' })).status, 422);
  const enrolledAt = Date.now();
  const enrolCode = totp.generate({ timestamp: enrolledAt });
  const confirm = await u.call('POST', '/me/totp/confirm', { code: enrolCode });
  assert.equal(confirm.status, 200, confirm.text);
  const codes: string[] = confirm.body.data.recovery_codes;
  assert.equal(codes.length, 10);

  const c = consoleCaller(ts);
  const step1 = await c.call('POST', '/session', { email: 'totp@example.com', password: GOOD_PASSWORD });
  assert.equal(step1.body.data.totp_required, true);
  assert.equal(c.cookie, null, 'no session before the second factor');
  // The enrolment's code was used: the same code again is refused (it is still inside the
  // accepted window of one step either way), the next step's code is accepted.
  const sameCode = await c.call('POST', '/session/totp', { challenge: step1.body.data.challenge, code: enrolCode });
  assert.equal(sameCode.status, 401, 'a TOTP code is accepted once');
  const next = totp.generate({ timestamp: enrolledAt + 30_000 });
  const ok = await c.call('POST', '/session/totp', { challenge: step1.body.data.challenge, code: next });
  assert.equal(ok.status, 200, ok.text);
  assert.ok(c.cookie);

  const r = consoleCaller(ts);
  const s = await r.call('POST', '/session', { email: 'totp@example.com', password: GOOD_PASSWORD });
  assert.equal((await r.call('POST', '/session/totp', { challenge: s.body.data.challenge, code: codes[0] })).status, 200);
  const r2 = consoleCaller(ts);
  const s2 = await r2.call('POST', '/session', { email: 'totp@example.com', password: GOOD_PASSWORD });
  assert.equal((await r2.call('POST', '/session/totp', { challenge: s2.body.data.challenge, code: codes[0] })).status, 401, 'a recovery code works once');
});

test('unknown console API paths answer 404 in the envelope; the app page has a strict CSP', async () => {
  const r = await fetch(`${ts.svc.publicUrl}/console/api/nope`);
  assert.equal(r.status, 404);
  assert.equal(((await r.json()) as any).error.code, 'NOT_FOUND');
  const page = await fetch(`${ts.svc.publicUrl}/console/`);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
});

test('callback destinations: the signing secret once on first set-up and on rotation; a viewer is refused; audited without the secret', async () => {
  const dev = await signedInUser(ts, orgB, 'dest-dev@example.com', 'developer');
  const viewer = await signedInUser(ts, orgB, 'dest-viewer@example.com', 'viewer');
  assert.equal((await viewer.call('PUT', '/destinations/payin', { url: 'https://127.0.0.1:9443/cb' })).status, 403);
  const first = await dev.call('PUT', '/destinations/payin', { url: 'https://127.0.0.1:9443/cb' });
  assert.equal(first.status, 200, first.text);
  assert.match(first.body.data.signing_secret, /^whsec_/);
  const changed = await dev.call('PUT', '/destinations/payin', { url: 'https://127.0.0.1:9443/cb2' });
  assert.equal(changed.body.data.signing_secret, null, 'a URL change reveals nothing');
  assert.equal((await dev.call('PUT', '/destinations/payin', { url: 'http://example.com/cb' })).status, 422, 'HTTPS only (plain http only to local hosts in development)');
  const rotated = await dev.call('POST', '/destinations/payin/rotate-secret');
  assert.match(rotated.body.data.signing_secret, /^whsec_/);
  assert.notEqual(rotated.body.data.signing_secret, first.body.data.signing_secret);
  assert.equal((await dev.call('POST', '/destinations/payout/rotate-secret')).status, 404, 'nothing to rotate');
  assert.equal((await viewer.call('POST', '/destinations/payin/rotate-secret')).status, 403);
  const list = await viewer.call('GET', '/destinations');
  assert.deepEqual(list.body.data.map((d: any) => [d.kind, d.url]), [['payin', 'https://127.0.0.1:9443/cb2']]);
  assert.ok(!list.text.includes('whsec_'));
  const log = await dev.call('GET', '/audit-log?action=destination.');
  assert.deepEqual(log.body.data.map((e: any) => e.action).sort(), ['destination.created', 'destination.secret_rotated', 'destination.url_changed']);
  assert.ok(!log.text.includes('whsec_'));
  const otherOrg = await signedInUser(ts, orgA, 'dest-a@example.com', 'developer');
  assert.deepEqual((await otherOrg.call('GET', '/destinations')).body.data, []);

  // Rotation without downtime (contract §11): the new secret waits until "Activate new secret".
  assert.ok(Date.parse(rotated.body.data.active_from) - Date.now() > 71 * 3600_000, 'active_from: 72 h on');
  assert.equal((await viewer.call('GET', '/destinations')).body.data[0].next_secret_active_from, rotated.body.data.active_from);
  assert.equal((await viewer.call('POST', '/destinations/payin/activate-secret')).status, 403);
  const activated = await dev.call('POST', '/destinations/payin/activate-secret');
  assert.equal(activated.status, 200, activated.text);
  assert.equal(activated.body.data.kind, 'payin');
  assert.equal((await viewer.call('GET', '/destinations')).body.data[0].next_secret_active_from, null);
  const again = await dev.call('POST', '/destinations/payin/activate-secret');
  assert.equal(again.status, 409, 'nothing waits any more');
  assert.equal(again.body.error.code, 'INVALID_STATE');
  const after = await dev.call('GET', '/audit-log?action=destination.secret_activated');
  assert.equal(after.body.data.length, 1);
});
