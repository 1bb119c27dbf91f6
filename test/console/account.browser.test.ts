/**
 * Account basics in a real browser (issue #32 item 8), at 390 and 1280 px, with a real SMTP server
 * on 127.0.0.1 (test/support/smtp.ts): "Forgot password?" on the sign-in page mails a link, which
 * opens the set-up page and signs the person in with a new password; "Your account" changes the
 * password with the current one; an admin's invitation says it was mailed and shows no link.
 * Without SMTP_URL the sign-in page says to ask an admin. axe-core finds no serious or critical
 * violation; screenshots kept in test-artifacts/console.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestService } from '../support/service.js';
import { linkIn, startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { a11y, assertCleanConsoleRun, navLink, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, submitSignIn, WIDTHS } from './browser-support.js';

let smtp: TestSmtp;
let ts: TestService;
let plain: TestService | undefined;
let browser: Browser;
let orgId: string;

describe('account basics in a browser: forgot password by mail, change password, mailed invitations', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    smtp = await startTestSmtp();
    ({ ts, browser } = await startConsoleAndBrowser({ SMTP_URL: smtp.url, SMTP_FROM: 'console@asha.example' }));
    orgId = await ts.createOrg('Asha Traders');
    await signedInUser(ts, orgId, 'admin@asha.example', 'admin');
    for (const w of WIDTHS) await signedInUser(ts, orgId, `viewer-${w}@asha.example`, 'viewer');
  });
  after(async () => {
    await stopConsoleAndBrowser(ts, browser);
    await plain?.stop();
    await smtp?.close();
  });

  test('forgot password: a link by mail, then a new password; change it on Your account', async () => {
    for (const width of WIDTHS) {
      const email = `viewer-${width}@asha.example`;
      const reset = `amber-orchard-kettle-${width}`;
      const changed = `silver-canyon-ribbon-${width}`;
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        page.context().setDefaultTimeout(30_000);
        await page.goto(`${ts.svc.publicUrl}/console/`);
        await page.getByRole('button', { name: 'Forgot password?' }).waitFor();
        await a11y(page, `sign-in at ${width}`);
        await shot(page, `sign-in-forgot-link-${width}`);
        await page.getByRole('button', { name: 'Forgot password?' }).click();
        await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
        await page.getByLabel('Email').fill(email);
        await a11y(page, `forgot password at ${width}`);
        await shot(page, `forgot-password-${width}`);
        await page.getByRole('button', { name: 'Email me a link' }).click();
        await page.getByRole('status').filter({ hasText: 'If this email belongs to a console user' }).waitFor();
        await shot(page, `forgot-password-sent-${width}`);
        const mail = await poll(async () => smtp.to(email)[0], { what: `mail to ${email}`, timeoutMs: 10_000, stepMs: 100 });

        await page.goto(linkIn(mail!));
        await page.getByLabel('Password', { exact: true }).fill(reset);
        await page.getByLabel('Confirm password').fill(reset);
        await page.getByRole('button', { name: /Set password/ }).click();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();

        await page.getByRole('link', { name: email }).click();
        await page.getByRole('heading', { name: 'Your account' }).waitFor();
        await page.getByLabel('Current password').fill('not-the-current-one-1');
        await page.getByLabel('New password', { exact: true }).fill(changed);
        await page.getByLabel('Confirm new password').fill(changed);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByRole('alert').filter({ hasText: 'is not your current password' }).waitFor();
        await page.getByLabel('Current password').fill(reset);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
        assert.equal(await page.getByLabel('Current password').inputValue(), '', 'the form is cleared');
        await a11y(page, `your account at ${width}`);
        await shot(page, `account-password-${width}`);

        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await submitSignIn(page, ts, email, changed);
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });

  test('an admin invites: the page says the link was mailed and shows none', async () => {
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'admin@asha.example');
        await navLink(page, 'Users').click();
        await page.getByLabel('Email').fill(`invited-${width}@asha.example`);
        await page.getByRole('button', { name: 'Invite user' }).click();
        await page.getByRole('status').filter({ hasText: `Invitation mailed to invited-${width}@asha.example` }).waitFor();
        assert.equal(await page.getByLabel('Set-up link', { exact: true }).count(), 0, 'no link on the page');
        assert.doesNotMatch(await page.content(), /token=/);
        await poll(async () => smtp.to(`invited-${width}@asha.example`)[0], { what: 'the invitation mail', timeoutMs: 10_000, stepMs: 100 });
        await a11y(page, `users, invitation mailed, at ${width}`);
        await shot(page, `users-invitation-mailed-${width}`);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });

  test('without SMTP_URL, "Forgot password?" says to ask an admin', async () => {
    plain = await startTestService();
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width);
      const { page } = rec;
      try {
        await page.goto(`${plain.svc.publicUrl}/console/`);
        await page.getByRole('button', { name: 'Forgot password?' }).click();
        await page.getByText('Ask an admin of your organization for a new set-up link').waitFor();
        assert.equal(await page.getByLabel('Email').count(), 0, 'no email asked for');
        await a11y(page, `forgot password without SMTP at ${width}`);
        await shot(page, `forgot-password-ask-admin-${width}`);
        await page.getByRole('button', { name: 'Back to sign in' }).click();
        await page.getByLabel('Password').waitFor();
        assertCleanConsoleRun(rec, plain.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });
});


