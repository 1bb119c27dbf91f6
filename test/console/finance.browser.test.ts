/**
 * The console for the people who run the money (issue #32) in Debian's chromium, at 390 and
 * 1280 px: India's time by default (the browser here runs in UTC) with the zone shown and a
 * choice; messages brought into view and a created payout's form cleared; phones with a one-row
 * navigation and lists as cards; a refund started from a paid order's page and approved by a
 * reviewer after a confirmation naming the amount; a checker sees a bulk file's rows page by page
 * and no "New payout"; prefix search and date presets; and axe-core on every page of the
 * navigation at both widths (no serious or critical violation). Screenshots: test-artifacts/console.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { runTijori } from '../support/cli.js';
import { makerCheckerOrg, signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import type { TestClient, TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, navLink, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let client: TestClient;
let paid: any;

const HEADER = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference';

/** Whether the element's box lies within the viewport (what a person sees without scrolling). */
async function inView(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const vp = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width + 1;
}

describe('the console for finance, operations and checkers (issue #32)', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    client = await makerCheckerOrg(ts, 'meera@asha.example', 'divya@asha.example');
    await signedInUser(ts, client.orgId, 'asha@asha.example', 'admin');
    await signedInUser(ts, client.orgId, 'rita@asha.example', 'reviewer');
    await createOrder(ts, client, intentBody({ merchant_order_reference: 'Invoice 99900/B', amount_paise: 10_000 }));
    paid = await createOrder(ts, client, intentBody({ merchant_order_reference: 'Invoice 99900/A', amount_paise: 250_000 }));
    const pay = await runTijori(ts, ['sandbox', 'pay', paid.order_id, '--utr', '246813579024', '--json']);
    assert.equal(pay.code, 0, pay.stderr);
    const probe = await signedInUser(ts, client.orgId, 'vik@asha.example', 'viewer');
    await poll(async () => (await probe.call('GET', `/payment-orders/${paid.id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('times in IST by default with the zone shown, another zone chosen and kept; prefix search and date presets; phones: navigation in one row, rows as cards', async () => {
    for (const width of WIDTHS) {
      // The browser runs in UTC: the console still shows India's time unless the person chooses.
      const rec = await openPage(browser, width, { timezoneId: 'UTC' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'asha@asha.example');
        await page.getByText(/Today is \d{4}-\d{2}-\d{2} in Asia\/Kolkata \(IST\)/).waitFor();
        assert.equal(await page.getByLabel('Time zone').inputValue(), 'Asia/Kolkata');
        const heading = page.getByRole('heading', { name: 'Overview', level: 1 });
        if (width === 390) {
          // Nothing is wider than the phone (a wider page would be zoomed out).
          assert.equal(await page.evaluate("document.documentElement.scrollWidth"), 390);
          // The navigation is one row: the page's heading is on the first screen.
          const box = await heading.boundingBox();
          assert.ok(box && box.y < 260, `Overview heading at y=${box?.y}`);
          const nav = await page.getByRole('navigation', { name: 'Console' }).boundingBox();
          assert.ok(nav && nav.height < 60, `navigation ${nav?.height}px tall`);
        }
        await shot(page, `overview-ist-${width}`);

        await navLink(page, 'Payment orders').click();
        const rows = page.locator('main table tbody tr');
        await rows.first().waitFor();
        assert.match(await rows.first().locator('time').innerText(), / IST$/);
        // Prefix search: "Invoice 99900" finds both invoices of that series.
        await page.getByLabel('Search').fill('Invoice 99900');
        await page.getByRole('button', { name: 'Apply' }).click();
        await poll(async () => ((await rows.count()) === 2 && /Invoice 99900\/A[\s\S]*Invoice 99900\/B/.test(await page.locator('main table tbody').innerText())) || undefined, { what: 'two invoices', timeoutMs: 10_000, stepMs: 100 });
        await page.getByLabel('Search').fill('Invoice 99900/A');
        await page.getByRole('button', { name: 'Today' }).click();
        await poll(async () => (await rows.count()) === 1 || undefined, { what: 'one invoice today', timeoutMs: 10_000, stepMs: 100 });
        assert.match(await page.getByLabel('From').inputValue(), /^\d{4}-\d{2}-\d{2}$/);
        await page.getByRole('button', { name: 'Yesterday' }).click();
        await page.getByText('No orders match.').waitFor();
        await page.getByRole('button', { name: 'This month' }).click();
        await poll(async () => (await rows.count()) === 1 || undefined, { what: 'one invoice this month', timeoutMs: 10_000, stepMs: 100 });
        const row = rows.first();
        assert.match(await row.innerText(), /Paid/, 'the status in words');
        if (width === 390) {
          // A card: amount, status and the reference are all on the screen, none pushed off to the right.
          for (const cell of await row.locator('td').all()) {
            const box = await cell.boundingBox();
            assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `cell ${await cell.getAttribute('data-label')} within the phone's width`);
          }
          assert.ok((await row.locator('td[data-label="Amount"]').innerText()).includes('₹2,500.00'));
        }
        await a11y(page, 'payment orders, searched');
        await shot(page, `payment-orders-cards-${width}`);

        // Another zone: chosen in the header, shown in every time, kept over a reload.
        await page.getByLabel('Time zone').selectOption('UTC');
        await poll(async () => / UTC$/.test(await rows.first().locator('time').innerText()) || undefined, { what: 'times in UTC', timeoutMs: 5_000, stepMs: 50 });
        await page.reload();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        assert.equal(await page.getByLabel('Time zone').inputValue(), 'UTC');
        await page.getByLabel('Time zone').selectOption('Asia/Kolkata');
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });

  test("a maker starts a refund on a paid order's page; a reviewer approves it after a confirmation naming the amount", async () => {
    for (const width of WIDTHS) {
      const maker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = maker;
        await signIn(page, ts, 'meera@asha.example');
        await page.goto(`${ts.svc.publicUrl}/console/payment-orders/${paid.order_id}`);
        const form = page.getByRole('form', { name: 'Start a refund' });
        await form.waitFor();
        const left = width === 390 ? '2500.00' : '2400.00'; // the 390 px run refunded ₹100 first
        assert.equal(await page.getByLabel('Refund amount (₹)').inputValue(), left, 'the default is what is left');
        await page.getByLabel('Refund amount (₹)').fill('5000');
        await page.getByRole('button', { name: 'Start refund' }).click();
        const alert = page.getByRole('alert');
        await alert.waitFor();
        assert.match(await alert.innerText(), /at most ₹2,[45]00\.00 is left/);
        assert.ok(await inView(page, alert), 'the error is in view');
        await page.getByLabel('Refund amount (₹)').fill('100');
        await page.getByLabel('Reason (optional)').fill(`Damaged item ${width}`);
        await page.getByRole('button', { name: 'Start refund' }).click();
        const status = page.getByRole('status').filter({ hasText: /is waiting for a reviewer/ });
        await status.waitFor();
        assert.match(await status.innerText(), /Refund RF[0-9A-Z]+ of ₹100\.00/);
        assert.ok(await inView(page, status), 'the notice is in view');
        const listed = page.getByRole('region', { name: 'Refunds of this order' });
        assert.match(await listed.innerText(), new RegExp(`₹100\\.00[\\s\\S]*Pending review[\\s\\S]*Damaged item ${width}`));
        await a11y(page, 'order page with the refund form');
        await shot(page, `order-refund-started-${width}`);
        assertCleanConsoleRun(maker, ts.svc.publicUrl);
      } finally {
        await maker.close();
      }
      const refund = (
        await ts.database.db.query(`SELECT id, refund_id, status, amount_paise::int AS amount FROM refunds WHERE reason = $1`, [`Damaged item ${width}`])
      ).rows[0] as { id: string; refund_id: string; status: string; amount: number };
      assert.deepEqual([refund.status, refund.amount], ['PENDING_REVIEW', 10_000]);
      const audit = await ts.database.db.query(`SELECT actor, after FROM console_audit_log WHERE action = 'refund.requested' AND target_id = $1`, [refund.refund_id]);
      assert.equal(audit.rows.length, 1, 'audited with the refund');

      const reviewer = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = reviewer;
        await signIn(page, ts, 'rita@asha.example');
        await navLink(page, 'Refunds').click();
        await page.getByRole('button', { name: `Open refund ${refund.refund_id}` }).click();
        await page.getByLabel('Note').fill('Photo of the damage received');
        await page.getByRole('button', { name: 'Approve' }).click();
        const ask = page.getByRole('alertdialog');
        assert.match(await ask.innerText(), new RegExp(`Approve the refund ${refund.refund_id}: ₹100\\.00 goes back to the payer\\?`));
        await a11y(page, 'refund approval confirmation');
        await shot(page, `refund-confirm-${width}`);
        await page.getByRole('button', { name: 'Cancel' }).click();
        assert.equal((await ts.database.db.query('SELECT status FROM refunds WHERE id = $1', [refund.id])).rows[0]!.status, 'PENDING_REVIEW', 'cancel sends nothing');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('button', { name: 'Yes, approve ₹100.00' }).click();
        await page.getByRole('status').filter({ hasText: 'approved' }).waitFor();
        assert.notEqual((await ts.database.db.query('SELECT status FROM refunds WHERE id = $1', [refund.id])).rows[0]!.status, 'PENDING_REVIEW');
        assertCleanConsoleRun(reviewer, ts.svc.publicUrl);
      } finally {
        await reviewer.close();
      }
    }
  });

  test('a created payout clears its form with the notice in view; a checker sees no "New payout" and a bulk file\'s rows page by page', async () => {
    const width = 390;
    const maker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
    try {
      const { page } = maker;
      await signIn(page, ts, 'meera@asha.example');
      await navLink(page, 'New payout').click();
      await page.getByLabel('Beneficiary name').fill('Kiran Rao');
      await page.getByLabel('Account number').fill('50100012340099');
      await page.getByLabel('IFSC').fill('HDFC0000001');
      await page.getByLabel('Mobile').fill('9812345699');
      await page.getByLabel('Amount (₹)').fill('3210');
      await page.getByRole('button', { name: 'Create payout' }).click();
      const status = page.getByRole('status').filter({ hasText: /₹3,210\.00/ });
      await status.waitFor();
      assert.ok(await inView(page, status), 'the notice is in view');
      for (const field of ['Beneficiary name', 'Account number', 'IFSC', 'Mobile', 'Amount (₹)']) assert.equal(await page.getByLabel(field).inputValue(), '', `${field} cleared`);
      await shot(page, `new-payout-created-${width}`);

      // The bulk file: 30 rows, more than a page of 25.
      await navLink(page, 'Bulk payouts').click();
      const lines = Array.from({ length: 30 }, (_, i) => `Vendor ${i + 1},5010001234${String(1000 + i)},HDFC0000001,98123456${String(10 + i)},${10_000 + i},${i % 2 ? 'NEFT' : 'IMPS'},,V-${i + 1}`);
      await page.getByLabel('CSV file').setInputFiles({ name: 'vendors-30.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\n${lines.join('\n')}\n`) });
      await page.getByRole('button', { name: 'Upload file' }).click();
      await page.getByRole('status').filter({ hasText: 'vendors-30.csv uploaded: 30 rows' }).waitFor();
      assertCleanConsoleRun(maker, ts.svc.publicUrl);
    } finally {
      await maker.close();
    }

    for (const w of WIDTHS) {
      const checker = await openPage(browser, w, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = checker;
        await signIn(page, ts, 'divya@asha.example');
        assert.equal(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'New payout' }).count(), 0, 'a checker does not see New payout');
        await navLink(page, 'Bulk payouts').click();
        await page.getByRole('button', { name: 'Open file vendors-30.csv' }).click();
        const rowsRegion = page.getByRole('region', { name: 'Rows of vendors-30.csv', exact: true });
        const rows = rowsRegion.locator('tbody tr');
        await rows.first().waitFor();
        assert.equal(await rows.count(), 25);
        const first = await rows.first().innerText();
        assert.match(first, /Vendor 1\b[\s\S]*•••• 1000[\s\S]*HDFC0000001 · HDFC Bank[\s\S]*₹100\.00[\s\S]*IMPS/);
        assert.doesNotMatch(await rowsRegion.innerText(), /50100012341000/, 'the account number is masked');
        await a11y(page, 'bulk file rows');
        await shot(page, `bulk-rows-${w}`);
        await page.getByRole('group', { name: 'Pages of rows of vendors-30.csv' }).getByRole('button', { name: 'Next' }).click();
        await page.getByText('Page 2').waitFor();
        await poll(async () => (await rows.count()) === 5 || undefined, { what: 'five rows on page 2', timeoutMs: 10_000, stepMs: 100 });
        assert.match(await rows.last().innerText(), /Vendor 30/);
        if (w === 1280) {
          await page.getByRole('button', { name: 'Approve' }).click();
          // 30 rows: 10,000 + … + 10,029 paise = 300,435 paise.
          assert.match(await page.getByRole('alertdialog').innerText(), /Approve the bulk file vendors-30\.csv \(30 payouts\): ₹3,004\.35 leaves your account\?/);
          await page.getByRole('button', { name: 'Cancel' }).click();
        }
        assertCleanConsoleRun(checker, ts.svc.publicUrl);
      } finally {
        await checker.close();
      }
    }
  });

  test('an error after saving low on a page is in view (390 px)', async () => {
    const rec = await openPage(browser, 390, { timezoneId: 'Asia/Kolkata' });
    try {
      const { page } = rec;
      await signIn(page, ts, 'asha@asha.example');
      await navLink(page, 'Callback destinations').click();
      await page.getByLabel('PayOut URL').fill('ftp://x');
      await page.getByRole('button', { name: 'Save PayOut destination' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      await page.waitForTimeout(300); // the smooth part of scrolling, if any
      assert.ok(await inView(page, alert), 'the error is in view');
      await shot(page, `destination-error-390`);
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });

  test('axe-core: no serious or critical violation on any page of the navigation, at 390 and 1280 px', async () => {
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'asha@asha.example');
        const names = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allInnerTexts();
        assert.ok(names.length >= 16, names.join(', '));
        for (const name of names) {
          await navLink(page, name).click();
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await poll(async () => (await page.getByText(/^Loading/).count()) === 0 || undefined, { what: `${name} loaded`, timeoutMs: 10_000, stepMs: 100 });
          await a11y(page, `${name} at ${width} px`);
          await shot(page, `page-${name.toLowerCase().replace(/\s+/g, '-')}-${width}`);
        }
        await page.goto(`${ts.svc.publicUrl}/console/account`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await a11y(page, `Your account at ${width} px`);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });
});
