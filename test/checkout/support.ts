/**
 * Browser harness of the hosted checkout tests: Debian's chromium driven by playwright-core, one
 * browser per test file, one fresh context per page, with everything the tests assert on recorded
 * (requests, console messages, page errors, CSP violations) and screenshots kept as artifacts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import jsQRModule from 'jsqr';
import { type Browser, type Page, chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { CHECKOUT_CSP } from '../../src/http/public/checkout/routes.js';
import { createOrder, key, waitFor } from '../payin/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

// jsqr's bundle sets module.exports to the function itself, while its typings declare a default
// export; under NodeNext the default import is module.exports, so retype it.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** node:test `skip` value: a message when there is no browser to drive, false otherwise. */
export const SKIP_NO_BROWSER: string | false = existsSync(CHROMIUM) ? false : `chromium not installed at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'checkout');
export const WIDTHS = [360, 1280] as const;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface Recorded {
  page: Page;
  requests: string[];
  console: { type: string; text: string }[];
  pageErrors: string[];
  /** The first response's headers of every document the page loaded. */
  documents: { url: string; status: number; headers: Record<string, string> }[];
  close(): Promise<void>;
}

/** A new context (so no state is shared between pages) of the given width, recording everything. */
export async function openPage(browser: Browser, width: number, opts: { timezoneId?: string } = {}): Promise<Recorded> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 780 : 900 },
    deviceScaleFactor: 1,
    isMobile: width < 600,
    hasTouch: width < 600,
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const rec: Recorded = { page, requests: [], console: [], pageErrors: [], documents: [], close: () => context.close() };
  page.on('request', (r) => rec.requests.push(r.url()));
  page.on('console', (m) => rec.console.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => rec.pageErrors.push(e.message));
  page.on('response', (r) => {
    if (r.request().resourceType() === 'document') rec.documents.push({ url: r.url(), status: r.status(), headers: r.headers() });
  });
  return rec;
}

/** Problems a clean run must not show: script errors, console errors (CSP violations are console errors). */
export function problems(rec: Recorded, allow: RegExp[] = []): string[] {
  const errs = rec.console.filter((m) => m.type === 'error' || /Content Security Policy/i.test(m.text)).map((m) => `console: ${m.text}`);
  return [...errs, ...rec.pageErrors.map((e) => `pageerror: ${e}`)].filter((p) => !allow.some((a) => a.test(p)));
}

/** Requests that went anywhere but the service's own origin. */
export function foreignRequests(rec: Recorded, origin: string): string[] {
  return rec.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
}

/**
 * What every page of every flow must satisfy: no script error, no console error (a CSP violation
 * is one), no request to another origin, and the security headers on every document.
 */
export function assertCleanRun(rec: Recorded, origin: string, allow: RegExp[] = []): void {
  assert.deepEqual(problems(rec, allow), []);
  assert.deepEqual(foreignRequests(rec, origin), []);
  assert.ok(rec.documents.length > 0);
  for (const d of rec.documents) {
    assert.equal(d.headers['content-security-policy'], CHECKOUT_CSP, d.url);
    assert.equal(d.headers['x-frame-options'], 'DENY');
    assert.equal(d.headers['x-content-type-options'], 'nosniff');
    assert.equal(d.headers['referrer-policy'], 'no-referrer');
    assert.equal(d.headers['cache-control'], 'no-store');
  }
}

export async function screenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const png = await page.screenshot({ fullPage: true });
  writeFileSync(join(ARTIFACTS, `${name}.png`), png);
  return png;
}

/** Decodes the QR code shown on the page from a screenshot of it; returns its raw bytes. */
export async function decodeQr(page: Page, name: string): Promise<Buffer> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const shot = await page.locator('.qr svg').screenshot();
  writeFileSync(join(ARTIFACTS, `${name}.png`), shot);
  const png = PNG.sync.read(shot);
  const qr = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  if (!qr) throw new Error(`no QR code found in ${name}.png`);
  return Buffer.from(qr.binaryData);
}

export const PAYER = { name: 'Asha Rao', email: 'asha@example.in', phone: '9876543210' };

/** Fills the details form like a person would (clicks and typing) and submits it. */
export async function fillDetails(page: Page, p = PAYER): Promise<void> {
  await page.getByLabel('Full name').fill(p.name);
  await page.getByLabel('Email').fill(p.email);
  await page.getByLabel('Mobile number').fill(p.phone);
  await page.getByLabel(/I agree to share/).check();
  await page.getByRole('button', { name: 'Continue to pay' }).click();
}

/** Waits until the server-rendered page shows the given status (the page reloads itself on a change). */
export async function waitForStatus(page: Page, status: string, timeoutMs = 10_000): Promise<void> {
  // A locator, not waitForFunction: the page's CSP (rightly) forbids the eval the latter uses.
  await page.locator(`body[data-status="${status}"]`).waitFor({ state: 'attached', timeout: timeoutMs });
}

export async function newCheckoutOrder(t: TestService, client: TestClient, extra: Record<string, unknown> = {}): Promise<any> {
  return createOrder(t, client, { amount_paise: 149_950, purpose: 'Order #2041 — 2 notebooks', merchant_order_reference: `INV-${key()}`, ...extra });
}

/** The intent as the provider issued it (the sandbox's copy) and as the service stored it. */
export async function issuedIntent(t: TestService, order: { id: string; order_id: string }): Promise<{ sandbox: string; stored: string }> {
  const res = await fetch(`${t.svc.sandboxUrl}/psp/collections/${order.order_id}`);
  const sandbox = ((await res.json()) as { upi_uri: string }).upi_uri;
  const stored = (await t.database.db.query<{ upi_uri: string }>('SELECT upi_uri FROM payment_orders WHERE id = $1', [order.id])).rows[0]!.upi_uri;
  return { sandbox, stored };
}

export async function orderStatus(t: TestService, id: string): Promise<string> {
  return (await t.database.db.query<{ status: string }>('SELECT status FROM payment_orders WHERE id = $1', [id])).rows[0]!.status;
}

export async function waitForOrderStatus(t: TestService, id: string, status: string): Promise<void> {
  await waitFor(async () => (await orderStatus(t, id)) === status, 10_000);
}

export interface BrowserWorld {
  t: TestService;
  client: TestClient;
  browser: Browser;
  /** The service's public origin: the only one a checkout page may talk to. */
  origin: string;
}

/** A service, a merchant client and a Chromium for the enclosing describe block (its before/after). */
export function browserWorld(): BrowserWorld {
  const w = {} as BrowserWorld;
  before(async () => {
    [w.t, w.browser] = await Promise.all([startTestService(), launchBrowser()]);
    w.client = await w.t.createClient({ orgId: await w.t.createOrg('Chai & Books Pvt Ltd') });
    w.origin = new URL(w.t.svc.publicUrl).origin;
  });
  after(async () => {
    await w.browser?.close();
    await w.t?.stop();
  });
  return w;
}
