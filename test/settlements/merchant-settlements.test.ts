/**
 * Contract §9 "Merchant API" on the real service and PostgreSQL, with the sandbox PSP settling
 * through the real CLI: GET /merchant/settlements (keyset pages stable while settlements are
 * imported), one settlement, its lines; the scope settlements:read (organization-wide), 404 for
 * another organization's settlement, 422 for a malformed id or cursor; `settlement` on the payment
 * order's answers before and after a settlement; the opt-in `settlement.created` event, written
 * with the import, delivered only to a PayIn destination that subscribes to it. Every answer is
 * checked against the served OpenAPI document by the test support.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_SCOPES, serviceWithClient, type TestClient } from '../support/service.js';
import { signedInUser } from '../support/console.js';
import { cli, paid, q, refunded, settle, sync } from './helpers.js';

const READ = [...ALL_SCOPES, 'settlements:read'];
const w = serviceWithClient({ rateLimit: 100_000, scopes: READ });
const get = (client: TestClient, path: string) => w.t.api('GET', path, { client });

/** Pays an order of `client`, has the sandbox settle it and imports the settlement; returns the settlement_id. */
async function settledOrder(client: TestClient, amountPaise: number): Promise<{ order: { id: string; order_id: string }; settlementId: string }> {
  const order = await paid(w.t, client, amountPaise);
  assert.equal((await settle(w.t, client.orgId)).settlements.length, 1);
  assert.equal((await sync(w.t, client.orgId)).settlements_new, 1);
  const r = await q(w.t, "SELECT settlement_id FROM settlement_lines WHERE order_pk = $1 AND type = 'PAYMENT'", [order.id]);
  return { order, settlementId: r.rows[0].settlement_id };
}

test('settlement on the order: null when created, listed and read before; {settlement_id, utr, settled_at} once a matched line covers it', async () => {
  const { t, client } = w;
  const created = await t.api('POST', '/merchant/payment-orders', { client, body: { amount_paise: 5_000, purpose: 'Settle me' }, idempotencyKey: crypto.randomUUID() });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.data.settlement, null);

  const a = await paid(t, client, 49_900);
  const b = await paid(t, client, 100_091); // settled 100 paise short: an AMOUNT_MISMATCH, not a settlement of the order
  assert.equal((await get(client, `/merchant/payment-orders/${a.order_id}`)).body.data.settlement, null);
  assert.ok((await get(client, '/merchant/payment-orders')).body.data.every((o: any) => o.settlement === null));

  await settle(t, client.orgId);
  await sync(t, client.orgId);
  const s = (await q(t, 'SELECT id, utr, settled_at FROM settlements WHERE org_id = $1', [client.orgId])).rows[0];
  const expected = { settlement_id: s.id, utr: s.utr, settled_at: s.settled_at.toISOString() };
  const one = await get(client, `/merchant/payment-orders/${a.order_id}`);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.data.settlement, expected);
  assert.equal((await get(client, `/merchant/payment-orders/${b.id}`)).body.data.settlement, null, 'a mismatched line does not settle the order');
  const listed = new Map((await get(client, '/merchant/payment-orders?limit=100')).body.data.map((o: any) => [o.order_id, o.settlement]));
  assert.deepEqual(listed.get(a.order_id), expected);
  assert.equal(listed.get(b.order_id), null);
  assert.equal(listed.get(created.body.data.order_id), null);
});

