/**
 * The hosted checkout's other outcomes in a real browser: inline validation, forged URL parameters
 * (the server alone is the authority), failure, expiry with a live countdown (410), cancellation,
 * and the 404 page, at phone and desktop width.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertCleanRun,
  fillDetails,
  browserWorld,
  newCheckoutOrder,
  openPage,
  orderStatus,
  PAYER,
  problems,
  type Recorded,
  screenshot,
  SKIP_NO_BROWSER,
  waitForStatus,
  WIDTHS,
} from './support.js';

/** A main document answered 404/410 on purpose: Chromium logs that as a console error. */
const EXPECTED_STATUS_LOG = [/Failed to load resource: the server responded with a status of (404|410)/];

describe('hosted checkout: validation, authority, failure, expiry', { skip: SKIP_NO_BROWSER }, () => {
  const w = browserWorld();

  const RETURN = 'https://shop.example.in/orders/2041';
  const assertClean = (rec: Recorded, allow: RegExp[] = []) => assertCleanRun(rec, w.origin, allow);

  async function atPayStep(width: number) {
    const order = await newCheckoutOrder(w.t, w.client, { return_url: RETURN });
    const rec = await openPage(w.browser, width);
    await rec.page.goto(order.checkout_url);
    await fillDetails(rec.page);
    await waitForStatus(rec.page, 'PENDING_PAYMENT');
    return { order, rec, page: rec.page };
  }

  for (const width of WIDTHS) {
    test(`${width} px: inline errors are shown, tied to their fields and announced; nothing is sent`, async () => {
      const order = await newCheckoutOrder(w.t, w.client);
      const rec = await openPage(w.browser, width);
      const { page } = rec;
      await page.goto(order.checkout_url);
      await page.getByRole('button', { name: 'Continue to pay' }).click();
      for (const id of ['customer_name', 'customer_email', 'customer_phone', 'customer_consent']) {
        const input = page.locator(`#${id}`);
        assert.equal(await input.getAttribute('aria-invalid'), 'true', id);
        const described = (await input.getAttribute('aria-describedby'))!.split(' ');
        assert.ok(described.includes(`${id}-error`), id);
        const error = page.locator(`#${id}-error`);
        assert.equal(await error.getAttribute('role'), 'alert');
        assert.notEqual((await error.textContent())!.trim(), '', id);
        assert.equal(await error.isVisible(), true);
      }
      assert.equal(await page.evaluate('document.activeElement.id'), 'customer_name', 'focus on the first field to fix');
      await screenshot(page, `validation-1-empty-${width}`);

      await page.getByLabel('Full name').fill(PAYER.name);
      await page.getByLabel('Email').fill('asha@');
      await page.getByLabel('Mobile number').fill('+919876543');
      await page.getByLabel(/I agree to share/).check();
      await page.getByRole('button', { name: 'Continue to pay' }).click();
      assert.equal(await page.locator('#customer_name').getAttribute('aria-invalid'), 'false');
      assert.equal(await page.locator('#customer_name-error').textContent(), '');
      assert.match((await page.locator('#customer_email-error').textContent())!, /valid email/);
      assert.match((await page.locator('#customer_phone-error').textContent())!, /10-digit Indian mobile/);
      assert.equal(await page.evaluate('document.activeElement.id'), 'customer_email');
      await screenshot(page, `validation-2-partly-${width}`);
      assert.equal(await orderStatus(w.t, order.id), 'AWAITING_CUSTOMER');
      assert.ok(!rec.requests.some((u) => u.endsWith('/details')), 'an invalid form is not sent');

      await page.getByLabel('Email').fill(PAYER.email);
      await page.getByLabel('Mobile number').fill(PAYER.phone);
      await page.getByRole('button', { name: 'Continue to pay' }).click();
      await waitForStatus(page, 'PENDING_PAYMENT');
      assertClean(rec);
      await rec.close();
    });

    test(`${width} px: forged ?status=PAID, ?paid=true&utr=… and #fragments change nothing`, async () => {
      const order = await newCheckoutOrder(w.t, w.client, { return_url: RETURN });
      const rec = await openPage(w.browser, width);
      const { page } = rec;
      const forged = '?status=PAID&paid=true&utr=123456789012&return_url=https%3A%2F%2Fevil.example%2F&amount_paise=100#status=PAID';
      await page.goto(order.checkout_url + forged);
      assert.equal(await page.locator('body').getAttribute('data-status'), 'AWAITING_CUSTOMER');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your details');
      assert.equal(await page.getByRole('link').count(), 0, 'no return link, least of all a forged one');
      await fillDetails(page);
      await waitForStatus(page, 'PENDING_PAYMENT');
      for (const q of ['?status=PAID', '?paid=true&utr=123456789012&status=SUCCESS', '?status=EXPIRED&expires_at=2000-01-01T00:00:00Z']) {
        await page.goto(order.checkout_url + q);
        assert.equal(await page.locator('body').getAttribute('data-status'), 'PENDING_PAYMENT', q);
        assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Scan and pay with any UPI app');
        assert.doesNotMatch(await page.locator('main').innerText(), /123456789012|evil\.example|₹1\.00|Payment received/);
        assert.equal(await page.getByRole('link', { name: /Return to/ }).count(), 0);
      }
      await page.waitForTimeout(3_000); // a few polls of the status endpoint: still pending
      assert.equal(await page.locator('body').getAttribute('data-status'), 'PENDING_PAYMENT');
      assert.equal(await orderStatus(w.t, order.id), 'PENDING_PAYMENT');
      await screenshot(page, `forged-${width}`);
      assertClean(rec);
      await rec.close();
    });

    test(`${width} px: "Simulate failure" -> a plain-words failure page and the way back`, async () => {
      const { order, rec, page } = await atPayStep(width);
      await page.getByRole('button', { name: 'Simulate failure' }).click();
      await waitForStatus(page, 'FAILED');
      assert.equal(await orderStatus(w.t, order.id), 'FAILED');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Payment failed');
      assert.match(await page.getByRole('status').innerText(), /did not go through/);
      assert.equal(await page.getByRole('link', { name: 'Return to Chai & Books Pvt Ltd' }).getAttribute('href'), RETURN);
      assert.equal(await page.getByRole('button').count(), 0, 'nothing left to do on a final page');
      await screenshot(page, `failed-${width}`);
      assertClean(rec);
      await rec.close();
    });

    test(`${width} px: the countdown runs out, the expiry worker expires the order, the page shows 410 "expired"`, async () => {
      const { order, rec, page } = await atPayStep(width);
      // The API's shortest window is 5 minutes: move this order's end to 3 s from now instead.
      await w.t.database.db.query(`UPDATE payment_orders SET expires_at = now() + interval '3 seconds' WHERE id = $1`, [order.id]);
      await page.reload();
      assert.match((await page.locator('#countdown [data-left]').textContent())!, /^0:0[0-3]$/);
      await screenshot(page, `expiry-1-countdown-${width}`);
      await waitForStatus(page, 'EXPIRED', 15_000);
      assert.equal(await orderStatus(w.t, order.id), 'EXPIRED');
      assert.equal(rec.documents.at(-1)!.status, 410);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Payment link expired');
      assert.equal(await page.getByRole('link', { name: 'Return to Chai & Books Pvt Ltd' }).getAttribute('href'), RETURN);
      await screenshot(page, `expiry-2-expired-${width}`);
      // Opened afresh, the link answers 410 too.
      const again = await page.goto(order.checkout_url);
      assert.equal(again!.status(), 410);
      assertClean(rec, EXPECTED_STATUS_LOG);
      await rec.close();
    });
  }

  test('cancelled by the merchant while the payer fills the form: the submit shows the cancelled page', async () => {
    const order = await newCheckoutOrder(w.t, w.client, { return_url: RETURN });
    const rec = await openPage(w.browser, 360);
    // The page's own status poll would notice the cancellation too (the next test) and reload
    // before the form is sent, at a moment no test controls. Its answers are held back here, as
    // on a slow network, so that the submit is what meets the cancellation.
    await rec.page.route(/\/checkout\/[^/]+\/status$/, () => {});
    await rec.page.goto(order.checkout_url);
    await w.t.api('POST', `/merchant/payment-orders/${order.id}/cancel`, { client: w.client });
    await rec.page.waitForTimeout(3_000); // longer than a poll interval: the page must not move on its own
    await fillDetails(rec.page);
    await waitForStatus(rec.page, 'CANCELLED');
    assert.ok(rec.requests.some((u) => u.endsWith('/details')), 'the form was sent');
    assert.equal(await rec.page.getByRole('heading', { level: 1 }).textContent(), 'Payment cancelled');
    assert.equal(await orderStatus(w.t, order.id), 'CANCELLED');
    assertClean(rec, [/status of 409/]);
    await rec.close();
  });

  test('cancelled by the merchant while the page is open: the page finds out by itself and shows the cancelled page', async () => {
    const order = await newCheckoutOrder(w.t, w.client, { return_url: RETURN });
    const rec = await openPage(w.browser, 360);
    await rec.page.goto(order.checkout_url);
    assert.equal(await rec.page.locator('body').getAttribute('data-status'), 'AWAITING_CUSTOMER');
    await w.t.api('POST', `/merchant/payment-orders/${order.id}/cancel`, { client: w.client });
    await waitForStatus(rec.page, 'CANCELLED'); // one poll (every 2.5 s) and a reload, nothing typed
    assert.equal(await rec.page.getByRole('heading', { level: 1 }).textContent(), 'Payment cancelled');
    assert.ok(!rec.requests.some((u) => u.endsWith('/details')), 'nothing was sent by the payer');
    assertClean(rec);
    await rec.close();
  });

  test('a cancelled order says so in plain words', async () => {
    const order = await newCheckoutOrder(w.t, w.client, { return_url: RETURN });
    await w.t.api('POST', `/merchant/payment-orders/${order.id}/cancel`, { client: w.client });
    const rec = await openPage(w.browser, 360);
    const res = await rec.page.goto(order.checkout_url);
    assert.equal(res!.status(), 200);
    assert.equal(await rec.page.getByRole('heading', { level: 1 }).textContent(), 'Payment cancelled');
    assert.equal(await rec.page.getByRole('link', { name: /Return to/ }).getAttribute('href'), RETURN);
    await screenshot(rec.page, 'cancelled-360');
    assertClean(rec);
    await rec.close();
  });

  test('the CSP holds, and this harness would notice a violation: no inline script, nothing from elsewhere', async () => {
    const { rec, page } = await atPayStep(360);
    assertClean(rec);
    await page.evaluate(`(() => {
      const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s);
      const i = document.createElement('img'); i.src = 'https://cdn.example.net/pixel.png'; document.body.append(i);
      fetch('https://cdn.example.net/x').catch(() => {});
    })()`);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate('window.__inline'), undefined, 'inline script blocked');
    const csp = problems(rec).filter((p) => /Content Security Policy/.test(p));
    assert.ok(csp.some((p) => /script-src/.test(p)) && csp.some((p) => /img-src/.test(p)) && csp.some((p) => /connect-src/.test(p)), csp.join('\n'));
    await rec.close();
  });

  for (const width of WIDTHS) {
    test(`${width} px: an unknown or malformed token gets the 404 page`, async () => {
      const rec = await openPage(w.browser, width);
      for (const token of ['A'.repeat(43), 'not-a-token', '..%2F..%2Fetc%2Fpasswd']) {
        const res = await rec.page.goto(`${w.t.svc.publicUrl}/checkout/${token}?status=PAID`);
        assert.equal(res!.status(), 404, token);
        assert.equal(await rec.page.getByRole('heading', { level: 1 }).textContent(), 'Payment link not found');
      }
      await screenshot(rec.page, `not-found-${width}`);
      assertClean(rec, EXPECTED_STATUS_LOG);
      await rec.close();
    });
  }
});
