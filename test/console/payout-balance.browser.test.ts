/**
 * The payout form shows the balance of the default route's RazorpayX account (the simulator, over
 * HTTP) and warns a maker, in view, before a payout larger than the available balance (issue #33
 * item 6), in a real browser at 390 and 1280 px; axe-core finds no serious violation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { RazorpayXSimulator } from '../providers/razorpayx-simulator.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { signedInUser } from '../support/console.js';
import type { TestService } from '../support/service.js';
import { assertCleanConsoleRun, openPage, seriousA11yViolations, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let sim: RazorpayXSimulator;

describe('payout balance on the payout form in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    sim = await new RazorpayXSimulator({ balancePaise: 250_000 }).start();
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    const client = await ts.createClient({});
    const account = await ts.admin('POST', '/provider-accounts', { org: client.orgId, provider: 'razorpayx', config: sim.config(), name: 'RazorpayX (simulator)' });
    assert.equal(account.status, 201, account.text);
    const route = await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT', 'RTGS'], provider_account: account.body.data.provider_account_id });
    assert.equal(route.status, 201, route.text);
    await signedInUser(ts, client.orgId, 'nisha@balance.example', 'maker');
  });
  after(async () => {
    await stopConsoleAndBrowser(ts, browser);
    await sim?.stop();
  });

  test('the available balance is shown; an amount above it is warned about, one below it is not', async () => {
    for (const width of WIDTHS) {
      const tab = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      try {
        const { page } = tab;
        await signIn(page, ts, 'nisha@balance.example');
        await page.getByRole('navigation').getByRole('link', { name: 'New payout', exact: true }).click();
        await page.getByRole('heading', { name: 'New payout' }).waitFor();
        await page.getByText('Available balance at razorpayx: ₹2,500.00').waitFor();
        const warning = page.getByRole('alert').filter({ hasText: 'larger than the available balance' });
        await page.getByLabel('Amount (₹)').fill('2,000');
        assert.equal(await warning.count(), 0, 'no warning below the balance');
        await page.getByLabel('Amount (₹)').fill('2,600.50');
        await warning.waitFor();
        assert.match(await warning.innerText(), /₹2,600\.50.*₹2,500\.00/s);
        assert.ok(await warning.isVisible(), 'the warning is in view');
        assert.deepEqual(await seriousA11yViolations(page), [], 'new payout with a balance warning');
        await shot(page, `payout-balance-${width}`);
        assertCleanConsoleRun(tab, ts.svc.publicUrl);
      } finally {
        await tab.close();
      }
    }
  });
});
