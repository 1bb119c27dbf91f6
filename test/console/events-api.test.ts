/**
 * The console's event log and destination controls (issue #21 item 4, #19 item 2) against the real
 * service and PostgreSQL: a developer lists, replays, sends a test event, edits event types and
 * re-enables; a viewer reads but every change is 403; a change without the CSRF token is 403;
 * another organization's event is not found; the disabled-destination notice.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { startTestService, type TestService } from '../support/service.js';
import { emit } from '../callbacks/helpers.js';

let ts: TestService;
let org: string;
let otherOrg: string;
let dev: ConsoleCaller;
let viewer: ConsoleCaller;
let other: ConsoleCaller;

before(async () => {
  ts = await startTestService({ RUN_WORKERS: 'false' });
  org = await ts.createOrg();
  otherOrg = await ts.createOrg();
  for (const o of [org, otherOrg]) {
    assert.equal((await ts.admin('PUT', `/orgs/${o}/destinations/payin`, { url: 'https://merchant.example.com/payin' })).status, 201);
  }
  dev = await signedInUser(ts, org, 'dev@example.com', 'developer');
  viewer = await signedInUser(ts, org, 'viewer@example.com', 'viewer');
  other = await signedInUser(ts, otherOrg, 'dev@other.example.com', 'developer');
});
after(async () => {
  await ts.stop();
});

async function audit(action: string): Promise<Array<{ actor: string }>> {
  return (await ts.svc.ctx.db.query('SELECT actor FROM console_audit_log WHERE org_id = $1 AND action = $2', [org, action])).rows as any;
}

test('a developer lists events, sees one with its body and deliveries, and replays it (audited with their email)', async () => {
  const ev = await emit(ts, { orgId: org, kind: 'collection.received' });
  const list = await dev.call('GET', '/events?type=collection.received');
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data[0].event_id, ev.id);
  const one = await dev.call('GET', `/events/${ev.id}`);
  assert.equal(one.body.data.body, ev.body);
  assert.deepEqual(one.body.data.deliveries.map((d: any) => d.target), ['payin']);
  const r = await dev.call('POST', `/events/${ev.id}/replay`, {});
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.requeued, 1);
  assert.deepEqual((await audit('event.replayed')).map((a) => a.actor), ['dev@example.com']);

  const bad = await dev.call('GET', '/events?delivery=lost');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.details[0].field, 'delivery');
});

test('another organization: its events never listed, its event not found for replay or reading', async () => {
  const ev = await emit(ts, { orgId: org, kind: 'collection.received' });
  const list = await other.call('GET', '/events');
  assert.ok(!list.body.data.some((e: any) => e.event_id === ev.id));
  assert.equal((await other.call('GET', `/events/${ev.id}`)).status, 404);
  assert.equal((await other.call('POST', `/events/${ev.id}/replay`, {})).status, 404);
});

test('test event, event types, delivery log: developer allowed; viewer 403 on every change; no CSRF token 403', async () => {
  const changes: Array<[string, string, unknown]> = [
    ['POST', '/destinations/payin/test', undefined],
    ['PUT', '/destinations/payin/events', { events: ['collection.received', 'collection.failed'] }],
    ['POST', '/destinations/payin/enable', undefined],
    ['POST', '/events/replay-failed', { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() }],
  ];
  const ev = await emit(ts, { orgId: org, kind: 'collection.received' });
  changes.push(['POST', `/events/${ev.id}/replay`, {}]);
  for (const [method, path, body] of changes) {
    const r = await viewer.call(method, path, body);
    assert.equal(r.status, 403, `viewer ${method} ${path}: ${r.text}`);
    const noCsrf = await dev.call(method, path, body, { csrf: null });
    assert.equal(noCsrf.status, 403, `no CSRF ${method} ${path}`);
  }
  assert.equal((await audit('destination.test_sent')).length, 0, 'nothing changed');

  const sent = await dev.call('POST', '/destinations/payin/test');
  assert.equal(sent.status, 200, sent.text);
  assert.equal(sent.body.data.type, 'test');
  const set = await dev.call('PUT', '/destinations/payin/events', { events: ['collection.received', 'collection.failed'] });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body.data.events, ['collection.received', 'collection.failed']);
  assert.deepEqual((await audit('destination.events_changed')).map((a) => a.actor), ['dev@example.com']);
  const wrong = await dev.call('PUT', '/destinations/payin/events', { events: ['payout.success'] });
  assert.equal(wrong.status, 422);

  // The viewer reads the destination (with its event types) and its delivery log.
  const dests = await viewer.call('GET', '/destinations');
  assert.deepEqual(dests.body.data[0].events, ['collection.received', 'collection.failed']);
  const log = await viewer.call('GET', '/destinations/payin/deliveries');
  assert.equal(log.status, 200, log.text);
  assert.equal(log.body.data[0].event_id, sent.body.data.event_id, 'newest first: the test event');
  assert.equal(log.body.data[0].event, 'test');
});

test('a disabled destination is a notice until re-enabled from the console (audited)', async () => {
  await ts.svc.ctx.db.query("UPDATE callback_destinations SET status = 'disabled', disabled_at = now() WHERE org_id = $1 AND kind = 'payin'", [org]);
  const n = await viewer.call('GET', '/notices');
  assert.deepEqual(n.body.data.disabled_destinations.map((d: any) => d.kind), ['payin']);
  assert.deepEqual((await other.call('GET', '/notices')).body.data.disabled_destinations, [], 'only its own organization');
  const on = await dev.call('POST', '/destinations/payin/enable');
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.data.status, 'enabled');
  assert.deepEqual((await viewer.call('GET', '/notices')).body.data.disabled_destinations, []);
  assert.deepEqual((await audit('destination.enabled')).map((a) => a.actor), ['dev@example.com']);
});
