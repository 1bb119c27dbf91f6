/**
 * Issue #29 items 1 and 2, as attacks on the real service and PostgreSQL: a burst of parallel
 * wrong passwords (plus the right one) evaluates at most the account's allowance of 5 attempts,
 * and a locked account is refused even the right password; wrong second-factor codes count per
 * account, across challenges, towards the same lock.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { type ConsoleCaller, consoleCaller as plainCaller, GOOD_PASSWORD, invite, signedInUser } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
let org: string;
before(async () => {
  // Each test signs in from its own address (behind a trusted proxy): the per-address limit (20 a
  // minute) is not what these tests are about.
  ts = await startTestService({ TRUST_PROXY: '127.0.0.1' });
  org = await ts.createOrg('Races');
});
after(() => ts?.stop());

let address = '';
/** A caller from the current test's address. */
function consoleCaller(t: TestService): ConsoleCaller {
  const c = plainCaller(t);
  const call = c.call.bind(c);
  c.call = (method, path, body, opts = {}) => call(method, path, body, { ...opts, headers: { ...opts.headers, 'x-forwarded-for': address } });
  return c;
}


async function userState(email: string): Promise<{ failed_signins: number; locked: boolean }> {
  const r = await ts.database.db.query<{ failed_signins: number; locked: boolean }>(
    'SELECT failed_signins, coalesce(locked_until > now(), false) AS locked FROM console_users WHERE email = $1',
    [email],
  );
  return r.rows[0] as { failed_signins: number; locked: boolean };
}

test('a burst of 17 wrong passwords plus the right one: at most 5 are evaluated, the right one gets no session, the account is locked', async () => {
  address = '198.51.100.1';
  const email = 'burst@example.com';
  await signedInUser(ts, org, email, 'viewer');
  const wrong = Array.from({ length: 17 }, (_, i) => consoleCaller(ts).call('POST', '/session', { email, password: `wrong-password-${i}-x` }));
  const right = consoleCaller(ts);
  // The right password is sent once the account is locked, while wrong ones are still in flight.
  for (let i = 0; i < 200 && !(await userState(email)).locked; i++) await new Promise((res) => setTimeout(res, 10));
  const rightAnswer = right.call('POST', '/session', { email, password: GOOD_PASSWORD });
  const answers = await Promise.all(wrong);
  const r = await rightAnswer;
  const evaluated = answers.filter((a) => a.status === 401);
  const refused = answers.filter((a) => a.status === 429);
  assert.equal(evaluated.length + refused.length, 17, answers.map((a) => a.text).join('\n'));
  assert.equal(evaluated.length, 5, 'exactly the allowance is evaluated');
  for (const a of refused) {
    assert.equal(a.body.error.code, 'RATE_LIMITED');
    assert.ok(a.body.request_id);
    assert.ok(Number(a.headers.get('retry-after')) > 0);
  }
  assert.equal(r.status, 429, `the right password after the allowance is refused: ${r.text}`);
  assert.equal(right.cookie, null, 'no session');
  assert.equal((await userState(email)).locked, true);
  const later = consoleCaller(ts);
  const again = await later.call('POST', '/session', { email, password: GOOD_PASSWORD });
  assert.equal(again.status, 429, 'a locked account is refused even the right password');
  assert.equal(later.cookie, null);
  const audit = await ts.database.db.query("SELECT count(*)::int AS n FROM console_audit_log WHERE action = 'user.locked' AND target_id = (SELECT id::text FROM console_users WHERE email = $1)", [email]);
  assert.equal(audit.rows[0]?.n, 1, 'one lock, audited once');
});

test('the right password inside the allowance gets in and clears the count; a later burst starts from a full allowance', async () => {
  address = '198.51.100.2';
  const email = 'burst-ok@example.com';
  await signedInUser(ts, org, email, 'viewer');
  const c = consoleCaller(ts);
  for (let i = 0; i < 3; i++) assert.equal((await c.call('POST', '/session', { email, password: `nope-nope-nope-${i}` })).status, 401);
  assert.equal((await c.call('POST', '/session', { email, password: GOOD_PASSWORD })).status, 200);
  assert.deepEqual(await userState(email), { failed_signins: 0, locked: false });
  const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => consoleCaller(ts).call('POST', '/session', { email, password: `again-wrong-${i}-x` })));
  assert.equal(burst.filter((a) => a.status === 401).length, 5);
  assert.equal(burst.filter((a) => a.status === 429).length, 3);
});

