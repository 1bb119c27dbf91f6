/**
 * The finance pages in Debian's chromium (contract §9, issue #33 item 5), on data the sandbox
 * settled and `tijori settlements sync` imported (the 91-paise rule makes an AMOUNT_MISMATCH): the
 * Overview's unsettled amount, Balances equal to the ledger's to the paisa with the chart drawn,
 * the Settlements list → a settlement's lines → its CSV file, Reconciliation filtered, and a
 * reviewer resolving the break with a note (audited; it stays listed with the note); a viewer has
 * no "Resolve". At 390 and 1280 px; axe-core finds no serious violation; screenshots kept.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signedInUser } from '../support/console.js';
import type { TestClient, TestService } from '../support/service.js';
import { cli, paid, q, refunded, settle, sync } from '../settlements/helpers.js';
import { assertCleanConsoleRun, navLink, openPage, seriousA11yViolations, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let client: TestClient;
let short: { id: string; order_id: string };

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
const inr = (paise: number) => rupees.format(paise / 100);

/** The ledger's balances of the organization as `tijori ledger balances` prints them. */
async function ledger(): Promise<Record<string, number>> {
  const rows: Array<{ account: string; balance_paise: number }> = await cli(ts, 'ledger', 'balances', '--org', client.orgId);
  return Object.fromEntries(rows.map((r) => [r.account, Number(r.balance_paise)]));
}

