/**
 * The "Provider accounts" page and the provider anomaly sections in a real browser (issue #22):
 * an admin sees the organization's accounts with their intake addresses and what they serve (and
 * no credential anywhere in the page), the anomalies of each account, adds a sandbox account
 * through the form and chooses it for collections; a developer does not have the page in the
 * navigation but sees an order's provider anomalies on its page; a viewer sees neither. The
 * anomaly is made the real way: the Cashfree simulator posts a signed webhook with a status
 * Cashfree never documented. axe-core finds no serious or critical violation; screenshots at 390
 * and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { CashfreeSimulator, collectThroughSimulator } from '../providers/cashfree-simulator.js';
import { createOrder, intentBody } from '../refunds/helpers.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import type { TestClient, TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, navLink, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

const CLIENT_ID = 'TEST1000browser';
const CLIENT_SECRET = 'cfsk_ma_test_browser_secret_0001';
let ts: TestService;
let browser: Browser;
let client: TestClient;
let sim: CashfreeSimulator;
let accountId = '';
let orderPk = '';
let orderId = '';
let secondAdmin: ConsoleCaller;

describe('provider accounts page and provider anomalies in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    sim = new CashfreeSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    await sim.start();
    ({ ts, browser } = await startConsoleAndBrowser({ PROVIDER_TIMEOUT_MS: '1500' }));
    client = await ts.createClient({ rateLimit: 100_000 });
    accountId = (await collectThroughSimulator(ts, client.orgId, sim, { name: 'Cashfree (simulator)' })).accountId;
    const o = await createOrder(ts, client, intentBody({ amount_paise: 49_900 }));
    orderPk = o.id;
    orderId = o.order_id;
    const p = sim.attempt(orderId);
    p.payment_status = 'SUCCESS_MAYBE';
    assert.equal((await sim.sendWebhook(sim.paymentWebhookBody(sim.orders.get(orderId)!, p))).status, 422);
    await signedInUser(ts, client.orgId, 'admin@asha.example', 'admin');
    secondAdmin = await signedInUser(ts, client.orgId, 'admin-2@asha.example', 'admin');
    await signedInUser(ts, client.orgId, 'dev@asha.example', 'developer');
    await signedInUser(ts, client.orgId, 'viewer@asha.example', 'viewer');
  });
  after(async () => {
    await stopConsoleAndBrowser(ts, browser);
    await sim?.stop();
  });

  test('an admin lists the accounts and their anomalies, adds a sandbox account and chooses it for collections (390 and 1280 px)', async () => {
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'admin@asha.example');
        await navLink(page, 'Provider accounts').click();
        await page.getByRole('heading', { name: 'Provider accounts', level: 1 }).waitFor();
        const row = page.getByRole('row').filter({ hasText: 'Cashfree (simulator)' });
        await row.waitFor();
        const rowText = await row.innerText();
        assert.match(rowText, /cashfree/);
        assert.ok(rowText.includes(`${ts.svc.internalUrl}/provider/${accountId}/callbacks`), 'the intake address to paste at the provider');
        const anomalies = page.getByRole('region', { name: 'Provider anomalies: Cashfree (simulator)', exact: true });
        await anomalies.getByRole('cell', { name: 'unknown_payment_status' }).waitFor();
        const anomalyText = await anomalies.innerText();
        assert.match(anomalyText, /payment_status="SUCCESS_MAYBE"/);
        assert.ok(anomalyText.includes(`order ${orderId}`), 'the order it concerns');
        const html = await page.content();
        assert.ok(!html.includes(CLIENT_SECRET) && !html.includes(CLIENT_ID), 'no credential in the page');
        await a11y(page, 'provider accounts');
        await shot(page, `provider-accounts-${width}`);

        const name = `Console sandbox ${width}`;
        await page.getByLabel('Provider', { exact: true }).selectOption('sandbox');
        await page.getByLabel('Account name').fill(name);
        assert.equal(await page.getByLabel('Config (JSON)').inputValue(), '{}');
        await page.getByRole('button', { name: 'Add provider account' }).click();
        const url = page.getByLabel('Intake address', { exact: true });
        await url.waitFor();
        assert.match(await url.inputValue(), /\/provider\/[0-9a-f-]{36}\/callbacks$/);
        await page.getByRole('row').filter({ hasText: name }).waitFor();
        // The admin entered its credentials: choosing it alone is refused (issue #29 item 4) ...
        await page.getByRole('button', { name: `Use for collections: ${name}` }).click();
        await page.getByRole('alert').filter({ hasText: 'Another admin must choose it for collections' }).waitFor();
        // ... another admin chooses it; the page shows it in use.
        const newId = (await ts.database.db.query<{ id: string }>('SELECT id FROM provider_accounts WHERE name = $1', [name])).rows[0]!.id;
        assert.equal((await secondAdmin.call('PUT', '/collections-account', { provider_account_id: newId })).status, 200);
        await page.reload();
        await page.getByRole('row').filter({ hasText: name }).getByText('In use').waitFor();
        assert.match(await page.locator('main').innerText(), new RegExp(`New payment orders use: ${name} \\(sandbox\\)`));
        await a11y(page, 'provider accounts after an add');
        await shot(page, `provider-accounts-added-${width}`);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
    const audit = await ts.database.db.query<{ action: string }>(
      "SELECT action FROM console_audit_log WHERE org_id = $1 AND target_type = 'provider_account' AND actor = 'admin@asha.example' ORDER BY action",
      [client.orgId],
    );
    assert.deepEqual(audit.rows.map((r) => r.action), ['provider_account.added', 'provider_account.added'], 'two adds, audited as the admin');
    const chosen = await ts.database.db.query<{ actor: string }>("SELECT actor FROM console_audit_log WHERE org_id = $1 AND action = 'provider_account.collections_chosen' AND actor <> 'operator' ORDER BY id", [client.orgId]);
    assert.deepEqual(chosen.rows.map((r) => r.actor), ['admin-2@asha.example', 'admin-2@asha.example'], 'two choices, by the other admin');
  });

  test("a developer sees an order's provider anomalies but not the provider accounts page; a viewer sees neither (390 and 1280 px)", async () => {
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'dev@asha.example');
        assert.equal(await navLink(page, 'Provider accounts').count(), 0, 'not in the navigation');
        assert.equal(await navLink(page, 'Payment orders').count(), 1);
        await page.goto(`${ts.svc.publicUrl}/console/payment-orders/${orderPk}`);
        const section = page.getByRole('region', { name: 'Provider anomalies', exact: true });
        await section.getByRole('cell', { name: 'unknown_payment_status' }).waitFor();
        const text = await section.innerText();
        assert.match(text, /webhook/);
        assert.match(text, /payment_status="SUCCESS_MAYBE"/);
        assert.ok(!text.includes('payer@'), 'never the payer VPA');
        await a11y(page, 'order page with anomalies');
        await shot(page, `order-provider-anomalies-${width}`);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
    const rec = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    try {
      await signIn(rec.page, ts, 'viewer@asha.example');
      assert.equal(await navLink(rec.page, 'Provider accounts').count(), 0);
      await rec.page.goto(`${ts.svc.publicUrl}/console/payment-orders/${orderPk}`);
      await rec.page.getByRole('heading', { name: 'State moves' }).waitFor();
      assert.equal(await rec.page.getByRole('heading', { name: 'Provider anomalies' }).count(), 0);
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });
});
