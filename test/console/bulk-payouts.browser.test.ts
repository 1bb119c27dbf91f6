/**
 * The console's "Bulk payouts" page in a real browser (Debian chromium + playwright-core): a maker
 * uploads a file with bad rows through "CSV file" / "Upload file" and sees each problem with its
 * line; uploads a good file and sees the preview (count, total, totals per mode); a checker opens
 * it, approves it, watches the progress reach every row, and the results link serves CSV. axe-core
 * finds no serious or critical violation; screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makerCheckerOrg } from '../support/console.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import type { TestService } from '../support/service.js';
import { assertCleanConsoleRun, navLink, openPage, seriousA11yViolations, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;

const HEADER = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference';

describe('bulk payouts page in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    await makerCheckerOrg(ts, 'anil@asha.example', 'divya@asha.example');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  async function openBulkPayouts(page: Page, email: string): Promise<void> {
    await signIn(page, ts, email);
    await navLink(page, 'Bulk payouts').click();
    await page.getByRole('heading', { name: 'Bulk payouts' }).waitFor();
  }

  async function choose(page: Page, name: string, content: string): Promise<void> {
    await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
    await page.getByRole('button', { name: 'Upload file' }).click();
  }

  test('bad rows listed by line; a good file previewed, approved by a checker, paid with live progress (390 and 1280 px)', async () => {
    for (const width of WIDTHS) {
      const fileName = `vendors-${width}.csv`;
      const maker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = maker;
        await openBulkPayouts(page, 'anil@asha.example');
        await choose(page, `bad-${width}.csv`, `${HEADER}\nGood,50100012340001,HDFC0000001,9812345601,10000,IMPS,,\n"=cmd|' /C calc'!A0",12ab,HDFC0000001,9812345602,10000,IMPS,,\n`);
        const problems = page.getByRole('region', { name: 'Problems in the file' });
        await problems.waitFor();
        assert.match(await problems.innerText(), /line 3: account_number must be 8 to 20 digits/);
        assert.doesNotMatch(await page.content(), /cmd\|/, 'the cell is not echoed');
        await shot(page, `bulk-problems-${width}`);

        const good = [HEADER, `"Rao, Kiran",50100012340011,HDFC0000001,9812345611,${150_000 + width},IMPS,invoice 1,B-${width}-1`, `Meena,50100012340012,HDFC0000001,9812345612,250000,NEFT,,B-${width}-2`, `Zed,50100012340013,HDFC0000001,9812345613,20000000,RTGS,,B-${width}-3`].join('\r\n');
        await choose(page, fileName, `\uFEFF${good}\r\n`);
        await page.getByRole('status').filter({ hasText: `${fileName} uploaded: 3 rows` }).waitFor();
        const preview = page.getByRole('region', { name: fileName, exact: true });
        const text = await preview.innerText();
        assert.match(text, /IMPS\s+1 row, ₹1,5\d\d\.\d\d/);
        assert.match(text, /NEFT\s+1 row, ₹2,500\.00/);
        assert.match(text, /RTGS\s+1 row, ₹2,00,000\.00/);
        assert.match(text, /You uploaded this file/);
        assert.deepEqual(await seriousA11yViolations(page), [], 'bulk page with preview');
        await shot(page, `bulk-preview-${width}`);
        assertCleanConsoleRun(maker, ts.svc.publicUrl);
      } finally {
        await maker.close();
      }

      const checker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = checker;
        await openBulkPayouts(page, 'divya@asha.example');
        assert.equal(await page.getByLabel('CSV file').count(), 0, 'a checker does not upload');
        await page.getByRole('button', { name: `Open file ${fileName}` }).click();
        await page.getByRole('button', { name: 'Approve' }).click();
        // The confirmation names the file's total (issue #32 item 5), and the rows are in front of the checker.
        assert.match(await page.getByRole('alertdialog').innerText(), /Approve the bulk file .* \(3 payouts\): ₹2,0\d,\d\d\d\.\d\d leaves your account\?/);
        assert.equal(await page.getByRole('region', { name: `Rows of ${fileName}`, exact: true }).locator('tbody tr').count(), 3);
        await page.getByRole('button', { name: /^Yes, approve ₹/ }).click();
        await page.getByRole('status').filter({ hasText: 'approved' }).waitFor();
        const preview = page.getByRole('region', { name: fileName, exact: true });
        await preview.getByText('3 of 3 submitted · 3 succeeded').waitFor({ timeout: 30_000 });
        assert.deepEqual(await seriousA11yViolations(page), [], 'bulk page after approval');
        await shot(page, `bulk-approved-${width}`);
        const href = await page.getByRole('link', { name: 'Download results (CSV)' }).getAttribute('href');
        const csv = await page.evaluate(async (url) => (await fetch(url as string)).text(), href);
        assert.equal((csv.match(/,SUCCESS,/g) ?? []).length, 3, csv);
        assert.match(csv, /"Rao, Kiran"/);
        assertCleanConsoleRun(checker, ts.svc.publicUrl);
      } finally {
        await checker.close();
      }
    }
  });
});
