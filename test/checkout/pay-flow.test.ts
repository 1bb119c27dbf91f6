/**
 * The hosted checkout's happy paths in a real browser, at phone (360 px) and desktop (1280 px)
 * width: details form -> QR (decoded from a screenshot, byte for byte the issued intent) -> paid,
 * by the page's sandbox control and by `tijori sandbox pay`, and the "I have paid" step.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../payin/helpers.js';
import { runTijori } from '../support/cli.js';
import {
  assertCleanRun,
  decodeQr,
  fillDetails,
  issuedIntent,
  browserWorld,
  newCheckoutOrder,
  openPage,
  orderStatus,
  PAYER,
  type Recorded,
  screenshot,
  SKIP_NO_BROWSER,
  waitForStatus,
  WIDTHS,
} from './support.js';

describe('hosted checkout: paying', { skip: SKIP_NO_BROWSER }, () => {
  const w = browserWorld();

  const assertClean = (rec: Recorded) => assertCleanRun(rec, w.origin);

  /** Opens a new order's page, gives details, and checks the pay step against the issued intent. */
  async function reachPayStep(width: number, name: string, extra: Record<string, unknown> = {}) {
    const order = await newCheckoutOrder(w.t, w.client, { return_url: 'https://shop.example.in/orders/2041', ...extra });
    const rec = await openPage(w.browser, width);
    const { page } = rec;
    await page.goto(order.checkout_url);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your details');
    assert.equal(await page.getByRole('link', { name: /Return to/ }).count(), 0, 'no way back before a final state');
    await screenshot(page, `${name}-1-details-${width}`);
    await fillDetails(page);
    await waitForStatus(page, 'PENDING_PAYMENT');
    assert.equal(await orderStatus(w.t, order.id), 'PENDING_PAYMENT');

    const intent = await issuedIntent(w.t, order);
    assert.equal(intent.sandbox, intent.stored);
    const qr = await decodeQr(page, `${name}-qr-${width}`);
    assert.ok(qr.equals(Buffer.from(intent.sandbox, 'utf8')), `QR ${qr.toString()} != ${intent.sandbox}`);
    assert.equal(await page.getByRole('link', { name: 'Pay with a UPI app' }).getAttribute('href'), intent.sandbox);
    const main = await page.locator('main').innerText();
    assert.match(main, /Chai & Books Pvt Ltd/);
    assert.match(main, /₹1,499\.50/);
    assert.match(main, /Order #2041 — 2 notebooks/);
    assert.equal(await page.getByRole('link', { name: /Return to/ }).count(), 0);
    // The countdown is live: it shows about 30 minutes (the default window) and moves.
    const left = async () => page.locator('#countdown [data-left]').textContent();
    const first = await left();
    assert.match(first ?? '', /^(29|30):[0-5][0-9]$/);
    await waitFor(async () => (await left()) !== first, 3_000);
    await screenshot(page, `${name}-2-pay-${width}`);
    return { order, rec, page };
  }

  async function assertPaid(rec: Recorded, name: string, width: number): Promise<void> {
    const { page } = rec;
    await waitForStatus(page, 'PAID');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Payment received');
    assert.equal(await page.evaluate('document.activeElement.tagName'), 'H1', 'focus on the new step for screen readers');
    assert.match(await page.locator('#receipt-utr').innerText(), /^[0-9]{12}$/);
    const back = page.getByRole('link', { name: 'Return to Chai & Books Pvt Ltd' });
    assert.equal(await back.getAttribute('href'), 'https://shop.example.in/orders/2041');
    await screenshot(page, `${name}-3-paid-${width}`);
    assertClean(rec);
  }

  for (const width of WIDTHS) {
    test(`${width} px: details, QR = issued intent, "Simulate payment" -> paid, way back to the shop`, async () => {
      const { rec, page } = await reachPayStep(width, 'simulate');
      const sandbox = page.getByRole('region', { name: /Sandbox only/ });
      await sandbox.getByRole('button', { name: 'Simulate payment' }).click();
      await assertPaid(rec, 'simulate', width);
      await rec.close();
    });

    test(`${width} px: paid with \`tijori sandbox pay\`; the open page notices by itself`, async () => {
      const { order, rec } = await reachPayStep(width, 'cli');
      const r = await runTijori(w.t, ['sandbox', 'pay', order.order_id, '--utr', '314159265358', '--json']);
      assert.equal(r.code, 0, r.stderr);
      await assertPaid(rec, 'cli', width);
      assert.match(await rec.page.locator('main').innerText(), /314159265358/);
      await rec.close();
    });

    test(`${width} px: "I have paid" with a 12-digit UTR -> AWAITING_CONFIRMATION, then paid`, async () => {
      const { order, rec, page } = await reachPayStep(width, 'reference', { return_url: undefined });
      await page.getByText('I have paid').click();
      const utr = page.getByLabel(/UPI reference number/);
      await utr.fill('12345');
      await page.getByRole('button', { name: 'Submit reference' }).click();
      assert.equal(await utr.getAttribute('aria-invalid'), 'true');
      assert.match((await page.getByRole('alert').filter({ hasText: /12-digit/ }).textContent()) ?? '', /12-digit/);
      await screenshot(page, `reference-1-invalid-${width}`);
      await utr.fill('424242424242');
      await page.getByRole('button', { name: 'Submit reference' }).click();
      await waitForStatus(page, 'AWAITING_CONFIRMATION');
      assert.equal(await orderStatus(w.t, order.id), 'AWAITING_CONFIRMATION');
      assert.match(await page.locator('main').innerText(), /424242424242/);
      await screenshot(page, `reference-2-awaiting-${width}`);
      await w.t.admin('POST', `/sandbox/payment-orders/${order.id}/pay`, { utr: '424242424242' });
      await waitForStatus(page, 'PAID');
      assert.equal(await page.getByRole('link', { name: /Return to/ }).count(), 0, 'no return_url, no link');
      assertClean(rec);
      await rec.close();
    });
  }

  test('keyboard only: Tab, typing, Space and Enter complete the form', async () => {
    const order = await newCheckoutOrder(w.t, w.client);
    const rec = await openPage(w.browser, 360);
    const { page } = rec;
    await page.goto(order.checkout_url);
    const focused = () => page.evaluate('document.activeElement && document.activeElement.id');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'customer_name');
    await page.keyboard.type(PAYER.name);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'customer_email');
    await page.keyboard.type(PAYER.email);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'customer_phone');
    await page.keyboard.type(PAYER.phone);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'customer_consent');
    await page.keyboard.press('Space');
    assert.equal(await page.getByLabel(/I agree to share/).isChecked(), true);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'details-submit');
    await screenshot(page, 'keyboard-focus-360');
    await page.keyboard.press('Enter');
    await waitForStatus(page, 'PENDING_PAYMENT');
    assert.equal(await orderStatus(w.t, order.id), 'PENDING_PAYMENT');
    assertClean(rec);
    await rec.close();
  });
});
