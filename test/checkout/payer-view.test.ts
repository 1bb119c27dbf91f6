/**
 * What the payer sees on the hosted checkout (issue #16 item 12), in a real browser at phone
 * (390 px) and desktop (1280 px) width: a mobile number typed or pasted the way people write it
 * ("+91 98765 43210") is normalised by the page exactly as by the server (src/domain/phone.ts);
 * the tab title names the step the page shows; the QR is at least 240 px; the order reference is
 * shown; a paid order shows a receipt (amount with Indian grouping, UTR, time in the payer's zone);
 * a sandbox order is marked "Test mode". Screenshots of every step go to test-artifacts/checkout/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseIndianMobile } from '../../src/domain/phone.js';
import { QR_MIN_PX } from '../../src/http/public/checkout/routes.js';
import type { Page } from 'playwright-core';
import {
  assertCleanRun,
  browserWorld,
  decodeQr,
  issuedIntent,
  newCheckoutOrder,
  openPage,
  PAYER,
  screenshot,
  SKIP_NO_BROWSER,
  waitForStatus,
} from './support.js';

const PHONE_WIDTHS = [390, 1280] as const;
const MERCHANT = 'Chai & Books Pvt Ltd';

/** The tab title must name what the page shows: the h1's text, after the test-mode marker. */
async function assertTitleInStep(page: Page, heading: string): Promise<void> {
  assert.equal((await page.getByRole('heading', { level: 1 }).innerText()).trim(), heading);
  assert.equal(await page.title(), `[Test] ${heading} · ${MERCHANT}`);
}

