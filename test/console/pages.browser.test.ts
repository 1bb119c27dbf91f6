/**
 * The Overview, Beneficiaries, Payout routes and API client edit pages in a real browser
 * (issue #19): figures in rupees with Indian grouping and the daily charts drawn, beneficiaries
 * masked and searched, routes listed, a developer edits a client's scopes, allow list (per-line
 * errors first) and rate limit, a viewer sees no edit control and is refused by the API; another
 * organization's rows never shown; axe-core finds no serious or critical violation; screenshots
 * at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary, payoutBody } from '../payout/helpers.js';
import { runTijori } from '../support/cli.js';
import { signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import type { TestClient, TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, navLink, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let a: TestClient;
let b: TestClient;

describe('console overview, beneficiaries, payout routes and client edit in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV));
    a = await ts.createClient({});
    b = await ts.createClient({});
    assert.equal((await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS', 'NEFT'], name: 'Current account 0042' })).status, 201);
    assert.equal((await ts.admin('POST', '/routes', { org: b.orgId, modes: ['IMPS'], name: 'Other org route' })).status, 201);
    const paid = await createOrder(ts, a, intentBody({ amount_paise: 12_345_600 }));
    await createOrder(ts, a, intentBody({ amount_paise: 50_000 }));
    const pay = await runTijori(ts, ['sandbox', 'pay', paid.order_id, '--utr', '998877665544', '--json']);
    assert.equal(pay.code, 0, pay.stderr);
    for (const [client, ben] of [
      [a, { name: 'Ravi Traders', account_number: '50100012345678', ifsc: 'HDFC0000001' }],
      [a, { name: 'Meena Kumari', account_number: '000111222333', ifsc: 'SBIN0000001' }],
      [b, { name: 'Other Org Payee', account_number: '444455556666', ifsc: 'HDFC0000001' }],
    ] as const) {
      const r = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(250_000, { beneficiary: inlineBeneficiary(ben) }) });
      assert.equal(r.status, 201, r.text);
    }
    await signedInUser(ts, a.orgId, 'dev@asha.example', 'developer');
    const viewer = await signedInUser(ts, a.orgId, 'viewer@asha.example', 'viewer');
    await poll(
      async () => {
        const o = (await viewer.call('GET', '/overview')).body.data;
        return (o?.payouts.today.succeeded === 2 && o?.collections.today.succeeded === 1) || undefined;
      },
      { what: 'payouts credited and the order paid', timeoutMs: 20_000, stepMs: 200 },
    );
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  test('a developer: overview charts, beneficiaries, payout routes, and edits an API client', async () => {
    for (const [i, width] of WIDTHS.entries()) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'dev@asha.example');
        // The first page after sign-in is the Overview.
        await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
        const collections = page.getByRole('region', { name: 'Collections' });
        await collections.locator('.chart canvas').first().waitFor();
        const c = await collections.innerText();
        // Net first (issue #32 item 6): no refund yet, so net and gross agree.
        assert.match(c, /Today[\s\S]*Count\s*2[\s\S]*Net \(collected − refunds\)\s*₹1,23,456\.00[\s\S]*Collected \(gross\)\s*₹1,23,456\.00[\s\S]*Refunded\s*₹0\.00[\s\S]*Success rate\s*100%/);
        const p = await page.getByRole('region', { name: 'Payouts' }).innerText();
        assert.match(p, /Count\s*2[\s\S]*Paid out\s*₹5,000\.00/);
        // Chromium names the zone by its older alias; PostgreSQL knows both.
        assert.match(await page.locator('main').innerText(), /in Asia\/(Kolkata|Calcutta) \(IST\)/);
        assert.match((await collections.getByRole('img').getAttribute('aria-label')) ?? '', /₹1,23,456\.00/);
        await page.getByRole('region', { name: 'Payouts' }).locator('.chart canvas').first().waitFor();
        await a11y(page, 'overview');
        await shot(page, `overview-${width}`);

        await navLink(page, 'Beneficiaries').click();
        const rows = page.locator('main table tbody tr');
        await rows.first().waitFor();
        assert.equal(await rows.count(), 2);
        const text = await page.locator('main').innerText();
        assert.match(text, /Meena Kumari[\s\S]*••2333[\s\S]*SBIN0000001[\s\S]*State Bank of India/);
        assert.match(text, /Ravi Traders[\s\S]*••5678[\s\S]*HDFC0000001[\s\S]*HDFC Bank/);
        assert.ok(text.includes(a.clientId), 'the API client that saved them');
        assert.ok(!(await page.content()).includes('50100012345678'), 'never the full account number');
        assert.ok(!text.includes('Other Org Payee'));
        await a11y(page, 'beneficiaries');
        await shot(page, `beneficiaries-${width}`);
        await page.getByLabel('Search').fill('5678');
        await page.getByRole('button', { name: 'Apply' }).click();
        await poll(async () => (await rows.count()) === 1 || undefined, { what: 'one beneficiary', timeoutMs: 10_000, stepMs: 100 });
        assert.match(await rows.first().innerText(), /Ravi Traders/);

        await navLink(page, 'Payout routes').click();
        await page.getByRole('cell', { name: /Current account 0042/ }).waitFor();
        const routes = await page.locator('main table').innerText();
        assert.match(routes, /Current account 0042 \(default\)\s+IMPS, NEFT\s+sandbox\s+active/);
        assert.ok(!routes.includes('Other org route'));
        await a11y(page, 'payout routes');
        await shot(page, `payout-routes-${width}`);

        await navLink(page, 'API clients').click();
        await page.getByRole('button', { name: `Edit ${a.clientId}` }).click();
        const form = page.getByRole('form', { name: `Edit ${a.clientId}` });
        await form.getByRole('checkbox', { name: 'payouts:write' }).uncheck();
        await form.getByLabel('IP allow list').fill('10.0.0.0/8\n\n10.1.2.3/8\nexample.com');
        await form.getByLabel('Rate limit (requests per minute)').fill(String(120 + i));
        await form.getByRole('button', { name: 'Save changes' }).click();
        const errors = form.locator('ul.error');
        await errors.waitFor();
        assert.equal(await errors.innerText(), 'Line 3: "10.1.2.3/8" has host bits set: the range is 10.0.0.0/8\nLine 4: "example.com" is not an IPv4 or IPv6 address or CIDR range');
        assert.equal(await form.getByLabel('IP allow list').getAttribute('aria-invalid'), 'true');
        await a11y(page, 'client edit with errors');
        await shot(page, `api-client-edit-errors-${width}`);
        await form.getByLabel('IP allow list').fill('10.0.0.0/8\n2001:DB8::/32');
        await form.getByRole('button', { name: 'Save changes' }).click();
        await form.waitFor({ state: 'detached' });
        const row = page.getByRole('row', { name: new RegExp(a.clientId) });
        await row.getByText(`${120 + i}/min`).waitFor();
        const saved = await row.innerText();
        assert.match(saved, /10\.0\.0\.0\/8, 2001:db8::\/32/);
        assert.ok(!saved.includes('payouts:write'));
        await a11y(page, 'api clients after the edit');
        if (width === 1280) await shot(page, 'api-clients-edited-1280');
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
    const log = await (await signedInUser(ts, a.orgId, 'auditor@asha.example', 'viewer')).call('GET', '/audit-log?action=api_client.updated');
    assert.equal(log.body.data.length, 2, 'one entry per saved edit');
    assert.equal(log.body.data[0].actor, 'dev@asha.example');
  });

  test('a viewer: the pages, no edit control, and the API refuses the edit (403)', async () => {
    const rec = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    const { page } = rec;
    try {
      await signIn(page, ts, 'viewer@asha.example');
      await page.getByRole('region', { name: 'Collections' }).waitFor();
      await navLink(page, 'API clients').click();
      await page.getByText('Your role can see API clients but not change them.').waitFor();
      assert.equal(await page.getByRole('button', { name: /^Edit / }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Save changes' }).count(), 0);
      const answer = (await page.evaluate(`(async () => {
        const s = await (await fetch('/console/api/session')).json();
        const r = await fetch('/console/api/api-clients/${a.clientId}', { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': s.data.csrf_token }, body: JSON.stringify({ rate_limit_per_minute: 1 }) });
        return { status: r.status, code: (await r.json()).error.code };
      })()`)) as unknown;
      assert.deepEqual(answer, { status: 403, code: 'API_SCOPE_DENIED' });
      await navLink(page, 'Beneficiaries').click();
      await page.locator('main table tbody tr').first().waitFor();
      await a11y(page, 'beneficiaries (viewer)');
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });
});
