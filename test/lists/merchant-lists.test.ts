/**
 * GET /merchant/payment-orders and GET /merchant/payouts (contract §7): the calling client's own
 * resources, newest first, filters, limits, keyset pages that stay correct while rows are added,
 * 422 for malformed filters and cursors, scopes. Every answer is also checked against the served
 * OpenAPI document by the test client (test/support/service.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestClient } from '../support/service.js';
import { createPayout, payoutBody, startPayoutWorld, waitForStatus, type PayoutWorld } from '../payout/helpers.js';
import { checkoutBody } from '../payin/helpers.js';

let w: PayoutWorld;
let a: TestClient; // the caller
let b: TestClient; // same organization, another API client
before(async () => {
  w = await startPayoutWorld();
  a = w.client;
  b = await w.t.createClient({ orgId: a.orgId });
});
after(() => w.t.stop());

async function createOrder(c: TestClient, n: number): Promise<any> {
  const r = await w.t.api('POST', '/merchant/payment-orders', { client: c, body: checkoutBody({ amount_paise: 10_000 + n }), idempotencyKey: randomUUID() });
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

const list = (path: string, c: TestClient, query: Record<string, string> = {}) => w.t.api('GET', `${path}?${new URLSearchParams(query)}`, { client: c });

/** Every page of a list, following next_cursor; `between` runs after each page. */
async function allPages(path: string, c: TestClient, query: Record<string, string>, between: () => Promise<void> = async () => {}): Promise<any[][]> {
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const r = await list(path, c, { ...query, ...(cursor ? { cursor } : {}) });
    assert.equal(r.status, 200, r.text);
    pages.push(r.body.data);
    cursor = r.body.next_cursor;
    await between();
  } while (cursor !== null);
  return pages;
}

function assertNewestFirst(items: { id: string; created_at: string }[]) {
  for (let i = 1; i < items.length; i++) {
    const [p, q] = [items[i - 1]!, items[i]!];
    assert.ok(p.created_at > q.created_at || (p.created_at === q.created_at && p.id > q.id), `${p.id} ${p.created_at} before ${q.id} ${q.created_at}`);
  }
}

