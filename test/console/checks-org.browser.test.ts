/**
 * An order's provider checks, a payout's inquiries, the Organization page and an API client's
 * rename in a real browser (issue #19), at 390 and 1280 px: an admin sees the live checks of an
 * order paid only by a status check (answer, UTR, amount in Indian grouping, outcome), the
 * inquiries of a payout the bank holds (answer, mapped status, bank reference), renames the
 * organization and changes its refund review (the header follows), renames an API client; a viewer
 * reads the Organization page with its members but has no control and is refused by the API;
 * axe-core finds no serious or critical violation; screenshots kept.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { RunningTestClock } from '../../src/clock.js';
import { createOrder, intentBody, sandboxPay } from '../refunds/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import type { TestClient, TestService } from '../support/service.js';
import { a11y, assertCleanConsoleRun, navLink, openPage, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser, WIDTHS } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let a: TestClient;
const clock = new RunningTestClock();
let order: any;
let held: any;

describe('provider checks, inquiries, organization settings and client rename in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    ({ ts, browser } = await startConsoleAndBrowser(FAST_PAYOUT_ENV, { clock }));
    a = await ts.createClient({});
    assert.equal((await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS'] })).status, 201);
    await signedInUser(ts, a.orgId, 'admin@asha.example', 'admin');
    const viewer = await signedInUser(ts, a.orgId, 'viewer@asha.example', 'viewer');
    // Paid at the sandbox without a callback: the second live check finds it.
    order = await createOrder(ts, a, intentBody({ amount_paise: 1_23_456_78 }));
    assert.equal((await ts.api('GET', `/merchant/payment-orders/${order.id}`, { client: a })).status, 200);
    await sandboxPay(ts, order.order_id, { callback: false, utr: '246813579135' });
    // Past the live check's 2 s gate on the service's clock (which otherwise runs with real time).
    clock.advance(2_000);
    assert.equal((await ts.api('GET', `/merchant/payment-orders/${order.id}`, { client: a })).body.data.status, 'PAID');
    // Ends in 77: the bank holds it as pending; the worker inquires.
    const r = await ts.api('POST', '/merchant/payouts', { client: a, idempotencyKey: randomUUID(), body: payoutBody(250_077) });
    assert.equal(r.status, 201, r.text);
    held = r.body.data;
    await poll(async () => ((await viewer.call('GET', `/payouts/${held.id}/inquiries`)).body.data?.checks.length >= 2 ? true : undefined), {
      what: 'two inquiries',
      timeoutMs: 20_000,
      stepMs: 100,
    });
  });
  after(() => stopConsoleAndBrowser(ts, browser));

  /** The rows of the table with this column (each page has several tables). */
  const rowsOf = (page: Page, column: string) => page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: column, exact: true }) }).locator('tbody tr');

  test('an admin: provider checks, inquiries, organization settings, client rename', async () => {
    // Refund review off is the operator's (issue #29 item 4): the console may only turn it back on.
    assert.equal((await ts.admin('POST', `/orgs/${a.orgId}/settings`, { refund_review: 'none' })).status, 200);
    for (const [i, width] of WIDTHS.entries()) {
      const rec = await openPage(browser, width, { timezoneId: 'Asia/Kolkata' });
      const { page } = rec;
      try {
        await signIn(page, ts, 'admin@asha.example');

        await navLink(page, 'Payment orders').click();
        await page.getByRole('link', { name: order.order_id }).click();
        await page.getByRole('heading', { name: 'Provider checks', level: 2 }).waitFor();
        const checks = rowsOf(page, 'Amount reported');
        await poll(async () => ((await checks.count()) === 2 ? true : undefined), { what: 'two provider checks', timeoutMs: 10_000, stepMs: 100 });
        assert.match(await checks.nth(0).innerText(), /live check[\s\S]*sandbox: status of[\s\S]*PENDING[\s\S]*unchanged/);
        assert.match(await checks.nth(1).innerText(), /live check[\s\S]*SUCCESS[\s\S]*246813579135[\s\S]*₹1,23,456\.78[\s\S]*paid/);
        assert.match((await checks.nth(1).locator('time').getAttribute('title')) ?? '', / UTC$/);
        await a11y(page, 'order with provider checks');
        await shot(page, `order-provider-checks-${width}`);

        await navLink(page, 'Payouts').click();
        await page.getByRole('link', { name: held.transaction_id }).click();
        await page.getByRole('heading', { name: 'Inquiries', level: 2 }).waitFor();
        const inquiries = rowsOf(page, 'Maps to');
        await inquiries.first().waitFor();
        assert.ok((await inquiries.count()) >= 2);
        const bankRef = (await ts.database.db.query<{ bank_reference: string }>('SELECT bank_reference FROM payout_attempts WHERE payout_id = $1', [held.id])).rows[0]!.bank_reference;
        assert.ok(bankRef);
        // When, Attempt, Answer, Maps to, Bank reference, UTR, Outcome, Time taken.
        const cells = await inquiries.first().locator('td').allInnerTexts();
        assert.deepEqual(cells.slice(1, 6), ['1', 'PENDING', 'PROCESSING', bankRef, '—'], cells.join(' | '));
        assert.match(cells[7] ?? '', /^\d+ ms$/);
        await a11y(page, 'payout with inquiries');
        await shot(page, `payout-inquiries-${width}`);

        await navLink(page, 'Organization').click();
        const name = `Asha Traders ${width}`;
        await page.getByLabel('Organization name').fill(name);
        if (i === 0) await page.getByLabel('Refund review').selectOption('required');
        else assert.equal(await page.getByRole('option', { name: 'None' }).isDisabled(), true, 'an admin cannot turn refund review off');
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
        await page.locator('header .org').filter({ hasText: name }).waitFor();
        const members = await page.getByRole('region', { name: 'Members' }).last().innerText();
        assert.match(members, /admin@asha\.example\s+admin\s+active/);
        assert.match(members, /viewer@asha\.example\s+viewer\s+active/);
        await a11y(page, 'organization');
        await shot(page, `organization-${width}`);

        await navLink(page, 'API clients').click();
        await page.getByRole('button', { name: `Edit ${a.clientId}` }).click();
        const form = page.getByRole('form', { name: `Edit ${a.clientId}` });
        await form.getByLabel('Client name').fill(`billing server ${width}`);
        await form.getByRole('button', { name: 'Save changes' }).click();
        await form.waitFor({ state: 'detached' });
        await page.getByRole('row', { name: new RegExp(a.clientId) }).getByText(`billing server ${width}`).waitFor();
        await a11y(page, 'api clients after the rename');
        await shot(page, `api-client-renamed-${width}`);
        assertCleanConsoleRun(rec, ts.svc.publicUrl);
      } finally {
        await rec.close();
      }
    }
    const auditor = await signedInUser(ts, a.orgId, 'auditor@asha.example', 'viewer');
    const org = (await auditor.call('GET', '/audit-log?action=organization.updated')).body.data;
    assert.equal(org.length, 2, 'one entry per save');
    assert.deepEqual([org[0].after, org[1].after], [{ name: 'Asha Traders 1280' }, { name: 'Asha Traders 390', refund_review: 'required' }]);
    const clients = (await auditor.call('GET', '/audit-log?action=api_client.updated')).body.data;
    assert.deepEqual(clients.map((e: any) => e.after.name), ['billing server 1280', 'billing server 390']);
  });

  test('a viewer: the Organization page without controls, and the API refuses a change (403)', async () => {
    const rec = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    const { page } = rec;
    try {
      await signIn(page, ts, 'viewer@asha.example');
      await navLink(page, 'Organization').click();
      await page.getByRole('region', { name: 'Members' }).last().getByText('admin@asha.example').waitFor();
      // The settings come in an answer of their own, which may arrive after the members'.
      await page.locator('main').getByText('Asha Traders 1280', { exact: true }).waitFor();
      const main = await page.locator('main').innerText();
      assert.match(main, /Organization name\s+Asha Traders 1280/);
      assert.match(main, /Admins manage them on the Users page/);
      assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);
      assert.equal(await page.getByRole('textbox', { name: 'Organization name' }).count(), 0);
      const answer = (await page.evaluate(`(async () => {
        const s = await (await fetch('/console/api/session')).json();
        const r = await fetch('/console/api/organization', { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': s.data.csrf_token }, body: JSON.stringify({ name: 'Viewer was here' }) });
        return { status: r.status, code: (await r.json()).error.code };
      })()`)) as unknown;
      assert.deepEqual(answer, { status: 403, code: 'API_SCOPE_DENIED' });
      await a11y(page, 'organization (viewer)');
      await shot(page, 'organization-viewer-1280');
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });
});