async function open(page: Page, name: string): Promise<void> {
  await navLink(page, name).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

describe('finance pages in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser());
    client = await ts.createClient({ rateLimit: 100_000 });
    const a = await paid(ts, client, 49_900);
    short = await paid(ts, client, 100_091);
    await refunded(ts, client, a.id, 10_000);
    await settle(ts, client.orgId);
    assert.deepEqual(await sync(ts, client.orgId), { settlements_new: 1, lines_new: 3, matched: 2, breaks: 1 });
    await paid(ts, client, 30_000); // not settled yet
    await signedInUser(ts, client.orgId, 'rita@finance.example', 'reviewer');
    await signedInUser(ts, client.orgId, 'vikram@finance.example', 'viewer');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('Overview, Balances, Settlements, a settlement and its CSV, Reconciliation: resolve with a note', async () => {
    const books = await ledger();
    const settlement = (await cli(ts, 'settlements', 'list', '--org', client.orgId))[0];
    for (const width of WIDTHS) {
      const tab = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = tab;
        await signIn(page, ts, 'rita@finance.example');

        // Overview: what the providers still hold, linking to Balances.
        const unsettled = page.getByTestId('overview-unsettled');
        await unsettled.getByText(inr(books.collections_receivable ?? NaN)).waitFor();
        assert.equal(books.collections_receivable, 30_100, 'the 100 paise kept short and the order paid after the settlement');
        assert.deepEqual(await seriousA11yViolations(page), [], `overview ${width}`);
        await shot(page, `finance-overview-${width}`);
        await unsettled.getByRole('link', { name: 'See Balances' }).click();
        await page.getByRole('heading', { level: 1, name: 'Balances' }).waitFor();

        // Balances: every figure equals the ledger's to the paisa; the chart is drawn.
        const card = page.locator('[data-testid^="account-"]').first();
        await card.waitFor();
        const expected: Record<string, number> = {
          collected_paise: -(books.collections ?? 0),
          refunded_paise: books.refunds ?? 0,
          fees_paise: books.fees ?? 0,
          taxes_paise: books.taxes ?? 0,
          settled_paise: books.settled ?? 0,
          unsettled_paise: books.collections_receivable ?? 0,
        };
        for (const [figure, paise] of Object.entries(expected)) {
          assert.equal(await card.locator(`[data-figure="${figure}"] dd`).innerText(), inr(paise), figure);
        }
        assert.deepEqual(Object.values(expected), [179_991, 10_000, 3_000, 540, 136_351, 30_100]);
        const chart = page.getByTestId('ledger-chart');
        await chart.locator('canvas').waitFor();
        const box = await chart.locator('canvas').boundingBox();
        assert.ok(box && box.width >= 280 && box.height >= 200, `the chart is drawn (${JSON.stringify(box)})`);
        assert.match((await chart.getAttribute('aria-label')) ?? '', new RegExp(`collected ${inr(179_991).replace(/[.]/g, '[.]')}, settled ${inr(136_351).replace(/[.]/g, '[.]')}`));
        await page.getByText('Daily figures').click();
        const days = page.getByRole('region', { name: 'Collected and settled per day' });
        await days.waitFor();
        // Today's row, and only it (nothing moved on the other days).
        assert.equal(await days.getByRole('row').count(), 2);
        assert.match(await days.getByRole('row').nth(1).innerText(), new RegExp(`${inr(179_991).replace(/[.]/g, '[.]')}[\\s\\S]*${inr(136_351).replace(/[.]/g, '[.]')}`));
        assert.deepEqual(await seriousA11yViolations(page), [], `balances ${width}`);
        await shot(page, `finance-balances-${width}`);

        // Settlements → one settlement's lines.
        await open(page, 'Settlements');
        const row = page.getByRole('region', { name: 'Settlements' }).getByRole('row').filter({ hasText: settlement.utr });
        await row.waitFor();
        assert.match(await row.innerText(), new RegExp(`Built-in sandbox \\(Sandbox\\)[\\s\\S]*${inr(136_351).replace(/[.]/g, '[.]')}`));
        assert.deepEqual(await seriousA11yViolations(page), [], `settlements ${width}`);
        await shot(page, `finance-settlements-${width}`);
        await row.getByRole('link', { name: `Settlement ${settlement.utr}` }).click();
        await page.getByRole('heading', { level: 1, name: `Settlement ${settlement.utr}` }).waitFor();
        const mismatch = page.getByRole('region', { name: 'Settlement lines' }).getByRole('row').filter({ hasText: 'Amount differs from Tijori’s' });
        await mismatch.waitFor();
        assert.match(await mismatch.innerText(), new RegExp(short.order_id));
        assert.equal(await page.getByRole('region', { name: 'Settlement lines' }).getByRole('row').count(), 4, 'a header and three lines');
        assert.deepEqual(await seriousA11yViolations(page), [], `settlement ${width}`);
        await shot(page, `finance-settlement-${width}`);
        if (width === 1280) {
          const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export lines as CSV' }).click()]);
          assert.match(download.suggestedFilename(), new RegExp(`^settlement-${settlement.utr}-lines-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
          const text = readFileSync((await download.path()) as string, 'utf8');
          assert.equal(text.split('\n')[0], 'type,order_id,refund_id,provider_payment_id,amount_rupees,fee_rupees,tax_rupees,net_rupees,match');
          assert.ok(text.split('\n').some((l) => l.startsWith(`PAYMENT,${short.order_id},,`) && l.endsWith(',999.91,20.02,3.60,976.29,AMOUNT_MISMATCH')), text);
        }

        // Reconciliation: the break, filters, and (on the first width) resolving it with a note.
        await open(page, 'Reconciliation');
        const breaks = page.getByRole('region', { name: 'Breaks' });
        if (width === WIDTHS[0]) {
          const brk = breaks.getByRole('row').filter({ hasText: 'Amount differs from Tijori’s' });
          await brk.waitFor();
          assert.match(await brk.innerText(), new RegExp(`${short.order_id}[\\s\\S]*${inr(100_091).replace(/[.]/g, '[.]')}[\\s\\S]*${inr(99_991).replace(/[.]/g, '[.]')}`));
          await page.getByLabel('Kind').selectOption({ label: 'Settled twice' });
          await page.getByText('No breaks match.').waitFor();
          await page.getByLabel('Kind').selectOption({ label: 'Amount differs from Tijori’s' });
          await brk.waitFor();
          await brk.getByRole('button', { name: `Resolve the break (Amount differs from Tijori’s) of ${short.order_id}` }).click();
          await page.getByRole('button', { name: 'Resolve break' }).click();
          await page.getByRole('alert').filter({ hasText: 'the note is kept with the break' }).waitFor();
          await page.getByLabel('Resolution note').fill('PSP short-paid ₹1.00; claimed back in ticket 42');
          assert.deepEqual(await seriousA11yViolations(page), [], `reconciliation resolving ${width}`);
          await shot(page, `finance-reconciliation-resolving-${width}`);
          await page.getByRole('button', { name: 'Resolve break' }).click();
          const notice = page.getByRole('status').filter({ hasText: 'Resolved the break' });
          await notice.waitFor();
          // As the words are everywhere else, capitals kept ("Tijori’s", not "tijori’s"; hasText ignores case, this does not).
          assert.equal(await notice.innerText(), `Resolved the break (Amount differs from Tijori’s) of ${short.order_id}.`);
          await page.getByText('No breaks match.').waitFor(); // the open ones: none left
          const audit = (await q(ts, "SELECT action, actor, after FROM console_audit_log WHERE org_id = $1 AND action = 'recon_break.resolved'", [client.orgId])).rows;
          assert.deepEqual(audit.map((x: any) => [x.action, x.after.note]), [['recon_break.resolved', 'PSP short-paid ₹1.00; claimed back in ticket 42']]);
        }
        // A resolved break stays listed, with who resolved it and the note.
        await page.getByLabel('Status').selectOption({ label: 'Resolved' });
        const done = breaks.getByRole('row').filter({ hasText: 'claimed back in ticket 42' });
        await done.waitFor();
        assert.match(await done.innerText(), /Resolved by rita@finance\.example/);
        assert.equal(await done.getByRole('button', { name: /Resolve/ }).count(), 0);
        assert.deepEqual(await seriousA11yViolations(page), [], `reconciliation ${width}`);
        await shot(page, `finance-reconciliation-${width}`);
        assertCleanConsoleRun(tab, ts.svc.publicUrl);
      } finally {
        await tab.close();
      }
    }
  });

  test('Balances of an organization with two provider accounts: the chart is the chosen account\'s, its axis tops the tallest bar', async () => {
    const c = await ts.createClient({ rateLimit: 100_000 });
    const added = await ts.admin('POST', '/provider-accounts', { org: c.orgId, provider: 'sandbox', name: 'Second sandbox', config: {} });
    assert.equal(added.status, 201, added.text);
    await paid(ts, c, 12_345); // the built-in sandbox
    const use = await ts.admin('PUT', `/orgs/${c.orgId}/collections`, { provider_account_id: added.body.data.provider_account_id });
    assert.equal(use.status, 200, use.text);
    await paid(ts, c, 250_000);
    await paid(ts, c, 40_000);
    await settle(ts, c.orgId);
    assert.deepEqual(await sync(ts, c.orgId), { settlements_new: 2, lines_new: 3, matched: 3, breaks: 0 });
    await signedInUser(ts, c.orgId, 'asha@finance.example', 'viewer');
    const money = (paise: number) => inr(paise).replace(/[.]/g, '[.]');
    for (const width of WIDTHS) {
      const tab = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = tab;
        await signIn(page, ts, 'asha@finance.example');
        await open(page, 'Balances');
        const chart = page.getByTestId('ledger-chart');
        await chart.locator('canvas').waitFor();
        const picker = page.getByLabel('Provider account', { exact: true });
        // The first account's until another is chosen: 12 345 collected, settled less 2 % and GST (247 + 44).
        assert.equal(await picker.evaluate((el) => (el as unknown as { selectedOptions: ArrayLike<{ textContent: string | null }> }).selectedOptions[0]?.textContent), 'Built-in sandbox (Sandbox)');
        assert.match((await chart.getAttribute('aria-label')) ?? '', new RegExp(`^Built-in sandbox \\(Sandbox\\): .*collected ${money(12_345)}, settled ${money(12_054)}`));
        assert.equal(await chart.getAttribute('data-y-top'), '150', 'the top of the axis: ₹150 over a tallest bar of ₹123.45');
        await shot(page, `finance-balances-accounts-${width}`);

        await picker.selectOption({ label: 'Second sandbox (Sandbox)' });
        // 2 500.00 and 400.00 collected; settled 2 441.00 + 390.56.
        await page.getByRole('img', { name: new RegExp(`^Second sandbox \\(Sandbox\\): .*collected ${money(290_000)}, settled ${money(283_156)}`) }).waitFor();
        assert.equal(await chart.getAttribute('data-y-top'), '3000', 'the top of the axis: ₹3,000 over a tallest bar of ₹2,900.00');
        await page.getByText('Daily figures').click();
        const days = page.getByRole('region', { name: 'Collected and settled per day' });
        assert.match(await days.getByRole('row').nth(1).innerText(), new RegExp(`${money(290_000)}[\\s\\S]*${money(283_156)}`));
        assert.deepEqual(await seriousA11yViolations(page), [], `balances of an account ${width}`);
        await shot(page, `finance-balances-second-account-${width}`);

        await picker.selectOption({ label: 'All accounts' });
        await page.getByRole('img', { name: new RegExp(`^All accounts: .*collected ${money(302_345)}, settled ${money(295_210)}`) }).waitFor();
        assert.match(await days.getByRole('row').nth(1).innerText(), new RegExp(`${money(302_345)}[\\s\\S]*${money(295_210)}`));
        assertCleanConsoleRun(tab, ts.svc.publicUrl);
      } finally {
        await tab.close();
      }
    }
  });

  test('a viewer reads the breaks (the resolved one with its note) but has no Resolve; the navigation names the three pages', async () => {
    const tab = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    try {
      const { page } = tab;
      await signIn(page, ts, 'vikram@finance.example');
      for (const name of ['Balances', 'Settlements', 'Reconciliation']) assert.equal(await navLink(page, name).count(), 1, name);
      await open(page, 'Reconciliation');
      await page.getByLabel('Status').selectOption({ label: 'Any' });
      await page.getByRole('region', { name: 'Breaks' }).getByRole('row').filter({ hasText: 'Amount differs from Tijori’s' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /Resolve/ }).count(), 0);
      await page.getByText('Reviewers and admins resolve breaks.').waitFor();
      assertCleanConsoleRun(tab, ts.svc.publicUrl);
    } finally {
      await tab.close();
    }
  });
});
