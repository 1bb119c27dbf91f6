/**
 * Events a merchant chooses (contract §7, docs/callbacks.md) on real PostgreSQL: the subscription
 * filter, the opt-in collection.failed/expired/cancelled written in the transaction of the order's
 * move, replay that never changes an event's bytes, and a destination failing for three days
 * disabled (deliveries parked) and re-enabled (parked deliveries resumed) — with an injected clock,
 * no sleeps. Workers are off: the tests drive claims and attempts themselves.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { OPERATOR } from '../../src/services/console/audit.js';
import { DISABLE_FAILING_AFTER_MS } from '../../src/services/callbacks/destinations.js';
import { DEFAULT_EVENT_KINDS, OPT_IN_EVENT_KINDS, PAYOUT_REJECTED } from '../../src/services/callbacks/events.js';
import { lockOrder, transitionOrder } from '../../src/services/payin/payment-order-transitions.js';
import * as repo from '../../src/store/repos/callbacks-repo.js';
import { createOrder, intentBody } from '../payin/helpers.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { deliveryRows, emit } from './helpers.js';

let ts: TestService;
before(async () => {
  ts = await startTestService({ RUN_WORKERS: 'false' });
});
after(async () => {
  await ts.stop();
});

const URL_IN = 'https://merchant.example.com/hooks/payin';
const URL_OUT = 'https://merchant.example.com/hooks/payout';

async function orgWithDestinations(events?: { payin?: string[]; payout?: string[] }): Promise<string> {
  const org = await ts.createOrg();
  for (const [kind, url] of [['payin', URL_IN], ['payout', URL_OUT]] as const) {
    const chosen = events?.[kind];
    const r = await ts.admin('PUT', `/orgs/${org}/destinations/${kind}`, { url, ...(chosen ? { events: chosen } : {}) });
    assert.equal(r.status, 201, r.text);
  }
  return org;
}

async function auditOf(org: string, action: string): Promise<Array<{ actor: string; target_id: string | null; before: any; after: any }>> {
  const r = await ts.svc.ctx.db.query('SELECT actor, target_id, before, after FROM console_audit_log WHERE org_id = $1 AND action = $2 ORDER BY id', [org, action]);
  return r.rows as any;
}

/** Claims every due delivery (the worker's own claim) and records one attempt each with `ok` for those of `org`. */
async function attemptAll(org: string, ok: boolean): Promise<number> {
  const claimed = (await ts.svc.ctx.deliveries.claim(500)).filter((d) => d.org_id === org);
  if (claimed.length === 0) return 0;
  await repo.recordAttempts(
    ts.svc.ctx.db,
    claimed.map((d) => ({
      deliveryId: d.id,
      claimToken: d.claim_token,
      attemptNo: d.attempts + 1,
      url: d.url ?? '',
      statusCode: ok ? 200 : 503,
      latencyMs: 5,
      error: ok ? null : 'http_503',
      responseSnippet: ok ? 'ok' : 'down for maintenance',
      next: ok ? { status: 'delivered', delayMs: null } : { status: 'pending', delayMs: 0 },
    })),
  );
  return claimed.length;
}

