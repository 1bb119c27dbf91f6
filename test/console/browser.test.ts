/**
 * The merchant console in a real browser (Debian chromium + playwright-core): set-up from the
 * one-time link, the signed-in layout (navigation and "Sign out" named as contract §5 says), API
 * clients with the secret shown once, users and the audit log, sign-in with and without TOTP, a
 * viewer refused changes (UI and API), CSRF refused, session expiry, two organizations apart,
 * axe-core on every page built, screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { TestClock } from '../../src/clock.js';
import { consoleCaller, GOOD_PASSWORD, invite, signedInUser } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, NAV_LINKS, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, submitSignIn, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let orgA: string;
let orgB: string;

describe('merchant console in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser());
    orgA = await ts.createOrg('Asha Traders');
    orgB = await ts.createOrg('Bharat Stores');
    // An admin for the tests after the first (which sets up its own through the page).
    await signedInUser(ts, orgA, 'boss@asha.example', 'admin');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('set-up from the link, the signed-in layout, API clients with the secret shown once (gone on reload)', async () => {
    for (const width of WIDTHS) {
      const email = `admin-${width}@asha.example`;
      const { setupUrl } = await invite(ts, orgA, email, 'admin');
      const rec = await openPage(browser, width);
      const { page } = rec;
      page.context().setDefaultTimeout(30_000); // scrypt on a loaded machine
      try {
        await page.goto(setupUrl);
        await assert.doesNotReject(page.getByLabel('Email').and(page.locator(`[value="${email}"]`)).waitFor());
        await a11y(page, 'set-up page');
        await shot(page, `setup-${width}`);
        await page.getByLabel('Password', { exact: true }).fill('short');
        await page.getByLabel('Confirm password').fill('short');
        await page.getByRole('button', { name: 'Set password' }).click();
        await page.getByRole('alert').waitFor();
        assert.match(await page.getByRole('alert').innerText(), /at least 12 characters/);
        await page.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
        await page.getByLabel('Confirm password').fill(GOOD_PASSWORD);
        await page.getByRole('button', { name: 'Set password' }).click();

        const nav = page.getByRole('navigation');
        await nav.waitFor();
        for (const name of NAV_LINKS) assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 1, name);
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        assert.ok(!page.url().includes('token='), 'the spent token left the address bar');
        await a11y(page, 'overview (coming)');
        await shot(page, `overview-${width}`);

        await nav.getByRole('link', { name: 'API clients' }).click();
        await page.getByLabel('Name').fill(`server ${width}`);
        await page.getByLabel('IP allow list').fill('203.0.113.7');
        await page.getByRole('button', { name: 'Create API client' }).click();
        const secretField = page.getByLabel('Client secret');
        await secretField.waitFor();
        const secret = await secretField.inputValue();
        assert.match(secret, /^tj_secret_[A-Za-z0-9_-]{43}$/);
        await page.getByRole('button', { name: 'Copy the secret' }).waitFor();
        await a11y(page, 'API clients with a secret shown');
        await shot(page, `api-clients-secret-${width}`);
        const clientId = await page.locator('table tbody tr td code').first().innerText();
        // The secret shown is the one that works.
        const call = await ts.api('GET', '/merchant/payment-orders/00000000-0000-4000-8000-000000000000', {
          client: { orgId: orgA, clientId, secret },
          headers: { 'x-forwarded-for': '203.0.113.7' },
        });
        assert.notEqual(call.status, 401, call.text);

        await page.reload();
        await page.getByRole('cell', { name: clientId, exact: true }).waitFor();
        assert.equal(await page.getByLabel('Client secret').count(), 0, 'gone after reload');
        assert.ok(!(await page.content()).includes(secret));
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });

  test('callback destinations: the signing secret shown once, gone on reload; rotate shows a new one', async () => {
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'boss@asha.example');
      await page.getByRole('navigation').getByRole('link', { name: 'Callback destinations' }).click();
      await page.getByLabel('PayIn URL').fill('https://127.0.0.1:9443/tijori');
      await page.getByRole('button', { name: 'Save PayIn destination' }).click();
      const first = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      assert.match(first, /^whsec_/);
      await a11y(page, 'callback destinations');
      await shot(page, 'destinations-secret-1280');
      await page.reload();
      await page.getByRole('button', { name: 'Rotate PayIn signing secret' }).waitFor();
      assert.equal(await page.getByLabel('Signing secret', { exact: true }).count(), 0);
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Rotate PayIn signing secret' }).click();
      const second = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      assert.match(second, /^whsec_/);
      assert.notEqual(second, first);
      // Contract §11: the old secret signs until "Activate new secret".
      await page.getByText('A new signing secret waits').waitFor();
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Activate new secret' }).click();
      await page.getByRole('button', { name: 'Activate new secret' }).waitFor({ state: 'detached' });
      assert.equal(await page.getByText('A new signing secret waits').count(), 0);
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });

  test('users and audit log pages: invite gives a set-up link; the log shows and filters the change', async () => {
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'boss@asha.example');
      await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Email').fill('finance@asha.example');
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Invite user' }).click();
      const link = await page.getByLabel('Set-up link', { exact: true }).inputValue();
      assert.match(link, /\/console\/setup#token=/);
      await page.getByRole('cell', { name: 'finance@asha.example', exact: true }).waitFor();
      await page.getByLabel('Role of finance@asha.example').selectOption('reviewer');
      await page.getByLabel('Role of finance@asha.example').and(page.locator('select:not([disabled])')).waitFor();
      await a11y(page, 'users');
      await shot(page, 'users-1280');

      await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'user.role_changed', exact: true }).waitFor();
      await page.getByLabel('Action').fill('api_client.');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('cell', { name: 'api_client.created', exact: true }).first().waitFor();
      assert.equal(await page.getByRole('cell', { name: 'user.role_changed', exact: true }).count(), 0);
      const time = page.locator('td time').first();
      assert.match((await time.getAttribute('title')) ?? '', /UTC$/, 'UTC on hover');
      await a11y(page, 'audit log');
      await shot(page, 'audit-log-1280');
      await page.setViewportSize({ width: 390, height: 780 });
      await shot(page, 'audit-log-390');
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });

  test('sign-in with TOTP: the code step, then signed in; sign out returns to sign-in', async () => {
    const u = await signedInUser(ts, orgA, 'totp@asha.example', 'developer');
    const begin = await u.call('POST', '/me/totp/begin');
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.data.secret), digits: 6, period: 30 });
    assert.equal((await u.call('POST', '/me/totp/confirm', { code: totp.generate() })).status, 200);
    const rec = await openPage(browser, 390);
    const { page } = rec;
    try {
      await submitSignIn(page, ts, 'totp@asha.example');
      await page.getByLabel('Authentication code').waitFor();
      await a11y(page, 'TOTP step');
      await shot(page, 'sign-in-totp-390');
      await page.getByLabel('Authentication code').fill('000000' === totp.generate({ timestamp: Date.now() + 30_000 }) ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').waitFor();
      // The enrolment used this step's code: the next step's is accepted.
      await page.getByLabel('Authentication code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.equal((await page.context().cookies()).filter((c) => c.name.includes('tijori_console') && c.value !== '').length, 0);
      await shot(page, 'sign-in-390');
      await a11y(page, 'sign-in');
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });

  test('a viewer: no change controls in the UI, and the API answers 403 to a change made with a valid CSRF token', async () => {
    await signedInUser(ts, orgA, 'viewer@asha.example', 'viewer');
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'viewer@asha.example');
      await page.getByRole('navigation').getByRole('link', { name: 'API clients' }).click();
      await page.getByText('Your role can see API clients but not change them.').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Create API client' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /Rotate secret|Revoke/ }).count(), 0);
      await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
      await page.getByRole('cell', { name: 'viewer@asha.example', exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Invite user' }).count(), 0);
      // A string, not a function: tsx's helpers (__name) do not exist in the page.
      const answers = (await page.evaluate(`(async () => {
        const s = await (await fetch('/console/api/session')).json();
        const answer = async (headers) => {
          const r = await fetch('/console/api/api-clients', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ scopes: ['payouts:read'] }) });
          return { status: r.status, code: (await r.json()).error.code };
        };
        return { withToken: await answer({ 'x-csrf-token': s.data.csrf_token }), withoutToken: await answer({}) };
      })()`)) as { withToken: unknown; withoutToken: unknown };
      assert.deepEqual(answers.withToken, { status: 403, code: 'API_SCOPE_DENIED' });
      assert.deepEqual(answers.withoutToken, { status: 403, code: 'API_SCOPE_DENIED' });
      await shot(page, 'api-clients-viewer-1280');
    } finally {
      await rec.close();
    }
  });

  test('CSRF: a change without the token is refused even for an admin, from the page itself', async () => {
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'boss@asha.example');
      const r = (await page.evaluate(`(async () => {
        const res = await fetch('/console/api/api-clients', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['payouts:read'] }) });
        return { status: res.status, message: (await res.json()).error.message };
      })()`)) as { status: number; message: string };
      assert.equal(r.status, 403);
      assert.match(r.message, /x-csrf-token/);
    } finally {
      await rec.close();
    }
  });

  test('two organizations: an admin of B sees none of A\'s clients or users', async () => {
    await signedInUser(ts, orgB, 'admin@bharat.example', 'admin');
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'admin@bharat.example');
      await page.getByRole('navigation').getByRole('link', { name: 'API clients' }).click();
      await page.getByText('No API clients yet.').waitFor();
      await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
      await page.getByRole('cell', { name: 'admin@bharat.example', exact: true }).waitFor();
      assert.ok(!(await page.content()).includes('asha.example'));
      await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'session.signed_in', exact: true }).first().waitFor();
      assert.ok(!(await page.content()).includes('asha.example'));
    } finally {
      await rec.close();
    }
  });

  test('session expiry: idle past the time-out, the next page asks to sign in again', async () => {
    // Its clock stands still until moved (src/clock.ts): however slow the sign-in, no time-out before the move.
    const clock = new TestClock();
    const short = await startTestService({ CONSOLE_IDLE_TIMEOUT_S: '60' }, { database: ts.database, clock });
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, short, 'boss@asha.example');
      clock.advance(61_000);
      await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
      await page.getByText('Your session has ended. Sign in again.').waitFor();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.equal(await page.getByRole('navigation').count(), 0);
    } finally {
      await rec.close();
      await short.stop();
    }
  });
});

// Keep the import used when the suite is skipped (no browser).
void consoleCaller;