describe('GET /merchant/payment-orders', () => {
  let mine: any[];
  before(async () => {
    mine = [];
    for (let i = 0; i < 5; i++) mine.push(await createOrder(a, i));
    await createOrder(b, 99);
    const other = await w.t.createClient({}); // another organization too
    await createOrder(other, 98);
    const c = await w.t.api('POST', `/merchant/payment-orders/${mine[1].id}/cancel`, { client: a });
    assert.equal(c.status, 200, c.text);
  });

  test('the caller\'s own orders only, newest first, each exactly as GET shows it, default limit 20, no next page', async () => {
    const r = await list('/merchant/payment-orders', a);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(typeof r.body.request_id, 'string');
    assert.equal(r.body.next_cursor, null);
    assert.deepEqual(Object.keys(r.body), ['success', 'data', 'next_cursor', 'request_id']);
    assert.deepEqual(r.body.data.map((o: any) => o.id), mine.map((o) => o.id).reverse());
    assertNewestFirst(r.body.data);
    for (const item of r.body.data) {
      const one = await w.t.api('GET', `/merchant/payment-orders/${item.id}`, { client: a });
      assert.deepEqual(item, one.body.data);
      assert.equal(item.livemode, false);
    }
    const theirs = await list('/merchant/payment-orders', b);
    assert.equal(theirs.body.data.length, 1, 'the other client of the same organization sees only its own');
    assert.ok(!theirs.body.data.some((o: any) => mine.some((m) => m.id === o.id)));
  });

  test('status filter', async () => {
    const cancelled = await list('/merchant/payment-orders', a, { status: 'CANCELLED' });
    assert.deepEqual(cancelled.body.data.map((o: any) => o.id), [mine[1].id]);
    const open = await list('/merchant/payment-orders', a, { status: 'AWAITING_CUSTOMER' });
    assert.deepEqual(open.body.data.map((o: any) => o.id), [mine[4].id, mine[3].id, mine[2].id, mine[0].id]);
    const none = await list('/merchant/payment-orders', a, { status: 'PAID' });
    assert.deepEqual(none.body.data, []);
  });

  test('created_from and created_to are inclusive', async () => {
    const mid = mine[2].created_at;
    const from = await list('/merchant/payment-orders', a, { created_from: mid });
    assert.deepEqual(from.body.data.map((o: any) => o.id), [mine[4].id, mine[3].id, mine[2].id]);
    const to = await list('/merchant/payment-orders', a, { created_to: mid });
    assert.deepEqual(to.body.data.map((o: any) => o.id), [mine[2].id, mine[1].id, mine[0].id]);
    const both = await list('/merchant/payment-orders', a, { created_from: mid, created_to: mid });
    assert.deepEqual(both.body.data.map((o: any) => o.id), [mine[2].id]);
    const offset = await list('/merchant/payment-orders', a, { created_from: '2000-01-01T05:30:00+05:30', created_to: '2999-01-01' });
    assert.equal(offset.body.data.length, 5);
  });

  test('limit pages through everything once, with filters kept', async () => {
    const pages = await allPages('/merchant/payment-orders', a, { limit: '2' });
    assert.deepEqual(pages.map((p) => p.length), [2, 2, 1]);
    assert.deepEqual(pages.flat().map((o) => o.id), mine.map((o) => o.id).reverse());
    const open = await allPages('/merchant/payment-orders', a, { limit: '3', status: 'AWAITING_CUSTOMER' });
    assert.deepEqual(open.map((p) => p.length), [3, 1]);
    const exact = await list('/merchant/payment-orders', a, { limit: '5' });
    assert.equal(exact.body.next_cursor, null, 'no empty last page when the page ends exactly at the last row');
    const max = await list('/merchant/payment-orders', a, { limit: '100' });
    assert.equal(max.status, 200);
  });

  test('malformed filters and cursors answer 422 VALIDATION_FAILED naming the field', async () => {
    const forged = Buffer.from(`1.${randomUUID()}x`).toString('base64url');
    const cases: [Record<string, string>, string][] = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ limit: '-1' }, 'limit'],
      [{ status: 'PAYED' }, 'status'],
      [{ created_from: 'yesterday' }, 'created_from'],
      [{ created_to: '2026-13-45T99:00:00Z' }, 'created_to'],
      [{ created_to: '2026-01-01T10:00:00' }, 'created_to'],
      [{ created_from: '2026-02-01T00:00:00Z', created_to: '2026-01-01T00:00:00Z' }, 'created_from'],
      [{ cursor: 'not a cursor!' }, 'cursor'],
      [{ cursor: forged }, 'cursor'],
      [{ cursor: 'MTIz' }, 'cursor'],
      [{ sort: 'asc' }, 'sort'],
    ];
    for (const [query, field] of cases) {
      const r = await list('/merchant/payment-orders', a, query);
      assert.equal(r.status, 422, `${JSON.stringify(query)}: ${r.text}`);
      assert.equal(r.body.error.code, 'VALIDATION_FAILED');
      assert.equal(typeof r.body.request_id, 'string');
      // One form for a parameter in every error (issue 31): `created_from`, never `querystring.created_from`.
      assert.ok(r.body.error.details.some((d: { field: string }) => d.field === field), `${field} in ${r.text}`);
      assert.ok(r.body.error.details.every((d: { field: string }) => !/^(querystring|params)\./.test(d.field)), r.text);
    }
  });

  test('a cursor of one client shows another client nothing of the first', async () => {
    const first = await list('/merchant/payment-orders', a, { limit: '1' });
    const r = await list('/merchant/payment-orders', b, { cursor: first.body.next_cursor });
    assert.equal(r.status, 200);
    assert.ok(!r.body.data.some((o: any) => mine.some((m) => m.id === o.id)));
  });

  test('scope collections:read is required', async () => {
    const writer = await w.t.createClient({ orgId: a.orgId, scopes: ['collections:write', 'payouts:read'] });
    const r = await list('/merchant/payment-orders', writer);
    assert.equal(r.status, 403, r.text);
    const anonymous = await w.t.api('GET', '/merchant/payment-orders');
    assert.equal(anonymous.status, 401);
  });
});

