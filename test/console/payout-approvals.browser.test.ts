/**
 * The console's "New payout" and "Payout approvals" pages in a real browser (Debian chromium +
 * playwright-core): a maker fills the payout form by its field names (the bank's name appears for
 * the IFSC), the payout waits; a checker approves one (it reaches the bank) and rejects another
 * with a note; the maker is offered no buttons on their own payout. axe-core finds no serious or
 * critical violation; screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makerCheckerOrg } from '../support/console.js';
import { FAST_PAYOUT_ENV, waitFor } from '../payout/helpers.js';
import type { TestClient, TestService } from '../support/service.js';
import { assertCleanConsoleRun, openPage, seriousA11yViolations, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let client: TestClient;

const payoutRow = async (transactionId: string) =>
  (await ts.database.db.query('SELECT id, status, amount_paise, mode, maker_user_id, checker_user_id FROM payouts WHERE transaction_id = $1', [transactionId])).rows[0]!;

describe('payout form and approvals pages in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    client = await makerCheckerOrg(ts, 'meera@asha.example', 'kabir@asha.example');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  async function makePayout(page: Page, amount: string, mode: string, shown: RegExp): Promise<string> {
    await page.getByRole('navigation').getByRole('link', { name: 'New payout', exact: true }).click();
    await page.getByRole('heading', { name: 'New payout' }).waitFor();
    await page.getByLabel('Beneficiary name').fill('Lakshmi Traders');
    await page.getByLabel('Account number').fill('000123456789');
    await page.getByLabel('IFSC').fill('hdfc0000001');
    await page.locator('#payout-bank').filter({ hasText: /Bank: .*HDFC/i }).waitFor();
    await page.getByLabel('Mobile').fill('9898989898');
    await page.getByLabel('Amount (₹)').fill(amount);
    await page.getByLabel('Mode').selectOption(mode);
    const status = page.getByRole('status');
    await page.getByRole('button', { name: 'Create payout' }).click();
    await status.filter({ hasText: shown }).waitFor();
    assert.match(await status.innerText(), /PENDING_APPROVAL/);
    const m = /Payout (TJP[0-9A-F]+)/.exec(await status.innerText());
    assert.ok(m, 'the created payout is named');
    return m[1]!;
  }

  test('a maker makes payouts; a checker approves one and rejects another (390 and 1280 px)', async () => {
    for (const width of WIDTHS) {
      const maker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      let approveId: string;
      let rejectId: string;
      try {
        await signIn(maker.page, ts, 'meera@asha.example');
        approveId = await makePayout(maker.page, '1,500.50', 'IMPS', /₹1,500\.50/);
        await maker.page.getByLabel('Amount (₹)').waitFor();
        assert.deepEqual(await seriousA11yViolations(maker.page), [], 'new payout');
        await shot(maker.page, `new-payout-${width}`);
        rejectId = await makePayout(maker.page, '2000', 'NEFT', /₹2,000\.00/);
        const row = await payoutRow(approveId);
        assert.equal(row.status, 'PENDING_APPROVAL');
        assert.equal(Number(row.amount_paise), 150_050);
        // The maker sees the queue, but no Approve or Reject on their own payout.
        await maker.page.getByRole('navigation').getByRole('link', { name: 'Payout approvals', exact: true }).click();
        await maker.page.getByRole('button', { name: `Open payout ${approveId}` }).click();
        await maker.page.getByText('You made this payout').waitFor();
        assert.equal(await maker.page.getByRole('button', { name: 'Approve' }).count(), 0);
        assertCleanConsoleRun(maker, ts.svc.publicUrl);
      } finally {
        await maker.close();
      }

      const checker = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = checker;
        await signIn(page, ts, 'kabir@asha.example');
        await page.getByRole('navigation').getByRole('link', { name: 'Payout approvals', exact: true }).click();
        await page.getByRole('heading', { name: 'Payout approvals' }).waitFor();
        const row = page.getByRole('row').filter({ hasText: approveId });
        assert.match(await row.innerText(), /₹1,500\.50[\s\S]*IMPS[\s\S]*meera@asha\.example/);
        assert.deepEqual(await seriousA11yViolations(page), [], 'approvals queue');
        await shot(page, `payout-approvals-${width}`);
        await page.getByRole('button', { name: `Open payout ${approveId}` }).click();
        assert.deepEqual(await seriousA11yViolations(page), [], 'approval panel');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('button', { name: 'Yes, approve ₹1,500.50' }).click();
        await page.getByRole('status').filter({ hasText: `${approveId} approved` }).waitFor();
        await waitFor('the approved payout to succeed', async () => ((await payoutRow(approveId)).status === 'SUCCESS' ? true : undefined));

        await page.getByRole('button', { name: `Open payout ${rejectId}` }).click();
        await page.getByRole('button', { name: 'Reject' }).click();
        await page.getByRole('alert').filter({ hasText: 'Write a note' }).waitFor();
        assert.equal((await payoutRow(rejectId)).status, 'PENDING_APPROVAL', 'no note, no request');
        await page.getByLabel('Note (required to reject)').fill('Wrong vendor: Lakshmi Traders was paid last week');
        await page.getByRole('button', { name: 'Reject' }).click();
        await page.getByRole('status').filter({ hasText: `${rejectId} rejected` }).waitFor();
        const rejected = await payoutRow(rejectId);
        assert.equal(rejected.status, 'REJECTED');
        assert.ok(rejected.checker_user_id);
        // Decided payouts leave the queue (the page reloads it after the notice: wait for that, not a fixed time).
        await page.getByRole('row').filter({ hasText: rejectId }).waitFor({ state: 'detached', timeout: 10_000 });
        assert.equal(await page.getByRole('row').filter({ hasText: approveId }).count(), 0, 'decided payouts leave the queue');
        assertCleanConsoleRun(checker, ts.svc.publicUrl);
      } finally {
        await checker.close();
      }
    }
  });

  test('a payout whose answer was lost is sent again with the form\'s Idempotency-Key: one payout, the first one shown', async () => {
    const maker = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    try {
      const { page } = maker;
      await signIn(page, ts, 'meera@asha.example');
      // The first submission reaches the service (the payout is made) but its answer never comes back.
      const keys: string[] = [];
      await page.route('**/console/api/payouts', async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (keys.length > 1) return route.continue();
        await route.fetch();
        return route.abort('connectionreset');
      });
      await page.getByRole('navigation').getByRole('link', { name: 'New payout', exact: true }).click();
      await page.getByLabel('Beneficiary name').fill('Lakshmi Traders');
      await page.getByLabel('Account number').fill('000123456789');
      await page.getByLabel('IFSC').fill('hdfc0000001');
      await page.getByLabel('Mobile').fill('9898989898');
      await page.getByLabel('Amount (₹)').fill('3,210');
      await page.getByRole('button', { name: 'Create payout' }).click();
      await page.getByRole('alert').filter({ hasText: 'cannot be reached' }).waitFor();
      // The maker tries again: the same form, the same key; the service answers the payout it made.
      await page.getByRole('button', { name: 'Create payout' }).click();
      const status = page.getByRole('status').filter({ hasText: /₹3,210\.00/ });
      await status.waitFor();
      const shown = /Payout (TJP[0-9A-F]+)/.exec(await status.innerText())?.[1];
      assert.equal(keys.length, 2);
      assert.match(keys[0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(keys[1], keys[0], 'the retry carries the same key');
      const made = (await ts.database.db.query('SELECT transaction_id FROM payouts WHERE org_id = $1 AND amount_paise = 321000', [client.orgId])).rows;
      assert.deepEqual(made.map((r) => r.transaction_id), [shown], 'one payout, and it is the one shown');
    } finally {
      await maker.close();
    }
  });
});