test('wrong TOTP codes count per account across challenges: a fresh challenge (the password again) brings no new guesses', async () => {
  address = '198.51.100.3';
  const email = 'totp-guess@example.com';
  const u = await signedInUser(ts, org, email, 'checker');
  const begin = await u.call('POST', '/me/totp/begin');
  assert.equal(begin.status, 200, begin.text);
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.data.secret), digits: 6, period: 30 });
  assert.equal((await u.call('POST', '/me/totp/confirm', { code: totp.generate() })).status, 200);
  const wrongCode = (): string => {
    const good = new Set([-1, 0, 1].map((d) => totp.generate({ timestamp: Date.now() + d * 30_000 })));
    for (let n = 0; ; n++) {
      const c = String(n).padStart(6, '0');
      if (!good.has(c)) return c;
    }
  };
  // The attacker knows the password and guesses codes, starting a new challenge each time.
  const c = consoleCaller(ts);
  let guesses = 0;
  let lastChallenge = '';
  for (let round = 0; round < 4; round++) {
    const s = await c.call('POST', '/session', { email, password: GOOD_PASSWORD });
    if (s.status === 429) break;
    assert.equal(s.status, 200, s.text);
    lastChallenge = s.body.data.challenge;
    for (let i = 0; i < 3; i++) {
      const r = await c.call('POST', '/session/totp', { challenge: lastChallenge, code: wrongCode() });
      if (r.status === 429) break;
      assert.equal(r.status, 401, r.text);
      guesses++;
    }
  }
  // Five attempts per window in all, passwords and codes together: two passwords, three codes.
  assert.equal(guesses, 3, 'wrong codes use the same allowance as wrong passwords');
  assert.equal((await userState(email)).locked, true);
  const refused = await c.call('POST', '/session/totp', { challenge: lastChallenge, code: totp.generate() });
  assert.equal(refused.status, 429, 'the right code is refused while the account is locked');
  assert.equal((await c.call('POST', '/session', { email, password: GOOD_PASSWORD })).status, 429);
  assert.equal(c.cookie, null);
});

test('weak passwords are refused at set-up by their zxcvbn score (at least 3 of 4), in the envelope', async () => {
  address = '198.51.100.4';
  const { token } = await invite(ts, org, 'weakling@example.com', 'viewer');
  const c = consoleCaller(ts);
  for (const password of ['Password12345', 'qwertyuiopas', 'weakling123456']) {
    const r = await c.call('POST', '/setup', { token, password });
    assert.equal(r.status, 422, `${password}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_FAILED');
    assert.ok(r.body.request_id);
    assert.match(r.text, /too easy to guess|built from your email|commonly used/, password);
  }
  assert.equal((await c.call('POST', '/setup', { token, password: GOOD_PASSWORD })).status, 200, 'a strong one is taken');
});

test("a page's automatic polls do not keep an idle session alive; use does", async () => {
  address = '198.51.100.5';
  const u = await signedInUser(ts, org, 'poller@example.com', 'viewer');
  const age = async (): Promise<number> => {
    const r = await ts.database.db.query<{ s: number }>('SELECT extract(epoch FROM now() - last_seen_at)::int AS s FROM console_sessions WHERE user_id = $1 AND revoked_at IS NULL', [u.userId]);
    return r.rows[0]!.s;
  };
  await ts.database.db.query("UPDATE console_sessions SET last_seen_at = now() - interval '1700 seconds' WHERE user_id = $1", [u.userId]);
  const poll = { headers: { 'x-console-poll': '1' } };
  for (let i = 0; i < 3; i++) assert.equal((await u.call('GET', '/bulk-payouts', undefined, poll)).status, 200);
  assert.ok((await age()) >= 1700, 'polls left the session as idle as it was');
  assert.equal((await u.call('GET', '/bulk-payouts')).status, 200);
  assert.ok((await age()) < 60, 'a read by the person is use');
  await ts.database.db.query("UPDATE console_sessions SET last_seen_at = now() - interval '1801 seconds' WHERE user_id = $1", [u.userId]);
  const ended = await u.call('GET', '/bulk-payouts', undefined, poll);
  assert.equal(ended.status, 401, 'idle is idle, polling or not');
});

test('a known email is not told apart from an unknown one: the same 401s, then the same 429', async () => {
  address = '198.51.100.6';
  await signedInUser(ts, org, 'known@example.com', 'viewer');
  const c = consoleCaller(ts);
  const answers = async (email: string) => {
    const seen: Array<{ status: number; code: string; message: string; retry: boolean }> = [];
    for (let i = 0; i < 7; i++) {
      const r = await c.call('POST', '/session', { email, password: `guess-number-${i}-xyz` });
      seen.push({ status: r.status, code: r.body.error.code, message: r.body.error.message, retry: r.headers.get('retry-after') !== null });
    }
    return seen;
  };
  const known = await answers('known@example.com');
  const unknown = await answers('unknown-person@example.com');
  assert.deepEqual(unknown, known);
  assert.deepEqual(known.map((a) => a.status), [401, 401, 401, 401, 401, 429, 429]);
});