describe('pagination while rows are added', () => {
  test('no row of the snapshot is skipped or repeated; ties on created_at are ordered by id', async () => {
    const c = await w.t.createClient({ orgId: a.orgId });
    const snapshot: string[] = [];
    for (let i = 0; i < 24; i++) snapshot.push((await createOrder(c, i)).id);
    // Eight rows share one created_at exactly (to the microsecond): only the id orders them.
    await w.t.database.db.query(`UPDATE payment_orders SET created_at = '2026-01-01T00:00:00.123456Z' WHERE id = ANY($1::uuid[])`, [snapshot.slice(8, 16)]);
    const before = (await list('/merchant/payment-orders', c, { limit: '100' })).body.data.map((o: any) => o.id);
    assert.equal(before.length, 24);

    let added = 0;
    const seen = (
      await allPages('/merchant/payment-orders', c, { limit: '5' }, async () => {
        // Rows added between pages, some in parallel with the next page's read.
        await Promise.all([createOrder(c, 100 + added++), createOrder(c, 100 + added++)]);
      })
    ).flat().map((o) => o.id);
    const fromSnapshot = seen.filter((id) => before.includes(id));
    assert.deepEqual(fromSnapshot, before, 'every row of the snapshot once, in order');
    assert.equal(new Set(seen).size, seen.length, 'no row twice');
    assertNewestFirst((await list('/merchant/payment-orders', c, { limit: '100' })).body.data);
  });
});

describe('GET /merchant/payouts', () => {
  let mine: any[];
  before(async () => {
    mine = [];
    for (let i = 0; i < 3; i++) {
      const r = await createPayout(w, payoutBody(10_000 + i));
      assert.equal(r.status, 201, r.text);
      mine.push(r.body.data);
    }
    const theirs = await w.t.api('POST', '/merchant/payouts', { client: b, body: payoutBody(20_000), idempotencyKey: randomUUID() });
    assert.equal(theirs.status, 201, theirs.text);
    for (const p of mine) await waitForStatus(w, p.id, 'SUCCESS');
  });

  test('own payouts only, newest first, each exactly as GET shows it', async () => {
    const r = await list('/merchant/payouts', a);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.next_cursor, null);
    assert.deepEqual(r.body.data.map((p: any) => p.id), mine.map((p) => p.id).reverse());
    for (const item of r.body.data) {
      const one = await w.t.api('GET', `/merchant/payouts/${item.id}`, { client: a });
      assert.deepEqual(item, one.body.data);
      assert.equal(item.livemode, false);
      assert.equal(item.attempts.length, 1);
    }
    const theirs = await list('/merchant/payouts', b);
    assert.equal(theirs.body.data.length, 1);
    assert.ok(!mine.some((m) => m.id === theirs.body.data[0].id));
  });

  test('status, dates, limit and cursor', async () => {
    assert.equal((await list('/merchant/payouts', a, { status: 'SUCCESS' })).body.data.length, 3);
    assert.deepEqual((await list('/merchant/payouts', a, { status: 'FAILED' })).body.data, []);
    assert.deepEqual((await list('/merchant/payouts', a, { created_from: mine[1].created_at })).body.data.map((p: any) => p.id), [mine[2].id, mine[1].id]);
    const pages = await allPages('/merchant/payouts', a, { limit: '1' });
    assert.deepEqual(pages.flat().map((p) => p.id), mine.map((p) => p.id).reverse());
    for (const [query, field] of [[{ status: 'PENDING_APPROVAL_X' }, 'status'], [{ limit: '1000' }, 'limit'], [{ cursor: 'abc' }, 'cursor']] as const) {
      const bad = await list('/merchant/payouts', a, query);
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(bad.body.error.details.map((d: { field: string }) => d.field), [field], bad.text);
    }
  });

  test('scope payouts:read is required', async () => {
    const reader = await w.t.createClient({ orgId: a.orgId, scopes: ['collections:read', 'payouts:write'] });
    assert.equal((await list('/merchant/payouts', reader)).status, 403);
  });
});
