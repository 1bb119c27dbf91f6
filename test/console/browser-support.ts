/**
 * Browser harness of the console tests: the console app built once (as `npm run build` does),
 * Debian's chromium through the checkout tests' launcher, a user signed in through the sign-in
 * page, axe-core injected over the DevTools protocol (not as a page script, so the console's CSP
 * stays as strict as in production), and screenshots kept under test-artifacts/console.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Clock } from '../../src/clock.js';
import { CONSOLE_CSP } from '../../src/http/public/console/static.js';
import { foreignRequests, launchBrowser, problems, type Recorded } from '../checkout/support.js';
import { GOOD_PASSWORD } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';

export { launchBrowser, openPage, SKIP_NO_BROWSER } from '../checkout/support.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');
export const WIDTHS = [390, 1280] as const;

export async function buildConsoleApp(): Promise<void> {
  // @ts-expect-error: a plain ES module script without type declarations
  const { buildConsole } = (await import('../../scripts/build-console.mjs')) as { buildConsole(root: string): Promise<unknown> };
  await buildConsole(process.cwd());
}

/** The console built, then the service (with `env`) started while chromium launches: a test file's `before`. */
export async function startConsoleAndBrowser(env: Record<string, string> = {}, opts: { clock?: Clock } = {}): Promise<{ ts: TestService; browser: Browser }> {
  await buildConsoleApp();
  const [ts, browser] = await Promise.all([startTestService(env, opts.clock ? { clock: opts.clock } : {}), launchBrowser()]);
  return { ts, browser };
}

/** A test file's `after`: either may be missing when its `before` failed part way. */
export async function stopConsoleAndBrowser(ts: TestService | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await ts?.stop();
}

/**
 * Fills and submits the sign-in form of `ts`'s console, as a person would. Raises the page's
 * timeout first: the password hash (scrypt) is slow on a loaded machine, and so is all that follows.
 */
export async function submitSignIn(page: Page, ts: TestService, email: string, password = GOOD_PASSWORD): Promise<void> {
  page.context().setDefaultTimeout(30_000);
  await page.goto(`${ts.svc.publicUrl}/console/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs `email` in (no second factor) and waits for the signed-in layout. */
export async function signIn(page: Page, ts: TestService, email: string): Promise<void> {
  await submitSignIn(page, ts, email);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A link of the console's navigation, by its exact name. */
export const navLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core on the page as it is now; answers the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Fails, naming the page, when axe-core finds a serious or critical violation. */
export async function a11y(page: Page, name: string): Promise<void> {
  assert.deepEqual(await seriousA11yViolations(page), [], name);
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.png`), await page.screenshot({ fullPage: true }));
}

/** No script error, no CSP violation, nothing fetched from another origin, the console's headers on every document. */
export function assertCleanConsoleRun(rec: Recorded, origin: string): void {
  assert.deepEqual(
    problems(rec, [/status of (40[134]|422)/]), // answers the test provokes
    [],
  );
  assert.deepEqual(foreignRequests(rec, origin), []);
  for (const d of rec.documents) {
    assert.equal(d.headers['content-security-policy'], CONSOLE_CSP, d.url);
    assert.equal(d.headers['x-frame-options'], 'DENY');
  }
}

export const NAV_LINKS = [
  'Overview',
  'Payment orders',
  'Payouts',
  'Refunds',
  'Review queue',
  'Bulk payouts',
  'Beneficiaries',
  'API clients',
  'Callback destinations',
  'Payout routes',
  'Users',
  'Audit log',
];