describe('hosted checkout: what the payer sees', { skip: SKIP_NO_BROWSER }, () => {
  const w = browserWorld();

  test('the page normalises a mobile number written any usual way exactly as the server does', async () => {
    const order = await newCheckoutOrder(w.t, w.client);
    const rec = await openPage(w.browser, 390);
    const { page } = rec;
    await page.goto(order.checkout_url);
    const field = page.getByLabel('Mobile number');
    const samples = ['+91 98765 43210', '+91-98765-43210', '098765 43210', '91 9876543210', '(987) 654-3210', '9876543210', '+91 12345 67890', '+44 7911 123456', '98765 4321'];
    for (const sample of samples) {
      // As a paste puts it in (the browser's text insertion, which a maxlength shorter than the spelling cuts).
      await field.fill(sample);
      await field.press('Tab');
      assert.equal(await field.inputValue(), normaliseIndianMobile(sample) ?? sample, sample);
    }
    assertCleanRun(rec, w.origin);
    await rec.close();
  });

  for (const width of PHONE_WIDTHS) {
    test(`${width} px: "+91 98765 43210" accepted and stored as 10 digits; title, reference, QR >= ${QR_MIN_PX} px, test-mode marker, receipt`, async () => {
      const reference = `INV-${width}-2041`;
      const order = await newCheckoutOrder(w.t, w.client, { amount_paise: 123_456_789, merchant_order_reference: reference });
      const timezoneId = width < 600 ? 'Asia/Kolkata' : 'America/New_York';
      const rec = await openPage(w.browser, width, { timezoneId });
      const { page } = rec;
      await page.goto(order.checkout_url);
      await assertTitleInStep(page, 'Your details');
      assert.match(await page.locator('#order-reference').innerText(), new RegExp(`Order reference ${reference}`));
      assert.equal(await page.getByText('Test mode', { exact: true }).isVisible(), true);
      await page.getByLabel('Full name').fill(PAYER.name);
      await page.getByLabel('Email').fill(PAYER.email);
      await page.getByLabel('Mobile number').pressSequentially('+91 98765 43210');
      await page.getByLabel(/I agree to share/).check();
      await screenshot(page, `payer-1-details-${width}`);
      await page.getByRole('button', { name: 'Continue to pay' }).click();
      await waitForStatus(page, 'PENDING_PAYMENT');
      const stored = await w.t.database.db.query<{ customer_phone: string }>('SELECT customer_phone FROM payment_orders WHERE id = $1', [order.id]);
      assert.equal(stored.rows[0]!.customer_phone, '9876543210');

      await assertTitleInStep(page, 'Scan and pay with any UPI app');
      assert.match(await page.locator('#order-reference').innerText(), new RegExp(reference));
      const box = await page.locator('.qr svg').boundingBox();
      assert.ok(box, 'the QR is rendered');
      assert.ok(box.width >= QR_MIN_PX && box.height >= QR_MIN_PX, `QR is ${box.width}x${box.height} px`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, 'the QR fits the screen');
      const intent = await issuedIntent(w.t, order);
      assert.ok((await decodeQr(page, `payer-qr-${width}`)).equals(Buffer.from(intent.stored, 'utf8')), 'the larger QR still reads as the issued intent');
      await screenshot(page, `payer-2-pay-${width}`);

      await page.getByText('I have paid').click();
      await page.getByLabel(/UPI reference number/).fill('424242424242');
      await page.getByRole('button', { name: 'Submit reference' }).click();
      await waitForStatus(page, 'AWAITING_CONFIRMATION');
      await assertTitleInStep(page, 'Checking your payment');
      await screenshot(page, `payer-3-checking-${width}`);

      const paid = await w.t.admin('POST', `/sandbox/payment-orders/${order.id}/pay`, { utr: '424242424242' });
      assert.ok(paid.status < 300, paid.text);
      await waitForStatus(page, 'PAID');
      await assertTitleInStep(page, 'Payment received');
      const receipt = page.getByRole('region', { name: 'Receipt' });
      assert.equal(await receipt.isVisible(), true);
      assert.equal(await page.locator('#receipt-amount').innerText(), '₹12,34,567.89');
      assert.equal(await page.locator('#receipt-utr').innerText(), '424242424242');
      const lines = (id: string) => page.evaluate(`(() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('${id}')); return r.getClientRects().length; })()`);
      assert.equal(await lines('receipt-utr'), 1, 'the UTR is on one line');
      assert.equal(await lines('receipt-amount'), 1, 'the amount is on one line');
      assert.match(await receipt.innerText(), new RegExp(reference));
      const confirmedAt = (await w.t.api('GET', `/merchant/payment-orders/${order.id}`, { client: w.client })).body.data.confirmed_at as string;
      const expected = new Intl.DateTimeFormat('en-IN', {
        day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: timezoneId,
      }).format(new Date(confirmedAt));
      assert.equal((await page.locator('#receipt-time').innerText()).toLowerCase(), expected.toLowerCase(), `receipt time in ${timezoneId}`);
      assert.equal(await page.locator('#receipt-time').getAttribute('datetime'), confirmedAt);
      await screenshot(page, `payer-4-receipt-${width}`);
      assertCleanRun(rec, w.origin);
      await rec.close();
    });
  }

  for (const width of PHONE_WIDTHS) {
    test(`${width} px: the QR is at least ${QR_MIN_PX} px for short and long intents, fits the screen and reads back as the intent`, async () => {
      // Short, usual and longest notes (50 characters, each percent-encoded to 6 bytes): QR versions from small to large.
      for (const [i, purpose] of ['Order 1', 'Order #2041 — 2 notebooks', 'ü'.repeat(50)].entries()) {
        const order = await newCheckoutOrder(w.t, w.client, { purpose });
        const details = await fetch(`${order.checkout_url}/details`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ customer_name: PAYER.name, customer_email: PAYER.email, customer_phone: PAYER.phone, customer_consent: true }),
        });
        assert.equal(details.status, 200);
        const rec = await openPage(w.browser, width);
        await rec.page.goto(order.checkout_url);
        const box = await rec.page.locator('.qr svg').boundingBox();
        assert.ok(box, 'the QR is rendered');
        assert.ok(box.width >= QR_MIN_PX && box.height >= QR_MIN_PX, `${purpose}: QR is ${box.width}x${box.height} px`);
        assert.ok(box.x >= 0 && box.x + box.width <= width, `${purpose}: the QR fits the screen`);
        const intent = await issuedIntent(w.t, order);
        assert.ok((await decodeQr(rec.page, `payer-qr-size-${i}-${width}`)).equals(Buffer.from(intent.stored, 'utf8')), purpose);
        assertCleanRun(rec, w.origin);
        await rec.close();
      }
    });
  }

  test('without a merchant_order_reference the page shows the order_id as the reference', async () => {
    const order = await newCheckoutOrder(w.t, w.client, { merchant_order_reference: undefined });
    const rec = await openPage(w.browser, 390);
    await rec.page.goto(order.checkout_url);
    assert.equal(await rec.page.locator('#order-reference').innerText(), `Order reference ${order.order_id}`);
    assertCleanRun(rec, w.origin);
    await rec.close();
  });
});
