/**
 * Browser harness of the console tests: the console app built once (as `npm run build` does),
 * Debian's chromium through the checkout tests' launcher, axe-core injected over the DevTools
 * protocol (not as a page script, so the console's CSP stays as strict as in production), and
 * screenshots kept under test-artifacts/console.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CONSOLE_CSP } from '../../src/http/public/console/static.js';
import { foreignRequests, problems, type Recorded } from '../checkout/support.js';

export { launchBrowser, openPage, SKIP_NO_BROWSER } from '../checkout/support.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');
export const WIDTHS = [390, 1280] as const;

export async function buildConsoleApp(): Promise<void> {
  // @ts-expect-error: a plain ES module script without type declarations
  const { buildConsole } = (await import('../../scripts/build-console.mjs')) as { buildConsole(root: string): Promise<unknown> };
  await buildConsole(process.cwd());
}

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
