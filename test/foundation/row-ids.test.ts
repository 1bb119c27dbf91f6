/**
 * Rows that grow with traffic get time-ordered ids (UUIDv7): made in JavaScript by newRowId() and
 * in SQL by uuid_v7() (migration 0009). What matters for the indexes: the first 48 bits are the
 * creation time in milliseconds, so later rows sort after earlier ones; what matters for safety:
 * version 7, the RFC 4122 variant, and ids that never repeat.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { recordEvent } from '../../src/services/callbacks/events.js';
import { newRowId } from '../../src/store/row-id.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { checkoutBody, key } from '../payin/helpers.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

let t: TestDatabase;
let svc: TestService;
before(async () => {
  t = await createTestDatabase();
  svc = await startTestService();
});
after(async () => {
  await svc.stop();
  await t.drop();
});

test('newRowId: version 7, the creation time first, never repeated', () => {
  const from = Date.now();
  const ids = Array.from({ length: 5_000 }, newRowId);
  const to = Date.now();
  for (const id of ids) {
    assert.match(id, V7);
    assert.ok(millisOf(id) >= from && millisOf(id) <= to, `${id} is not stamped between ${from} and ${to}`);
  }
  assert.equal(new Set(ids).size, ids.length);
  const stamps = ids.map(millisOf);
  assert.deepEqual([...stamps].sort((a, b) => a - b), stamps, 'ids made in a later millisecond sort later');
});

test('uuid_v7() in PostgreSQL: version 7, the statement time first, never repeated', async () => {
  const from = Date.now();
  const r = await t.db.query<{ id: string }>('SELECT uuid_v7()::text AS id FROM generate_series(1, 2000)');
  const to = Date.now();
  const ids = r.rows.map((row) => row.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.match(id, V7);
    assert.ok(millisOf(id) >= from && millisOf(id) <= to, `${id} is not stamped between ${from} and ${to}`);
  }
});

test('payment orders are keyed by time-ordered ids, and their idempotency key names the same id', async () => {
  const client = await svc.createClient({});
  const first = await svc.api('POST', '/merchant/payment-orders', { client, body: checkoutBody(), idempotencyKey: key() });
  const second = await svc.api('POST', '/merchant/payment-orders', { client, body: checkoutBody(), idempotencyKey: key() });
  assert.equal(first.status, 201, first.text);
  assert.equal(second.status, 201, second.text);
  assert.match(first.body.data.id, V7);
  assert.ok(second.body.data.id > first.body.data.id, 'a later order sorts after an earlier one');
  const keyRow = await svc.database.db.query('SELECT resource_id::text AS id FROM idempotency_keys WHERE resource_id = $1', [first.body.data.id]);
  assert.equal(keyRow.rows[0]?.id, first.body.data.id);
});

test('events and their callback deliveries are keyed by time-ordered ids', async () => {
  const org = newRowId();
  await t.db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Ids Org')`, [org]);
  await t.db.query(`INSERT INTO callback_destinations (org_id, kind, url, secret_enc) VALUES ($1, 'payin', 'https://merchant.example.in/hook', '\\x00')`, [org]);
  const recorded = await t.db.tx((tx) =>
    recordEvent(tx, { orgId: org, kind: 'collection.received', aggregateType: 'payment_order', aggregateId: newRowId(), data: {} }),
  );
  assert.equal(recorded?.deliveries, 1);
  assert.match(recorded!.id, V7);
  const delivery = await t.db.query<{ id: string }>('SELECT id::text AS id FROM callback_deliveries WHERE event_id = $1', [recorded!.id]);
  assert.match(delivery.rows[0]!.id, V7);
});
