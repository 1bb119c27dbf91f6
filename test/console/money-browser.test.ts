/**
 * The console's money pages in a real browser (issue #19 item 3): "Payment orders" and "Payouts"
 * listed newest first with rupees in Indian grouping and UTC on hover, "Search" by a reference,
 * "Next"/"Previous", a row opens its page (state moves, refunds with a link to the Refunds page,
 * attempts, its settlement or "Not settled yet"; the CSV's settlement columns); another organization's rows
 * never shown; axe-core finds no serious or critical violation; screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { runTijori } from '../support/cli.js';
import { signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import type { TestClient, TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let a: TestClient;
let b: TestClient;
const orders: any[] = [];
let otherOrder: any;
let payout: any;
/** Refunds of orders[25]: one completed at the sandbox (review skipped), one waiting for review. */
let completedRefund: any;
let pendingRefund: any;
/** The sandbox settlement that covers orders[25]. */
let settlement: any;

describe('console money pages in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    a = await ts.createClient({});
    b = await ts.createClient({});
    assert.equal((await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] })).status, 201);
    // 27 orders: more than one page of 25. The last has a lakh-sized amount to show the grouping.
    for (let i = 0; i < 27; i++) {
      orders.push(await createOrder(ts, a, intentBody({ merchant_order_reference: `INV-${1000 + i}`, amount_paise: i === 26 ? 12_345_678_90 : 49_900 + i })));
    }
    otherOrder = await createOrder(ts, b, intentBody({ merchant_order_reference: 'OTHER-ORG-1' }));
    const pay = await runTijori(ts, ['sandbox', 'pay', orders[25].order_id, '--utr', '135792468013', '--json']);
    assert.equal(pay.code, 0, pay.stderr);
    const r = await ts.api('POST', '/merchant/payouts', { client: a, idempotencyKey: randomUUID(), body: payoutBody(250_000, { client_reference: 'SALARY-7' }) });
    assert.equal(r.status, 201, r.text);
    payout = r.body.data;
    const probe = await signedInUser(ts, a.orgId, 'viewer@asha.example', 'viewer');
    await poll(async () => (await probe.call('GET', `/payouts/${payout.id}`)).body.data?.payout.status === 'SUCCESS' || undefined, { what: 'payout success', timeoutMs: 15_000, stepMs: 100 });
    await poll(async () => (await probe.call('GET', `/payment-orders/${orders[25].id}`)).body.data?.order.status === 'PAID' || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
    const refund = async (body: Record<string, unknown>) => {
      const res = await ts.api('POST', `/merchant/payment-orders/${orders[25].id}/refunds`, { client: a, idempotencyKey: randomUUID(), body });
      assert.equal(res.status, 201, res.text);
      return res.body.data;
    };
    assert.equal((await ts.admin('POST', `/orgs/${a.orgId}/settings`, { refund_review: 'none' })).status, 200);
    completedRefund = await refund({ amount_paise: 12_345, reason: 'One item returned' });
    completedRefund = await poll(async () => {
      const r = (await ts.api('GET', `/merchant/refunds/${completedRefund.id}`, { client: a })).body.data;
      return r?.status === 'COMPLETED' ? r : undefined;
    }, { what: 'refund completed', timeoutMs: 15_000, stepMs: 100 });
    assert.equal((await ts.admin('POST', `/orgs/${a.orgId}/settings`, { refund_review: 'required' })).status, 200);
    pendingRefund = await refund({ amount_paise: 5_000, reason: 'Damaged box' });
    // The sandbox settles the paid order (and its completed refund); the sync imports it (contract §9).
    for (const args of [['sandbox', 'settle', '--org', a.orgId], ['settlements', 'sync', '--org', a.orgId]]) {
      const ran = await runTijori(ts, [...args, '--json']);
      assert.equal(ran.code, 0, ran.stderr);
    }
    settlement = (await ts.database.db.query('SELECT id, utr, settled_at FROM settlements WHERE org_id = $1', [a.orgId])).rows[0];
    assert.ok(settlement, 'one settlement imported');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('payment orders: list, pages, search by UTR, open the order; payouts: list, search, open the payout', async () => {
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'viewer@asha.example');
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payment orders', exact: true }).click();
        const rows = page.locator('main table tbody tr');
        await rows.first().waitFor();
        assert.equal(await rows.count(), 25);
        const first = await rows.first().innerText();
        assert.match(first, new RegExp(orders[26].order_id));
        assert.match(first, /₹1,23,45,678\.90/, 'Indian digit grouping');
        assert.ok(!(await page.content()).includes('OTHER-ORG-1'), "the other organization's order is not listed");
        const utcTitle = await rows.first().locator('time').getAttribute('title');
        assert.match(utcTitle ?? '', /UTC$/);
        await a11y(page, 'payment orders');
        await shot(page, `payment-orders-${width}`);

        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByText('Page 2').waitFor();
        await rows.first().waitFor();
        assert.equal(await rows.count(), 2);
        assert.match(await rows.last().innerText(), new RegExp(orders[0].order_id));
        assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
        await page.getByRole('button', { name: 'Previous' }).click();
        await page.getByText('Page 1').waitFor();

        const exportHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
        const csv = await page.evaluate(async (href) => (await fetch(href as string)).text(), exportHref);
        const csvLines = csv.trim().split('\n');
        assert.equal(csvLines.length, 28, 'header and every order of the organization');
        // Settlement columns (issue #32 item 7): filled for the settled order, empty for the others.
        assert.match(csvLines[0] as string, /,settlement_id,settlement_utr,settled_at$/);
        const settledRow = csvLines.find((l) => l.includes(orders[25].order_id)) as string;
        assert.ok(settledRow.endsWith(`,${settlement.id},${settlement.utr},${settlement.settled_at.toISOString()}`), settledRow);
        assert.ok((csvLines.find((l) => l.includes(orders[24].order_id)) as string).endsWith(',,,'), 'an unsettled order has empty settlement cells');

        await page.getByLabel('Search').fill('135792468013');
        await page.getByRole('button', { name: 'Apply' }).click();
        await poll(async () => (await rows.count()) === 1 || undefined, { what: 'one row', timeoutMs: 10_000, stepMs: 100 });
        await page.getByRole('link', { name: orders[25].order_id }).click();
        await page.getByRole('heading', { name: 'State moves' }).waitFor();
        const facts = await page.locator('main').innerText();
        assert.match(facts, /PAID/);
        assert.match(facts, /135792468013/);
        assert.match(facts, /created/);
        assert.match(facts, /provider_confirmed|PAID/);
        // Its refunds: rupees in Indian grouping, status, reason, times (UTC on hover), provider reference.
        await page.getByRole('heading', { name: 'Refunds' }).waitFor();
        const refundRows = page.getByRole('region', { name: 'Refunds of this order' }).locator('tbody tr');
        assert.equal(await refundRows.count(), 2);
        const done = await refundRows.nth(0).innerText();
        assert.match(done, new RegExp(completedRefund.refund_id));
        assert.match(done, /₹123\.45/);
        assert.match(done, /Completed/);
        assert.match(done, /One item returned/);
        assert.ok(completedRefund.provider_reference && done.includes(completedRefund.provider_reference), done);
        assert.equal(await refundRows.nth(0).locator('time').count(), 2, 'requested and completed times');
        assert.match((await refundRows.nth(0).locator('time').last().getAttribute('title')) ?? '', /UTC$/);
        const waiting = await refundRows.nth(1).innerText();
        assert.match(waiting, new RegExp(pendingRefund.refund_id));
        assert.match(waiting, /₹50\.00/);
        assert.match(waiting, /Pending review/);
        assert.match(waiting, /Damaged box/);
        // Its settlement (contract §9, issue #32 item 6): id, UTR and when, in IST with UTC on hover.
        const settled = page.locator('dt', { hasText: /^Settlement$/ }).locator('xpath=following-sibling::dd[1]');
        const settledText = await settled.innerText();
        assert.ok(settledText.includes(settlement.id) && settledText.includes(settlement.utr), settledText);
        assert.match(settledText, /IST/);
        assert.equal(await settled.locator('time').getAttribute('datetime'), settlement.settled_at.toISOString());
        await a11y(page, 'payment order page');
        await shot(page, `payment-order-${width}`);
        await page.getByRole('link', { name: 'Review refunds on the Refunds page' }).click();
        await page.getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
        await page.getByRole('button', { name: `Open refund ${pendingRefund.refund_id}` }).waitFor();

        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payouts', exact: true }).click();
        await page.getByLabel('Search').fill('SALARY-7');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.getByRole('link', { name: payout.transaction_id }).click();
        await page.getByRole('heading', { name: 'Attempts' }).waitFor();
        const p = await page.locator('main').innerText();
        assert.match(p, /SUCCESS/);
        assert.match(p, /₹2,500\.00/);
        assert.match(p, /••9012/);
        await a11y(page, 'payout page');
        await shot(page, `payout-${width}`);
        await page.getByRole('link', { name: '← Payouts' }).click();
        await page.locator('main table tbody tr').first().waitFor();
        await a11y(page, 'payouts');
        await shot(page, `payouts-${width}`);

        // An order no settlement covers says so.
        await page.goto(`${ts.svc.publicUrl}/console/payment-orders/${orders[24].id}`);
        await page.getByRole('heading', { name: 'State moves' }).waitFor();
        assert.equal(await page.locator('dt', { hasText: /^Settlement$/ }).locator('xpath=following-sibling::dd[1]').innerText(), 'Not settled yet');
        await shot(page, `payment-order-unsettled-${width}`);

        // Another organization's order by its address: not found, nothing of it shown.
        await page.goto(`${ts.svc.publicUrl}/console/payment-orders/${otherOrder.id}`);
        await page.getByRole('alert').waitFor();
        assert.ok(!(await page.content()).includes('OTHER-ORG-1'));
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });
});