test('GET /merchant/settlements/{settlement} and its lines: the CLI list fields, lines with match, pages', async () => {
  const { t, client } = w;
  const org = await t.createOrg('Lines Org');
  const c = await t.createClient({ orgId: org, scopes: READ, rateLimit: 100_000 });
  const a = await paid(t, c, 20_000);
  const b = await paid(t, c, 30_091);
  const r = await refunded(t, c, a.id, 5_000);
  await settle(t, org);
  await sync(t, org);
  const [cliRow] = (await cli(t, 'settlements', 'list', '--org', org)) as any[];

  const one = await get(c, `/merchant/settlements/${cliRow.settlement_id}`);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.data, cliRow, 'exactly the fields and values of `tijori settlements list`');
  assert.equal((await get(c, `/merchant/settlements/${cliRow.settlement_id.toUpperCase()}`)).body.data.settlement_id, cliRow.settlement_id);

  const lines: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await get(c, `/merchant/settlements/${cliRow.settlement_id}/lines?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(page.status, 200, page.text);
    lines.push(...page.body.data);
    cursor = page.body.next_cursor;
    pages++;
  } while (cursor !== null);
  assert.equal(pages, 2);
  const byKey = (l: any) => `${l.type}:${l.order_id}:${l.refund_id}`;
  assert.deepEqual(lines.map((l) => ({ ...l, provider_payment_id: typeof l.provider_payment_id })).sort((x, y) => byKey(x).localeCompare(byKey(y))), [
    { type: 'PAYMENT', order_id: a.order_id, refund_id: null, provider_payment_id: 'string', amount_paise: 20_000, fee_paise: 400, tax_paise: 72, net_paise: 19_528, match: 'MATCHED' },
    { type: 'PAYMENT', order_id: b.order_id, refund_id: null, provider_payment_id: 'string', amount_paise: 29_991, fee_paise: 602, tax_paise: 108, net_paise: 29_281, match: 'AMOUNT_MISMATCH' },
    { type: 'REFUND', order_id: a.order_id, refund_id: r.refund_id, provider_payment_id: 'string', amount_paise: 5_000, fee_paise: 0, tax_paise: 0, net_paise: 5_000, match: 'MATCHED' },
  ].sort((x, y) => byKey(x).localeCompare(byKey(y))));

  // Another organization's settlement is not found, for the list, the one and the lines.
  assert.equal((await get(client, `/merchant/settlements/${cliRow.settlement_id}`)).body.error?.code, 'NOT_FOUND');
  assert.equal((await get(client, `/merchant/settlements/${cliRow.settlement_id}/lines`)).status, 404);
  assert.ok(!(await get(client, '/merchant/settlements?limit=100')).body.data.some((s: any) => s.settlement_id === cliRow.settlement_id));
  assert.equal((await get(c, `/merchant/settlements/${crypto.randomUUID()}`)).status, 404);

  // Malformed: 422 in the envelope with its field.
  for (const path of ['/merchant/settlements/not-a-uuid', '/merchant/settlements/not-a-uuid/lines', `/merchant/settlements/${cliRow.settlement_id}/lines?cursor=forged`, '/merchant/settlements?limit=0', '/merchant/settlements?cursor=forged', '/merchant/settlements?created_from=yesterday']) {
    const bad = await get(c, path);
    assert.equal(bad.status, 422, `${path}: ${bad.text}`);
    assert.equal(bad.body.error.code, 'VALIDATION_FAILED');
    assert.ok(bad.body.request_id);
  }
  // A lines cursor is not a list cursor.
  const linesCursor = (await get(c, `/merchant/settlements/${cliRow.settlement_id}/lines?limit=1`)).body.next_cursor;
  assert.equal((await get(c, `/merchant/settlements?cursor=${linesCursor}`)).status, 422);
});

test('403 without settlements:read; the scope is organization-wide (one client reads settlements of another client\'s orders)', async () => {
  const { t, client } = w;
  const noScope = await t.createClient({ orgId: client.orgId, scopes: ALL_SCOPES });
  const other = await t.createClient({ orgId: client.orgId, scopes: ['settlements:read'] });
  const { settlementId } = await settledOrder(client, 7_000);
  for (const path of ['/merchant/settlements', `/merchant/settlements/${settlementId}`, `/merchant/settlements/${settlementId}/lines`]) {
    const denied = await get(noScope, path);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.body.error.code, 'API_SCOPE_DENIED');
    assert.equal((await get(other, path)).status, 200, `${path} for another client of the organization`);
  }
  const created = await t.admin('POST', '/clients', { org: client.orgId, scopes: ['settlements:read', 'bogus'] });
  assert.equal(created.status, 422, 'an unknown scope is still refused');
  assert.equal((await t.admin('POST', '/clients', { org: client.orgId, scopes: ['settlements:read'] })).status, 201);
  // The console's API clients page offers it too (its scopes fieldset sends the same list).
  const dev = await signedInUser(t, client.orgId, 'dev@books.example', 'developer');
  const viaConsole = await dev.call('POST', '/api-clients', { scopes: ['collections:read', 'settlements:read'], name: 'books' });
  assert.equal(viaConsole.status, 201, viaConsole.text);
  assert.deepEqual(viaConsole.body.data.client.scopes, ['collections:read', 'settlements:read']);
  const made: TestClient = { clientId: viaConsole.body.data.client.client_id, secret: viaConsole.body.data.client_secret, orgId: client.orgId };
  assert.equal((await get(made, `/merchant/settlements/${settlementId}`)).status, 200);
});

test('the list: newest first, keyset pages stay correct while settlements are imported, created_from/created_to bound settled_at', async () => {
  const { t } = w;
  const org = await t.createOrg('Pages Org');
  const c = await t.createClient({ orgId: org, scopes: READ, rateLimit: 100_000 });
  const ids: string[] = [];
  for (const amount of [1_000, 2_000, 3_000]) ids.push((await settledOrder(c, amount)).settlementId);
  const newest = ids.slice().reverse();

  const first = await get(c, '/merchant/settlements?limit=2');
  assert.deepEqual(first.body.data.map((s: any) => s.settlement_id), newest.slice(0, 2));
  // A settlement imported while paging: it is newer, so it never shifts the pages still to come.
  const late = (await settledOrder(c, 4_000)).settlementId;
  const second = await get(c, `/merchant/settlements?limit=2&cursor=${first.body.next_cursor}`);
  assert.deepEqual(second.body.data.map((s: any) => s.settlement_id), newest.slice(2));
  assert.equal(second.body.next_cursor, null);
  const all = await get(c, '/merchant/settlements');
  assert.deepEqual(all.body.data.map((s: any) => s.settlement_id), [late, ...newest]);

  const at = all.body.data.map((s: any) => s.settled_at);
  const bounded = await get(c, `/merchant/settlements?created_from=${encodeURIComponent(at[2])}&created_to=${encodeURIComponent(at[1])}`);
  assert.deepEqual(bounded.body.data.map((s: any) => s.settlement_id), [all.body.data[1].settlement_id, all.body.data[2].settlement_id]);
  assert.equal((await get(c, `/merchant/settlements?created_from=${encodeURIComponent(at[0])}&created_to=${encodeURIComponent(at[3])}`)).status, 422, 'created_from after created_to');
});

test('settlement.created: written with the import, delivered only to a PayIn destination that subscribes; its data is the settlement', async () => {
  const { t } = w;
  const subscribed = await t.createOrg('Subscribed Org');
  const plain = await t.createOrg('Default Events Org');
  const url = 'https://merchant.example.com/hooks/payin';
  assert.equal((await t.admin('PUT', `/orgs/${subscribed}/destinations/payin`, { url, events: ['collection.received', 'settlement.created'] })).status, 201);
  assert.equal((await t.admin('PUT', `/orgs/${plain}/destinations/payin`, { url })).status, 201);

  for (const org of [subscribed, plain]) {
    const c = await t.createClient({ orgId: org, scopes: READ, rateLimit: 100_000 });
    const { settlementId } = await settledOrder(c, 12_300);
    const events = (await q(t, "SELECT id, aggregate_type, aggregate_id, body FROM events WHERE org_id = $1 AND kind = 'settlement.created'", [org])).rows;
    assert.equal(events.length, 1, 'one event per imported settlement');
    assert.equal(events[0].aggregate_type, 'settlement');
    assert.equal(events[0].aggregate_id, settlementId);
    const body = JSON.parse(events[0].body);
    assert.equal(body.event, 'settlement.created');
    assert.deepEqual(body.data, (await get(c, `/merchant/settlements/${settlementId}`)).body.data, 'the totals as the API shows them');
    assert.equal(body.data.gross_paise, 12_300);
    assert.equal(body.data.net_paise, 12_300 - 246 - 44);
    const deliveries = (await q(t, "SELECT target FROM callback_deliveries WHERE event_id = $1", [events[0].id])).rows;
    assert.deepEqual(deliveries.map((d: any) => d.target), org === subscribed ? ['payin'] : [], org === subscribed ? 'the subscriber gets it' : 'opt-in: not sent by default');
    // A sync that finds the settlement again writes no second event.
    await sync(t, org);
    assert.equal((await q(t, "SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND kind = 'settlement.created'", [org])).rows[0].n, 1);
  }
});