describe('subscriptions', () => {
  test("a destination gets the API document's six by default; opt-in types only when it subscribes", async () => {
    const org = await orgWithDestinations();
    const listed = await ts.admin<any>('GET', `/orgs/${org}/destinations`);
    const payin = listed.body.data.destinations.find((d: any) => d.kind === 'payin');
    assert.deepEqual(payin.events, ['collection.received', 'collection.refund.requested', 'collection.refund.completed']);
    assert.deepEqual(payin.available_events, ['collection.received', 'collection.refund.requested', 'collection.refund.completed', 'collection.failed', 'collection.expired', 'collection.cancelled', 'settlement.created']);

    for (const kind of DEFAULT_EVENT_KINDS) assert.equal((await emit(ts, { orgId: org, kind })).deliveries, 1, kind);
    for (const kind of OPT_IN_EVENT_KINDS) assert.equal((await emit(ts, { orgId: org, kind })).deliveries, 0, `${kind} is opt-in`);

    // Subscribe PayIn to failures only (plus received); PayOut to rejections.
    const set = await ts.admin<any>('PUT', `/orgs/${org}/destinations/payin`, { url: URL_IN, events: ['collection.failed', 'collection.received'] });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.data.events, ['collection.received', 'collection.failed'], 'canonical order, deduplicated');
    assert.equal((await emit(ts, { orgId: org, kind: 'collection.failed' })).deliveries, 1);
    assert.equal((await emit(ts, { orgId: org, kind: 'collection.expired' })).deliveries, 0);
    assert.equal((await emit(ts, { orgId: org, kind: 'collection.refund.requested' })).deliveries, 0, 'unsubscribed from a default type');
    assert.equal((await ts.admin('PUT', `/orgs/${org}/destinations/payout`, { url: URL_OUT, events: [PAYOUT_REJECTED] })).status, 200);
    assert.equal((await emit(ts, { orgId: org, kind: PAYOUT_REJECTED })).deliveries, 1);
    assert.equal((await emit(ts, { orgId: org, kind: 'payout.success' })).deliveries, 0);

    // Setting the URL again without events keeps the choice.
    await ts.admin('PUT', `/orgs/${org}/destinations/payin`, { url: `${URL_IN}/v2` });
    assert.equal((await emit(ts, { orgId: org, kind: 'collection.failed' })).deliveries, 1);

    const audit = await auditOf(org, 'destination.events_changed');
    assert.equal(audit.length, 2);
    assert.equal(audit[0]!.actor, 'operator');
    assert.deepEqual(audit[0]!.after, { events: ['collection.received', 'collection.failed'] });
  });

  test('event types are checked against the destination kind: 422 with the field', async () => {
    const org = await orgWithDestinations();
    for (const events of [['payout.rejected'], ['collection.paid'], []]) {
      const r = await ts.admin<any>('PUT', `/orgs/${org}/destinations/payin`, { url: URL_IN, events });
      assert.equal(r.status, 422, JSON.stringify(events));
      assert.equal(r.body.error.details[0].field, 'events');
    }
  });
});

