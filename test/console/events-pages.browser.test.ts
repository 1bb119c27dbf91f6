/**
 * The "Callback destinations" and "Events" pages in a real browser (Debian chromium +
 * playwright-core) against a real HTTPS receiver: a developer subscribes to an opt-in type, sends a
 * test event and sees its attempt (status code, answer excerpt) in the delivery log, replays it
 * (the receiver gets the same bytes again), finds it on the Events page, and re-enables a disabled
 * destination after the banner told them; a viewer gets no change controls. axe-core clean,
 * screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DISABLE_FAILING_AFTER_MS } from '../../src/services/callbacks/destinations.js';
import { signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import type { TestService } from '../support/service.js';
import { startTrustedReceiver, type TrustedReceiver } from '../callbacks/helpers.js';
import { assertCleanConsoleRun, openPage, seriousA11yViolations, shot, signIn, SKIP_NO_BROWSER, startConsoleAndBrowser, stopConsoleAndBrowser } from './browser-support.js';

let ts: TestService;
let browser: Browser;
let r: TrustedReceiver;
let org: string;

describe('callback destinations and events pages in a browser', { skip: SKIP_NO_BROWSER }, () => {
  before(async () => {
    r = await startTrustedReceiver();
    ({ ts, browser } = await startConsoleAndBrowser(r.env));
    org = await ts.createOrg('Asha Traders');
    const d = await ts.admin<any>('PUT', `/orgs/${org}/destinations/payin`, { url: r.rx.url('/payin') });
    assert.equal(d.status, 201, d.text);
    r.secrets['/payin'] = d.body.data.signing_secret;
    r.rx.setResponder((q) => (q.verification?.ok ? { status: 200, body: 'thanks from the merchant' } : 401));
    await signedInUser(ts, org, 'dev@asha.example', 'developer');
    await signedInUser(ts, org, 'vijay@asha.example', 'viewer');
  });
  after(async () => {
    await stopConsoleAndBrowser(ts, browser);
    await r?.close();
  });

  const testRequests = () => r.rx.received.filter((q) => q.path === '/payin' && JSON.parse(q.rawBody.toString('utf8')).event === 'test');

  test('a developer: event types, test event, delivery log, replay, Events page, banner and re-enable', async () => {
    const rec = await openPage(browser, 1280, { timezoneId: 'Asia/Kolkata' });
    const { page } = rec;
    try {
      await signIn(page, ts, 'dev@asha.example');
      await page.getByRole('navigation').getByRole('link', { name: 'Callback destinations', exact: true }).click();
      await page.getByRole('heading', { name: 'Callback destinations' }).waitFor();

      // Subscribe to collection.failed (opt-in).
      const types = page.getByRole('group', { name: 'PayIn event types' });
      assert.equal(await types.getByRole('checkbox', { name: 'collection.received' }).isChecked(), true, 'default types checked');
      assert.equal(await types.getByRole('checkbox', { name: 'collection.failed' }).isChecked(), false);
      await types.getByRole('checkbox', { name: 'collection.failed' }).check();
      await page.getByRole('button', { name: 'Save PayIn event types' }).click();
      await page.getByRole('status').filter({ hasText: 'PayIn event types saved' }).first().waitFor();
      const events = (await ts.svc.ctx.db.query("SELECT events FROM callback_destinations WHERE org_id = $1 AND kind = 'payin'", [org])).rows[0]!.events;
      assert.ok(events.includes('collection.failed'));

      // Send a test event: it arrives signed; the delivery log shows the attempt.
      await page.getByRole('button', { name: 'Send a test event to PayIn' }).click();
      await page.getByRole('status').filter({ hasText: 'Test event' }).first().waitFor();
      await r.rx.waitForRequests(1);
      const [first] = testRequests();
      assert.ok(first, 'the receiver got the test event');
      assert.equal(first.verification?.ok, true, 'signed with the destination secret');
      const eventId = JSON.parse(first.rawBody.toString('utf8')).event_id as string;
      const log = page.getByRole('region', { name: 'PayIn delivery log' });
      const attemptRow = log.getByRole('row').filter({ hasText: 'thanks from the merchant' });
      for (let i = 0; i < 50 && (await attemptRow.count()) === 0; i++) {
        await page.getByRole('button', { name: 'Refresh PayIn delivery log' }).click();
        await page.waitForTimeout(200);
      }
      const rowText = await attemptRow.first().innerText();
      assert.match(rowText, /200/);
      assert.match(rowText, /\d+ ms/);
      assert.match(await log.innerText(), new RegExp(eventId));
      assert.deepEqual(await seriousA11yViolations(page), [], 'destinations page');
      await shot(page, 'destinations-events-1280');
      // The delivery log is not clipped at 1280 px (issue #32 item 3): nothing to scroll sideways, the Replay column on screen.
      const logRegion = page.getByRole('region', { name: 'PayIn delivery attempts' });
      assert.equal(await logRegion.evaluate((el) => el.scrollWidth <= el.clientWidth), true, 'the delivery log fits');
      const replayBox = await logRegion.getByRole('button', { name: /^Replay/ }).first().boundingBox();
      assert.ok(replayBox && replayBox.x + replayBox.width <= 1280, `Replay at x=${replayBox?.x}`);

      // Replay it: the receiver gets the very same bytes again.
      await page.getByRole('button', { name: `Replay test ${eventId} to the PayIn destination` }).click();
      await page.getByRole('status').filter({ hasText: 'Replayed' }).first().waitFor();
      await r.rx.waitForRequests(2);
      const all = testRequests();
      assert.equal(all.length, 2);
      assert.ok(all[1]!.rawBody.equals(all[0]!.rawBody), 'replay body is byte-identical');

      // The Events page: filtered by type, its body and deliveries.
      await page.getByRole('navigation').getByRole('link', { name: 'Events', exact: true }).click();
      await page.getByRole('heading', { name: 'Events' }).waitFor();
      await page.getByLabel('Event type').selectOption('test');
      await page.getByRole('button', { name: 'Filter' }).click();
      const evRow = page.getByRole('row').filter({ hasText: eventId });
      await evRow.waitFor();
      assert.match(await evRow.innerText(), /delivered/);
      await page.getByRole('button', { name: `Deliveries of event ${eventId}` }).click();
      const body = page.getByLabel(`Body of event ${eventId}`);
      await body.waitFor();
      assert.equal(await body.innerText(), all[0]!.rawBody.toString('utf8'));
      assert.deepEqual(await seriousA11yViolations(page), [], 'events page');
      await shot(page, 'events-1280');
      await page.getByRole('button', { name: `Replay event ${eventId}` }).click();
      await page.getByRole('status').filter({ hasText: 'Replayed' }).first().waitFor();
      await r.rx.waitForRequests(3);
      // The replay's success is written after the receiver answered; a success clears the failing
      // clock set below, so wait until no delivery of the organization is still pending.
      await poll(
        async () => (await ts.svc.ctx.db.query("SELECT count(*)::int AS n FROM callback_deliveries WHERE org_id = $1 AND status = 'pending'", [org])).rows[0]?.n === 0 || undefined,
        { what: 'the replayed delivery recorded', timeoutMs: 30_000, stepMs: 100 },
      );

      // A destination disabled after failing for 3 days: the banner on every signed-in page.
      await ts.svc.ctx.db.query("UPDATE callback_destinations SET failing_since = now() WHERE org_id = $1 AND kind = 'payin'", [org]);
      const off = await ts.svc.ctx.destinations.disableFailing(new Date(Date.now() + DISABLE_FAILING_AFTER_MS + 60_000));
      assert.ok(off.some((d) => d.org_id === org));
      await page.getByRole('navigation').getByRole('link', { name: 'Audit log', exact: true }).click();
      const banner = page.getByRole('alert').filter({ hasText: 'was disabled' });
      await banner.waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'page with the banner');
      await banner.getByRole('link', { name: 'Review and re-enable it' }).click();
      await page.getByRole('button', { name: 'Re-enable PayIn destination' }).click();
      await page.getByRole('status').filter({ hasText: 'PayIn destination enabled' }).first().waitFor();
      await page.getByRole('navigation').getByRole('link', { name: 'Events', exact: true }).click();
      await page.getByRole('heading', { name: 'Events' }).waitFor();
      await banner.waitFor({ state: 'detached' });
      assertCleanConsoleRun(rec, ts.svc.publicUrl);
    } finally {
      await rec.close();
    }
  });

  test('a viewer sees destinations, the delivery log and events, but no change controls (390 px)', async () => {
    const rec = await openPage(browser, 390);
    const { page } = rec;
    try {
      await signIn(page, ts, 'vijay@asha.example');
      await page.goto(`${ts.svc.publicUrl}/console/callback-destinations`);
      await page.getByRole('heading', { name: 'PayIn delivery log' }).waitFor();
      await page.getByRole('region', { name: 'PayIn delivery log' }).getByRole('row').nth(1).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Send a test event/ }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /^Replay/ }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /^Save PayIn event types/ }).count(), 0);
      assert.equal(await page.getByRole('checkbox', { name: 'collection.received' }).isDisabled(), true);
      assert.deepEqual(await seriousA11yViolations(page), [], 'destinations page, viewer');
      await shot(page, 'destinations-events-390');
      await page.getByRole('navigation').getByRole('link', { name: 'Events', exact: true }).click();
      await page.getByRole('row').nth(1).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Replay/ }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Replay failed deliveries' }).count(), 0);
      assert.deepEqual(await seriousA11yViolations(page), [], 'events page, viewer');
      await shot(page, 'events-390');
    } finally {
      await rec.close();
    }
  });
});
