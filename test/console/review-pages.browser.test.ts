/**
 * The console's "Review queue" and "Refunds" pages in a real browser (Debian chromium +
 * playwright-core): a reviewer confirms a review item and approves a refund through the pages, a
 * second reviewer is told who decided first, a viewer sees the lists but no action buttons,
 * axe-core finds no serious or critical violation, screenshots at 390 and 1280 px.
 * Review items are made the real way: the sandbox PSP takes a wrong amount.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { signedInUser } from '../support/console.js';
import type { TestClient, TestService } from '../support/service.js';
import { createOrder, intentBody, itemsOnceThere, key, orderRow, paidOrder, sandboxPay } from '../refunds/helpers.js';
import { a11y, assertCleanConsoleRun, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let client: TestClient;

/** 1,23,45,678 paise ordered, 100 paid: an open confirmation_mismatch item. */
async function mismatchedOrder(): Promise<{ id: string; order_id: string; itemId: string }> {
  const o = await createOrder(ts, client, intentBody({ amount_paise: 12_345_678 }));
  await sandboxPay(ts, o.order_id, { callback: true, amountPaise: 100 });
  const [item] = await itemsOnceThere(ts, o.id);
  return { id: o.id, order_id: o.order_id, itemId: item!.id as string };
}

async function pendingRefund(): Promise<{ id: string; refund_id: string }> {
  const o = await paidOrder(ts, client, 250_000);
  const r = await ts.api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client, body: { amount_paise: 150_000, reason: 'damaged in transit' }, idempotencyKey: key() });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.data.id, refund_id: r.body.data.refund_id };
}

const refundStatus = async (id: string) => (await ts.database.db.query('SELECT status FROM refunds WHERE id = $1', [id])).rows[0]!.status as string;

describe('review queue and refunds pages in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser());
    client = await ts.createClient({ rateLimit: 100_000 });
    await signedInUser(ts, client.orgId, 'rita@asha.example', 'reviewer');
    await signedInUser(ts, client.orgId, 'vijay@asha.example', 'viewer');
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('a reviewer confirms a review item and approves a refund through the pages (390 and 1280 px)', async () => {
    for (const width of WIDTHS) {
      const m = await mismatchedOrder();
      const rf = await pendingRefund();
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'rita@asha.example');
        await page.getByRole('navigation').getByRole('link', { name: 'Review queue', exact: true }).click();
        await page.getByRole('heading', { name: 'Review queue' }).waitFor();
        const row = page.getByRole('row').filter({ hasText: m.order_id });
        await row.waitFor();
        const rowText = await row.innerText();
        assert.match(rowText, /₹1,23,456\.78/, 'the order amount in rupees with Indian grouping');
        assert.match(rowText, /₹1\.00/, 'what the provider reported');
        assert.match((await row.locator('time').getAttribute('title')) ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/, 'UTC on hover');
        await a11y(page, 'review queue');
        await shot(page, `review-queue-${width}`);

        await page.getByRole('button', { name: `Open review of order ${m.order_id}` }).click();
        await page.getByRole('button', { name: 'Confirm payment' }).click();
        assert.match(await page.locator('#decision-hint').innerText(), /Write a note first/, 'no note, no request');
        assert.equal((await orderRow(ts, m.id)).status, 'PENDING_PAYMENT');
        await page.getByLabel('Note').fill('HDFC statement 21 Nov, line 14: ₹1,23,456.78 credited, UTR matches the payer\'s');
        await a11y(page, 'review item with the decision form');
        await shot(page, `review-item-${width}`);
        await page.getByRole('button', { name: 'Confirm payment' }).click();
        await page.getByRole('button', { name: /^Yes, confirm payment of ₹/ }).click();
        await page.getByRole('status').filter({ hasText: 'MANUALLY_CONFIRMED' }).waitFor();
        assert.equal((await orderRow(ts, m.id)).status, 'MANUALLY_CONFIRMED');

        await page.getByRole('navigation').getByRole('link', { name: 'Refunds', exact: true }).click();
        await page.getByRole('heading', { name: 'Refunds' }).waitFor();
        const refundRow = page.getByRole('row').filter({ hasText: rf.refund_id });
        assert.match(await refundRow.innerText(), /₹1,500\.00[\s\S]*Pending review/);
        await a11y(page, 'refunds');
        await shot(page, `refunds-${width}`);
        await page.getByRole('button', { name: `Open refund ${rf.refund_id}` }).click();
        await page.getByLabel('Note').fill('Parcel returned, checked by the warehouse');
        await a11y(page, 'refund with the decision form');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('button', { name: 'Yes, approve ₹1,500.00' }).click();
        await page.getByRole('status').filter({ hasText: 'approved' }).waitFor();
        assert.notEqual(await refundStatus(rf.id), 'PENDING_REVIEW');
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
  });

  test('a reviewer acting on an item another reviewer already decided is told who decided', async () => {
    const m = await mismatchedOrder();
    const other = await signedInUser(ts, client.orgId, 'sunil@asha.example', 'reviewer');
    const rec = await openPage(browser, 1280);
    const { page } = rec;
    try {
      await signIn(page, ts, 'rita@asha.example');
      await page.getByRole('navigation').getByRole('link', { name: 'Review queue', exact: true }).click();
      await page.getByRole('button', { name: `Open review of order ${m.order_id}` }).click();
      await page.getByLabel('Note').fill('statement line 3');
      // Meanwhile, Sunil rejects it.
      const r = await other.call('POST', `/review-items/${m.itemId}/reject`, { note: 'no such credit' });
      assert.equal(r.status, 200, r.text);
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.getByRole('button', { name: /^Yes, confirm payment of ₹/ }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /already decided by sunil@asha\.example \(rejected\)/);
      assert.equal((await orderRow(ts, m.id)).status, 'PENDING_PAYMENT');
      // The list reloads: the decided item offers no buttons any more, and shows who decided.
      await page.getByRole('button', { name: 'Confirm payment' }).waitFor({ state: 'detached' });
      assert.match(await page.locator('.facts').innerText(), /rejected by sunil@asha\.example/);
    } finally {
      await rec.close();
    }
  });

  test('a viewer sees both lists and an item\'s details but no note field and no action buttons', async () => {
    const m = await mismatchedOrder();
    const rf = await pendingRefund();
    for (const width of WIDTHS) {
      const rec = await openPage(browser, width);
      const { page } = rec;
      try {
        await signIn(page, ts, 'vijay@asha.example');
        await page.getByRole('navigation').getByRole('link', { name: 'Review queue', exact: true }).click();
        await page.getByRole('button', { name: `Open review of order ${m.order_id}` }).click();
        await page.getByRole('heading', { name: `Order ${m.order_id}` }).waitFor();
        await a11y(page, 'review queue (viewer)');
        await shot(page, `review-queue-viewer-${width}`);
        for (const name of ['Confirm payment', 'Reject', 'Approve']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
        assert.equal(await page.getByLabel('Note').count(), 0);

        await page.getByRole('navigation').getByRole('link', { name: 'Refunds', exact: true }).click();
        await page.getByRole('button', { name: `Open refund ${rf.refund_id}` }).click();
        await page.getByRole('heading', { name: `Refund ${rf.refund_id}` }).waitFor();
        await a11y(page, 'refunds (viewer)');
        for (const name of ['Approve', 'Reject']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
    assert.equal(await refundStatus(rf.id), 'PENDING_REVIEW');
  });
});
