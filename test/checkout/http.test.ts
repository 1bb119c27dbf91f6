/**
 * The hosted checkout over plain HTTP (no browser needed, so it runs everywhere): security headers
 * on pages and assets, nothing from another origin, no secrets in the page, the token-scoped status
 * endpoint's shape, refusal of card numbers / PINs / OTPs, and 404 for unknown tokens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKOUT_CSP } from '../../src/http/public/checkout/routes.js';
import { serviceWithClient } from '../support/service.js';
import { createOrder, tokenOf } from '../payin/helpers.js';

const w = serviceWithClient();

const get = (path: string) => fetch(`${w.t.svc.publicUrl}${path}`);
const post = (path: string, body: unknown) =>
  fetch(`${w.t.svc.publicUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const payer = { customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true };
const secret = 's'.repeat(40);

test('the page: HTML with a strict CSP and the usual security headers; nothing from another origin; no secrets', async () => {
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #1', callback_url: 'https://merchant.example.in/hook', callback_secret: secret });
  const res = await get(`/checkout/${tokenOf(o)}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/html; charset=utf-8/);
  assert.equal(res.headers.get('content-security-policy'), CHECKOUT_CSP);
  assert.match(CHECKOUT_CSP, /default-src 'none'/);
  assert.doesNotMatch(CHECKOUT_CSP, /unsafe-|https?:|\*/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
  assert.match(res.headers.get('permissions-policy')!, /camera=\(\)/);
  const html = await res.text();
  assert.match(html, /href="\/checkout\/assets\/checkout\.css\?v=[0-9a-f]{12}"/, 'versioned, so the long asset cache is safe');
  assert.match(html, /src="\/checkout\/assets\/checkout\.js\?v=[0-9a-f]{12}"/);
  assert.doesNotMatch(html, /https?:\/\//, 'no absolute URL at all before a final state');
  assert.doesNotMatch(html, /<script>|<style|\sstyle=|\son[a-z]+=/i, 'no inline script or style');
  assert.ok(!html.includes(secret) && !html.includes(w.client.secret) && !html.includes(w.client.clientId));
  assert.doesNotMatch(html, /type="password"|name="[^"]*(pin|otp|card|cvv)[^"]*"/i, 'never asks for a card, PIN or OTP');
});

test('the pay step is light: HTML (with the QR), CSS and JS together well under 40 KB', async () => {
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #4' });
  assert.equal((await post(`/checkout/${tokenOf(o)}/details`, payer)).status, 200);
  let bytes = 0;
  for (const path of [`/checkout/${tokenOf(o)}`, '/checkout/assets/checkout.css', '/checkout/assets/checkout.js']) {
    bytes += (await (await get(path)).arrayBuffer()).byteLength;
  }
  assert.ok(bytes < 40_000, `${bytes} bytes`);
});

test('assets are Tijori\'s own, typed, and load nothing else', async () => {
  for (const [path, type] of [
    ['/checkout/assets/checkout.css', /^text\/css/],
    ['/checkout/assets/checkout.js', /^text\/javascript/],
  ] as const) {
    const res = await get(path);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, type);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const text = await res.text();
    assert.doesNotMatch(text, /https?:\/\/|@import|url\(|\/\/cdn|fonts\.googleapis/);
  }
});

test('status endpoint: token-scoped, only status and times; unknown tokens 404', async () => {
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #2' });
  const token = tokenOf(o);
  const s = (await (await get(`/checkout/${token}/status`)).json()) as any;
  assert.deepEqual(Object.keys(s.data).sort(), ['expires_at', 'server_time', 'status']);
  assert.equal(s.data.status, 'AWAITING_CUSTOMER');
  assert.equal((await get(`/checkout/${'A'.repeat(43)}/status`)).status, 404);
  const page = await get(`/checkout/${'A'.repeat(43)}`);
  assert.equal(page.status, 404);
  assert.match(await page.text(), /Payment link not found/);
  assert.equal(page.headers.get('content-security-policy'), CHECKOUT_CSP);
});

test('card numbers, UPI PINs and OTPs are refused by every payer step; unknown fields too', async () => {
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #3' });
  const token = tokenOf(o);
  for (const extra of [{ upi_pin: '1234' }, { card_number: '4111111111111111' }, { otp: '123456' }]) {
    const r = await post(`/checkout/${token}/details`, { ...payer, ...extra });
    assert.equal(r.status, 422);
    assert.equal(((await r.json()) as any).error.code, 'SENSITIVE_DATA_REJECTED');
  }
  assert.equal((await post(`/checkout/${token}/details`, { ...payer, status: 'PAID' })).status, 422);
  assert.equal((await post(`/checkout/${token}/details`, payer)).status, 200);
  const ref = await post(`/checkout/${token}/reference`, { payer_reference: '123456789012', mpin: '1234' });
  assert.equal(((await ref.json()) as any).error.code, 'SENSITIVE_DATA_REJECTED');
  const sim = await post(`/checkout/${token}/simulate`, { outcome: 'pay', otp: '123456' });
  assert.equal(((await sim.json()) as any).error.code, 'SENSITIVE_DATA_REJECTED');
  const row = (await w.t.database.db.query('SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]!;
  assert.equal(row.status, 'PENDING_PAYMENT');
});

test('details: a mobile number written "+91 98765 43210" (or with 0, dashes) is accepted and stored as its 10 digits; a non-mobile is 422', async () => {
  for (const [spelling, stored] of [['+91 98765 43210', '9876543210'], ['098765-43210', '9876543210'], ['91 91234 56789', '9123456789']] as const) {
    const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #5' });
    const r = await post(`/checkout/${tokenOf(o)}/details`, { ...payer, customer_phone: spelling });
    assert.equal(r.status, 200, `${spelling}: ${await r.text()}`);
    const row = (await w.t.database.db.query('SELECT customer_phone FROM payment_orders WHERE id = $1', [o.id])).rows[0]!;
    assert.equal(row.customer_phone, stored, spelling);
  }
  const o = await createOrder(w.t, w.client, { amount_paise: 49_900, purpose: 'Order #6' });
  for (const bad of ['+91 12345 67890', '+44 7911 123456', '9'.repeat(25)]) {
    const r = await post(`/checkout/${tokenOf(o)}/details`, { ...payer, customer_phone: bad });
    assert.equal(r.status, 422, bad);
    const e = ((await r.json()) as any).error;
    assert.equal(e.code, 'VALIDATION_FAILED');
    assert.ok(e.details.some((d: { field: string }) => /phone/.test(d.field)), JSON.stringify(e.details));
  }
});