describe('collection.failed, .expired, .cancelled', () => {
  let client: TestClient;
  let org: string;
  before(async () => {
    client = await ts.createClient({});
    org = client.orgId;
    const r = await ts.admin('PUT', `/orgs/${org}/destinations/payin`, { url: URL_IN, events: ['collection.received', ...OPT_IN_EVENT_KINDS.filter((k) => k.startsWith('collection.'))] });
    assert.equal(r.status, 201, r.text);
  });

  async function eventsOf(orderPk: string): Promise<Array<{ id: string; kind: string; body: string }>> {
    return (await ts.svc.ctx.db.query('SELECT id, kind, body FROM events WHERE aggregate_id = $1 ORDER BY id', [orderPk])).rows as any;
  }

  test("a cancel writes collection.cancelled with the move, to the subscribed destination only (not the order's callback_url)", async () => {
    const o = await createOrder(ts, client, intentBody({ callback_url: 'https://merchant.example.com/order-hook', callback_secret: 'order-secret-0123456789abcdef-0123456789' }));
    const r = await ts.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client });
    assert.equal(r.status, 200, r.text);
    const [ev] = await eventsOf(o.id);
    assert.equal(ev?.kind, 'collection.cancelled');
    const body = JSON.parse(ev!.body);
    assert.equal(body.event, 'collection.cancelled');
    assert.equal(body.event_id, ev!.id);
    assert.deepEqual(Object.keys(body.data).sort(), ['amount_paise', 'closed_at', 'currency', 'failure_reason', 'livemode', 'merchant_order_reference', 'order_id', 'provider_status', 'status']);
    assert.equal(body.data.status, 'CANCELLED');
    assert.equal(body.data.order_id, o.order_id);
    assert.deepEqual((await deliveryRows(ts, ev!.id)).map((d) => d.target), ['payin'], "never the order's callback_url");
  });

  test('a provider failure writes collection.failed', async () => {
    const o = await createOrder(ts, client, intentBody());
    const fail = await runTijori(ts, ['sandbox', 'fail', o.order_id, '--json']);
    assert.equal(fail.code, 0, fail.stderr);
    // The sandbox's callback is processed by the provider-events worker, which is off here: apply it as the worker would.
    await ts.svc.ctx.db.tx(async (tx) => {
      const locked = await lockOrder(tx, o.id);
      await transitionOrder(tx, locked, 'FAILED', 'provider_failed', { changes: { provider_status: 'FAILED', failure_reason: 'declined by payer' } });
    });
    const evs = await eventsOf(o.id);
    assert.deepEqual(evs.map((e) => e.kind), ['collection.failed']);
    assert.equal(JSON.parse(evs[0]!.body).data.failure_reason, 'declined by payer');
  });

  test('the event exists exactly when the move does: a rolled-back expiry leaves neither', async () => {
    const o = await createOrder(ts, client, intentBody());
    await assert.rejects(
      ts.svc.ctx.db.tx(async (tx) => {
        const locked = await lockOrder(tx, o.id);
        await transitionOrder(tx, locked, 'EXPIRED', 'expired');
        assert.equal((await tx.query("SELECT count(*)::int AS n FROM events WHERE aggregate_id = $1 AND kind = 'collection.expired'", [o.id])).rows[0]!.n, 1, 'written in the same transaction');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await eventsOf(o.id), []);
    await ts.svc.ctx.db.tx(async (tx) => transitionOrder(tx, await lockOrder(tx, o.id), 'EXPIRED', 'expired'));
    assert.deepEqual((await eventsOf(o.id)).map((e) => e.kind), ['collection.expired']);
    const status = (await ts.svc.ctx.db.query('SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]!.status;
    assert.equal(status, 'EXPIRED');
  });
});

describe('replay', () => {
  test('replay of one event: same bytes, fresh schedule, earlier attempts kept, audited; another org is not found', async () => {
    const org = await orgWithDestinations();
    const ev = await emit(ts, { orgId: org, kind: 'collection.received' });
    assert.equal(await attemptAll(org, false), 1);
    await ts.svc.ctx.db.query("UPDATE callback_deliveries SET status = 'exhausted', schedule_step = 12 WHERE event_id = $1", [ev.id]);

    const r = await ts.svc.ctx.events.replay({ eventId: ev.id, orgId: org, actor: OPERATOR });
    assert.deepEqual(r, { event_id: ev.id, requeued: 1 });
    const d = (await ts.svc.ctx.db.query('SELECT status, schedule_step, attempts FROM callback_deliveries WHERE event_id = $1', [ev.id])).rows[0];
    assert.deepEqual(d, { status: 'pending', schedule_step: 0, attempts: 1 });
    const claimed = (await ts.svc.ctx.deliveries.claim(500)).filter((d) => d.event_id === ev.id);
    assert.equal(claimed.length, 1);
    assert.equal(claimed[0]!.body, ev.body, 'the delivered body is byte-identical to the recorded one');
    assert.equal((await ts.svc.ctx.db.query('SELECT body FROM events WHERE id = $1', [ev.id])).rows[0]!.body, ev.body);
    assert.deepEqual((await auditOf(org, 'event.replayed')).map((a) => [a.actor, a.target_id]), [['operator', ev.id]]);

    const other = await ts.createOrg();
    await assert.rejects(ts.svc.ctx.events.replay({ eventId: ev.id, orgId: other, actor: OPERATOR }), /No such event/);
  });

  test('replay of every failed delivery in a time range, and only those', async () => {
    const org = await orgWithDestinations();
    const inRange = [await emit(ts, { orgId: org, kind: 'collection.received' }), await emit(ts, { orgId: org, kind: 'payout.success' })];
    const delivered = await emit(ts, { orgId: org, kind: 'payout.created' });
    const old = await emit(ts, { orgId: org, kind: 'collection.received' });
    await ts.svc.ctx.db.query("UPDATE events SET created_at = now() - interval '10 days' WHERE id = $1", [old.id]);
    await ts.svc.ctx.db.query("UPDATE callback_deliveries SET status = 'exhausted' WHERE event_id = ANY($1)", [[...inRange, old].map((e) => e.id)]);
    await ts.svc.ctx.db.query("UPDATE callback_deliveries SET status = 'delivered' WHERE event_id = $1", [delivered.id]);

    const from = new Date(Date.now() - 3_600_000);
    const to = new Date(Date.now() + 60_000);
    const r = await ts.svc.ctx.events.replayFailed({ orgId: org, from, to, actor: OPERATOR });
    assert.deepEqual(r, { events: 2, deliveries: 2 });
    for (const e of inRange) assert.equal((await deliveryRows(ts, e.id))[0]!.status, 'pending');
    assert.equal((await deliveryRows(ts, old.id))[0]!.status, 'exhausted', 'outside the range');
    assert.equal((await deliveryRows(ts, delivered.id))[0]!.status, 'delivered', 'not failed');
    const [audit] = await auditOf(org, 'events.failed_replayed');
    assert.deepEqual(audit!.after, { from: from.toISOString(), to: to.toISOString(), events: 2, deliveries: 2 });

    await assert.rejects(ts.svc.ctx.events.replayFailed({ orgId: org, from: to, to: from, actor: OPERATOR }), (e: any) => e.code === 'VALIDATION_FAILED' && e.details?.[0]?.field === 'to');
  });
});

describe('failing destinations', () => {
  test('all attempts failing for 3 days: disabled by system, pending deliveries parked, new ones parked; re-enabled: resumed', async () => {
    const org = await orgWithDestinations();
    const healthy = await orgWithDestinations();
    const first = await emit(ts, { orgId: org, kind: 'collection.received' });
    const ok = await emit(ts, { orgId: healthy, kind: 'collection.received' });
    // One failed attempt for org's delivery, one delivered for healthy's (both claimed together).
    const claimed = await ts.svc.ctx.deliveries.claim(500);
    await repo.recordAttempts(
      ts.svc.ctx.db,
      claimed
        .filter((d) => d.event_id === first.id || d.event_id === ok.id)
        .map((d) => ({
          deliveryId: d.id,
          claimToken: d.claim_token,
          attemptNo: 1,
          url: d.url ?? '',
          statusCode: d.event_id === first.id ? 500 : 200,
          latencyMs: 3,
          error: d.event_id === first.id ? 'http_500' : null,
          responseSnippet: null,
          next: d.event_id === first.id ? { status: 'pending' as const, delayMs: 0 } : { status: 'delivered' as const, delayMs: null },
        })),
    );
    const since = (await ts.svc.ctx.db.query("SELECT failing_since FROM callback_destinations WHERE org_id = $1 AND kind = 'payin'", [org])).rows[0]!.failing_since as Date;
    assert.ok(since instanceof Date, 'the first failure starts the clock');
    assert.equal((await ts.svc.ctx.db.query("SELECT failing_since FROM callback_destinations WHERE org_id = $1 AND kind = 'payin'", [healthy])).rows[0]!.failing_since, null);

    // Another event waits for the destination.
    const waiting = await emit(ts, { orgId: org, kind: 'collection.received' });

    // Injected clock: just under three days later nothing happens; just over, it is disabled.
    const justUnder = new Date(since.getTime() + DISABLE_FAILING_AFTER_MS - 60_000);
    assert.deepEqual((await ts.svc.ctx.destinations.disableFailing(justUnder)).filter((d) => d.org_id === org), []);
    const justOver = new Date(since.getTime() + DISABLE_FAILING_AFTER_MS + 1_000);
    const off = (await ts.svc.ctx.destinations.disableFailing(justOver)).filter((d) => d.org_id === org || d.org_id === healthy);
    assert.deepEqual(off, [{ org_id: org, kind: 'payin', parked: 2 }]);
    assert.deepEqual((await ts.svc.ctx.destinations.disableFailing(justOver)).filter((d) => d.org_id === org), [], 'disabled once');

    const listed = (await ts.svc.ctx.destinations.list(org)).find((d) => d.kind === 'payin')!;
    assert.equal(listed.status, 'disabled');
    for (const e of [first, waiting]) assert.equal((await deliveryRows(ts, e.id))[0]!.status, 'parked');
    const [audit] = await auditOf(org, 'destination.disabled');
    assert.equal(audit!.actor, 'system');
    assert.equal(audit!.target_id, 'payin');
    assert.equal(audit!.after.parked_deliveries, 2);

    // While disabled: nothing is claimed for it, a new event is parked (not lost), PayOut is unaffected.
    const later = await emit(ts, { orgId: org, kind: 'collection.received' });
    assert.equal((await deliveryRows(ts, later.id))[0]!.status, 'parked');
    const payout = await emit(ts, { orgId: org, kind: 'payout.success' });
    assert.equal((await deliveryRows(ts, payout.id))[0]!.status, 'pending');
    const claimable = (await ts.svc.ctx.deliveries.claim(500)).map((d) => d.event_id);
    assert.ok(!claimable.includes(later.id) && !claimable.includes(first.id));
    // A replay while disabled parks too.
    await ts.svc.ctx.events.replay({ eventId: later.id, orgId: org, actor: OPERATOR });
    assert.equal((await deliveryRows(ts, later.id))[0]!.status, 'parked');

    // Re-enabled (the CLI): every parked delivery is due now with a fresh schedule.
    const cli = parseJsonOutput(await runTijori(ts, ['destination', 'enable', '--org', org, '--kind', 'payin', '--json']));
    assert.deepEqual(cli, { kind: 'payin', status: 'enabled', resumed: 3 });
    for (const e of [first, waiting, later]) assert.equal((await deliveryRows(ts, e.id))[0]!.status, 'pending');
    const resumed = (await ts.svc.ctx.deliveries.claim(500)).map((d) => d.event_id);
    for (const e of [first, waiting, later]) assert.ok(resumed.includes(e.id), 'resumed deliveries are claimable at once');
    const row = (await ts.svc.ctx.db.query("SELECT status, failing_since, disabled_at FROM callback_destinations WHERE org_id = $1 AND kind = 'payin'", [org])).rows[0];
    assert.deepEqual(row, { status: 'enabled', failing_since: null, disabled_at: null });
    assert.deepEqual((await auditOf(org, 'destination.enabled')).map((a) => [a.actor, a.after.resumed_deliveries]), [['operator', 3]]);
  });

  test('a delivered attempt clears the clock: failing, then one success, is not disabled', async () => {
    const org = await orgWithDestinations();
    await emit(ts, { orgId: org, kind: 'payout.created' });
    await attemptAll(org, false);
    const since = (await ts.svc.ctx.db.query("SELECT failing_since FROM callback_destinations WHERE org_id = $1 AND kind = 'payout'", [org])).rows[0]!.failing_since as Date;
    assert.ok(since);
    await attemptAll(org, true);
    assert.equal((await ts.svc.ctx.db.query("SELECT failing_since FROM callback_destinations WHERE org_id = $1 AND kind = 'payout'", [org])).rows[0]!.failing_since, null);
    const off = await ts.svc.ctx.destinations.disableFailing(new Date(since.getTime() + 2 * DISABLE_FAILING_AFTER_MS));
    assert.ok(!off.some((d) => d.org_id === org));
  });
});

describe('test events', () => {
  test('"send a test event": type test, to that destination only (even unsubscribed, even disabled), audited', async () => {
    const org = await orgWithDestinations({ payin: ['collection.failed'] });
    await ts.svc.ctx.db.query("UPDATE callback_destinations SET status = 'disabled' WHERE org_id = $1 AND kind = 'payin'", [org]);
    const r = await ts.svc.ctx.events.sendTest({ orgId: org, kind: 'payin', actor: OPERATOR });
    assert.equal(r.type, 'test');
    const rows = await deliveryRows(ts, r.event_id);
    assert.deepEqual(rows.map((d) => [d.target, d.status]), [['payin', 'pending']]);
    const body = JSON.parse((await ts.svc.ctx.db.query('SELECT body FROM events WHERE id = $1', [r.event_id])).rows[0]!.body);
    assert.equal(body.event, 'test');
    assert.equal(body.event_id, r.event_id);
    assert.equal((await auditOf(org, 'destination.test_sent')).length, 1);
    const none = await ts.createOrg();
    await assert.rejects(ts.svc.ctx.events.sendTest({ orgId: none, kind: 'payout', actor: OPERATOR }), /No payout destination/);
  });
});

describe('the CLI', () => {
  test('event list filters by type, date and delivery state with keyset pages; event replay one and --failed', async () => {
    const org = await orgWithDestinations();
    const evs = [];
    // One millisecond apart: "newest first" is by id, whose first bits are the millisecond it was
    // made (newRowId); ids made in one millisecond are unordered, so each event waits for the next.
    const t0 = Date.now() - 1_000;
    for (let i = 0; i < 5; i++) {
      const before = Date.now();
      while (Date.now() === before) await new Promise((r) => setImmediate(r));
      evs.push(await emit(ts, { orgId: org, kind: i % 2 === 0 ? 'collection.received' : 'payout.success', at: new Date(t0 + i) }));
    }
    await ts.svc.ctx.db.query("UPDATE callback_deliveries SET status = 'exhausted' WHERE event_id = $1", [evs[1]!.id]);
    await ts.svc.ctx.db.query("UPDATE callback_deliveries SET status = 'delivered' WHERE event_id = $1", [evs[2]!.id]);

    const all = parseJsonOutput(await runTijori(ts, ['event', 'list', '--org', org, '--json']));
    assert.deepEqual(all.events.map((e: any) => e.event_id), evs.map((e) => e.id).reverse(), 'newest first');
    assert.equal(all.next_cursor, null);
    assert.deepEqual(Object.keys(all.events[0]).sort(), ['aggregate_id', 'aggregate_type', 'created_at', 'deliveries', 'delivery_state', 'event_id', 'reference', 'type']);

    const list = async (query: string): Promise<any> => {
      const r = await ts.admin<any>('GET', `/orgs/${org}/events?${query}`);
      assert.equal(r.status, 200, r.text);
      return r.body.data;
    };
    const page1 = await list('limit=2');
    assert.equal(page1.events.length, 2);
    const page2 = await list(`limit=2&cursor=${page1.next_cursor}`);
    const page3 = await list(`limit=2&cursor=${page2.next_cursor}`);
    assert.deepEqual([...page1.events, ...page2.events, ...page3.events].map((e: any) => e.event_id), all.events.map((e: any) => e.event_id));
    assert.equal(page3.next_cursor, null);

    const byType = parseJsonOutput(await runTijori(ts, ['event', 'list', '--org', org, '--type', 'payout.success', '--delivery', 'failed', '--json']));
    assert.deepEqual(byType.events.map((e: any) => [e.event_id, e.type, e.delivery_state]), [[evs[1]!.id, 'payout.success', 'failed']]);
    assert.deepEqual((await list('type=payout.success')).events.map((e: any) => e.event_id), [evs[3]!.id, evs[1]!.id]);
    assert.deepEqual((await list('delivery=failed')).events.map((e: any) => e.event_id), [evs[1]!.id]);
    assert.deepEqual((await list('delivery=delivered')).events.map((e: any) => e.event_id), [evs[2]!.id]);
    assert.equal((await list('delivery=pending')).events.length, 3);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.deepEqual((await list(`from=${encodeURIComponent(future)}`)).events, []);
    assert.equal((await list(`from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(future)}`)).events.length, 5);

    const bad = await runTijori(ts, ['event', 'list', '--org', org, '--delivery', 'lost', '--json']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /delivery/);

    const one = parseJsonOutput(await runTijori(ts, ['event', 'replay', '--event', evs[2]!.id, '--json']));
    assert.deepEqual(one, { event_id: evs[2]!.id, requeued: 1 });
    const range = parseJsonOutput(
      await runTijori(ts, ['event', 'replay', '--org', org, '--failed', '--from', new Date(Date.now() - 3_600_000).toISOString(), '--to', future, '--json']),
    );
    assert.deepEqual(range, { org_id: org, from: range.from, to: future, events: 1, deliveries: 1 });
    assert.equal((await deliveryRows(ts, evs[1]!.id))[0]!.status, 'pending');

    const usage = await runTijori(ts, ['event', 'replay', '--org', org, '--json']);
    assert.equal(usage.code, 2);
    const missing = await runTijori(ts, ['event', 'replay', '--event', randomUUID(), '--json']);
    assert.equal(missing.code, 1);
  });

  test('destination set --events: the choice in the answer; without it the contract\'s three keys', async () => {
    const org = await ts.createOrg();
    const plain = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', URL_IN, '--json']));
    assert.deepEqual(Object.keys(plain), ['kind', 'url', 'signing_secret']);
    const chosen = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', URL_IN, '--events', 'collection.received,collection.expired', '--json']));
    assert.deepEqual(chosen, { kind: 'payin', url: URL_IN, signing_secret: null, events: ['collection.received', 'collection.expired'] });
    const wrong = await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', URL_IN, '--events', 'payout.rejected', '--json']);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /events/);
  });
});
