/**
 * Batched statements against real PostgreSQL (src/store/repos/payment-orders-repo.ts, behind
 * src/store/batched.ts). CHECKOUT creates: every create of a batch gets its own answer; a key
 * that exists or repeats in the batch writes nothing; one bad row fails only its own create;
 * batches sharing keys in opposite orders do not deadlock. INTENT (leased) creates: keys taken in
 * one statement; an order is written only with a key still held. Merchant GETs: each look-up sees
 * only its own client's order.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Batcher } from '../../src/store/batched.js';
import { orderIdFor } from '../../src/services/payin/payment-order-view.js';
import { isDataOrDeadlockError } from '../../src/store/db.js';
import { insertLeases, type NewLease } from '../../src/store/repos/idempotency-keys-repo.js';
import { insertCollections, type NewSandboxCollection } from '../../src/sandbox/repos/psp-repo.js';
import { insertCheckoutCreates, insertLeasedCreates, type OrderCreate } from '../../src/store/repos/payment-order-creates-repo.js';
import { findManyForClient } from '../../src/store/repos/payment-orders-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
let orgId: string;
let clientPk: string;

before(async () => {
  t = await createTestDatabase();
  orgId = randomUUID();
  clientPk = randomUUID();
  await t.db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'o')`, [orgId]);
  await t.db.query(
    `INSERT INTO api_clients (id, client_id, org_id, secret_hash, scopes) VALUES ($1, $2, $3, '\\x00', '{collections:write}')`,
    [clientPk, `c-${clientPk}`, orgId],
  );
});
after(() => t.drop());

function checkoutCreate(idempotencyKey: string, extra: Partial<OrderCreate['order']> = {}): OrderCreate {
  const id = randomUUID();
  const createdAt = new Date();
  return {
    order: {
      id,
      order_id: orderIdFor(id),
      org_id: orgId,
      client_pk: clientPk,
      merchant_order_reference: `ref-${id}`,
      amount_paise: 49_900,
      currency: 'INR',
      purpose: 'batched',
      response_mode: 'CHECKOUT',
      status: 'AWAITING_CUSTOMER',
      provider: 'sandbox',
      livemode: false,
      provider_account_id: null,
      provider_status: 'NOT_INITIATED',
      provider_reference: null,
      upi_uri: null,
      customer_name: 'Asha "Rao" \\ ünïcode',
      customer_email: null,
      customer_phone: null,
      customer_consent_at: null,
      expires_in_minutes: 30,
      expires_at: null,
      callback_url: 'https://merchant.example.in/cb',
      callback_secret_enc: Buffer.from([0, 1, 2, 250, 251, 252]),
      return_url: null,
      created_at: createdAt,
      ...extra,
    },
    key: {
      client_pk: clientPk,
      key: idempotencyKey,
      fingerprint: `fp-${idempotencyKey}`,
      response_status: 201,
      response_body: JSON.stringify({ success: true, data: { id }, note: 'quotes " and \\ survive' }),
      resource_type: 'payment_order',
    },
  };
}

test('one statement writes each order with its history row and completed key; existing and repeated keys write nothing', async () => {
  const existing = checkoutCreate(randomUUID());
  assert.deepEqual(await insertCheckoutCreates(t.db, [existing]), [true]);

  const repeated = randomUUID();
  const fresh = Array.from({ length: 5 }, () => checkoutCreate(randomUUID()));
  const batch = [fresh[0]!, checkoutCreate(existing.key.key), checkoutCreate(repeated), ...fresh.slice(1), checkoutCreate(repeated)];
  assert.deepEqual(await insertCheckoutCreates(t.db, batch), [true, false, true, true, true, true, true, false]);

  for (const c of [...fresh, batch[2]!]) {
    const o = await t.db.query(
      `SELECT o.amount_paise, o.customer_name, o.callback_secret_enc, o.created_at, o.updated_at, o.order_id,
              k.fingerprint, k.state, k.response_status, k.response_body, k.resource_id,
              (SELECT count(*)::int FROM payment_order_transitions h WHERE h.order_pk = o.id AND h.trigger = 'created' AND h.to_status = o.status) AS history
         FROM payment_orders o JOIN idempotency_keys k ON k.resource_id = o.id WHERE o.id = $1`,
      [c.order.id],
    );
    const row = o.rows[0]!;
    assert.equal(row.amount_paise, 49_900);
    assert.equal(row.customer_name, c.order.customer_name);
    assert.deepEqual(row.callback_secret_enc, c.order.callback_secret_enc);
    assert.equal(row.created_at.getTime(), c.order.created_at.getTime());
    assert.equal(row.updated_at.getTime(), c.order.created_at.getTime());
    assert.equal(row.order_id, c.order.order_id);
    assert.equal(row.fingerprint, c.key.fingerprint);
    assert.equal(row.state, 'completed');
    assert.equal(row.response_status, 201);
    assert.equal(row.response_body, c.key.response_body);
    assert.equal(row.history, 1);
  }
  const notWritten = await t.db.query('SELECT count(*)::int AS n FROM payment_orders WHERE id = ANY($1::uuid[])', [[batch[1]!.order.id, batch[7]!.order.id]]);
  assert.equal(notWritten.rows[0]!.n, 0);
});

test('livemode travels with each order of a batch, CHECKOUT and leased, and the merchant GET reads it', async () => {
  const live = checkoutCreate(randomUUID(), { livemode: true });
  const sandboxOrder = checkoutCreate(randomUUID(), { livemode: false });
  assert.deepEqual(await insertCheckoutCreates(t.db, [live, sandboxOrder]), [true, true]);
  const leasedLive = checkoutCreate(randomUUID(), { livemode: true, response_mode: 'INTENT', status: 'PENDING_PAYMENT' });
  assert.deepEqual(await insertLeases(t.db, [lease(leasedLive.key.key)].map((l) => ({ ...l, resource_id: leasedLive.order.id }))), [true]);
  assert.deepEqual(await insertLeasedCreates(t.db, [leasedLive]), [true]);
  const ids = [live, sandboxOrder, leasedLive].map((c) => c.order.id);
  const stored = await t.db.query<{ id: string; livemode: boolean }>('SELECT id, livemode FROM payment_orders WHERE id = ANY($1::uuid[])', [ids]);
  assert.deepEqual(Object.fromEntries(stored.rows.map((r) => [r.id, r.livemode])), { [ids[0]!]: true, [ids[1]!]: false, [ids[2]!]: true });
  const views = await findManyForClient(t.db, ids.map((id) => ({ clientPk, ref: { id } })));
  assert.deepEqual(views.map((v) => v?.livemode), [true, false, true]);
});

test('a row the database refuses fails only its own create when the batcher isolates data errors', async () => {
  const calls: number[] = [];
  const batcher = new Batcher<OrderCreate, boolean>(
    (creates) => {
      calls.push(creates.length);
      return insertCheckoutCreates(t.db, creates);
    },
    { isolateFailures: isDataOrDeadlockError },
  );
  const creates = [checkoutCreate(randomUUID()), checkoutCreate(randomUUID(), { amount_paise: 1 }), checkoutCreate(randomUUID())];
  const results = await Promise.allSettled(creates.map((c) => batcher.add(c)));
  assert.deepEqual(calls, [3, 1, 1, 1]);
  assert.deepEqual(results[0], { status: 'fulfilled', value: true });
  assert.equal(results[1]!.status, 'rejected');
  assert.equal(((results[1] as PromiseRejectedResult).reason as { code?: string }).code, '23514', 'the CHECK on amount_paise');
  assert.deepEqual(results[2], { status: 'fulfilled', value: true });
  const keyOfBad = await t.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE client_pk = $1 AND key = $2', [clientPk, creates[1]!.key.key]);
  assert.equal(keyOfBad.rows[0]!.n, 0, 'the refused create left no key behind: a retry can proceed');
});

test('concurrent batches sharing keys in opposite orders write each key once and never deadlock', async () => {
  for (let round = 0; round < 10; round++) {
    const keys = Array.from({ length: 30 }, () => randomUUID());
    const forward = keys.map((k) => checkoutCreate(k));
    const backward = [...keys].reverse().map((k) => checkoutCreate(k));
    const [a, b] = await Promise.all([insertCheckoutCreates(t.db, forward), insertCheckoutCreates(t.db, backward)]);
    keys.forEach((_k, i) => {
      assert.equal(Number(a[i]) + Number(b[keys.length - 1 - i]), 1, `key ${i} of round ${round} written exactly once`);
    });
    const n = await t.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = ANY($1::uuid[])', [keys]);
    assert.equal(n.rows[0]!.n, keys.length);
  }
});

test('a batch of merchant look-ups answers each with its own client\'s order only', async () => {
  const mine = checkoutCreate(randomUUID());
  const otherClient = randomUUID();
  await t.db.query(
    `INSERT INTO api_clients (id, client_id, org_id, secret_hash, scopes) VALUES ($1, $2, $3, '\\x00', '{collections:read}')`,
    [otherClient, `c-${otherClient}`, orgId],
  );
  const theirs = checkoutCreate(randomUUID(), { client_pk: otherClient });
  assert.deepEqual(await insertCheckoutCreates(t.db, [mine, theirs]), [true, true]);
  const missing = randomUUID();
  const rows = await findManyForClient(t.db, [
    { clientPk, ref: { id: mine.order.id } },
    { clientPk, ref: { id: mine.order.id, orderId: mine.order.order_id } },
    { clientPk, ref: { id: mine.order.id, orderId: theirs.order.order_id } },
    { clientPk, ref: { id: theirs.order.id } },
    { clientPk: otherClient, ref: { id: theirs.order.id } },
    { clientPk, ref: { id: missing } },
  ]);
  assert.deepEqual(
    rows.map((r) => r?.id ?? null),
    [mine.order.id, mine.order.id, null, null, theirs.order.id, null],
  );
  assert.equal(rows[0]!.amount_paise, 49_900);
  assert.equal(rows[0]!.status, 'AWAITING_CUSTOMER');
});

function lease(key: string, fp = `fp-${key}`): NewLease {
  return { client_pk: clientPk, key, fingerprint: fp, lease_ms: 30_000, resource_id: randomUUID() };
}

test('leases of a batch: new keys are taken in progress; an existing key or one repeated in the batch is not', async () => {
  const existing = randomUUID();
  assert.deepEqual(await insertLeases(t.db, [lease(existing)]), [true]);
  const repeated = randomUUID();
  const fresh = randomUUID();
  const batch = [lease(fresh), lease(existing), lease(repeated), lease(repeated)];
  assert.deepEqual(await insertLeases(t.db, batch), [true, false, true, false]);
  const rows = await t.db.query<{ key: string; state: string; resource_id: string; held: boolean }>(
    `SELECT key::text, state, resource_id::text, locked_until > now() + interval '25 seconds' AS held FROM idempotency_keys WHERE key = ANY($1::uuid[])`,
    [[fresh, repeated]],
  );
  for (const r of rows.rows) {
    assert.equal(r.state, 'in_progress');
    assert.equal(r.held, true, 'locked for the lease given');
  }
  assert.deepEqual(rows.rows.map((r) => r.resource_id).sort(), [batch[0]!.resource_id, batch[2]!.resource_id].sort());
});

test('leased creates of a batch: written with their key completed only while the key is still held by the same request', async () => {
  const intent = (k: string, fp?: string) => {
    const c = checkoutCreate(k, { response_mode: 'INTENT', status: 'PENDING_PAYMENT', provider_status: 'PENDING', upi_uri: 'upi://pay?pa=x@y' });
    return fp === undefined ? c : { ...c, key: { ...c.key, fingerprint: fp } };
  };
  const held = [randomUUID(), randomUUID()];
  const completedByOther = randomUUID();
  const otherRequest = randomUUID();
  const neverTaken = randomUUID();
  const twice = randomUUID();
  await insertLeases(t.db, [...held, completedByOther, otherRequest, twice].map((k) => lease(k)));
  await t.db.query(`UPDATE idempotency_keys SET state = 'completed', response_status = 201, response_body = '{}' WHERE key = $1`, [completedByOther]);
  const batch = [intent(held[0]!), intent(completedByOther), intent(otherRequest, 'fp-another-body'), intent(neverTaken), intent(twice), intent(twice), intent(held[1]!)];
  const written = await insertLeasedCreates(t.db, batch);
  assert.deepEqual([written[0], written[1], written[2], written[3], written[6]], [true, false, false, false, true]);
  assert.equal(Number(written[4]) + Number(written[5]), 1, 'a key completed by two creates of one batch makes one order');
  for (const i of [0, 6]) {
    const c = batch[i]!;
    const r = await t.db.query(
      `SELECT o.status, o.upi_uri, k.state, k.response_body, k.resource_id::text, k.locked_until,
              (SELECT count(*)::int FROM payment_order_transitions h WHERE h.order_pk = o.id AND h.trigger = 'created') AS history
         FROM payment_orders o JOIN idempotency_keys k ON k.resource_id = o.id WHERE o.id = $1`,
      [c.order.id],
    );
    assert.deepEqual(r.rows[0], { status: 'PENDING_PAYMENT', upi_uri: 'upi://pay?pa=x@y', state: 'completed', response_body: c.key.response_body, resource_id: c.order.id, locked_until: null, history: 1 });
  }
  const none = await t.db.query('SELECT count(*)::int AS n FROM payment_orders WHERE id = ANY($1::uuid[])', [[1, 2, 3].map((i) => batch[i]!.order.id)]);
  assert.equal(none.rows[0]!.n, 0);
  const untouched = await t.db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE key = $1', [otherRequest]);
  assert.equal(untouched.rows[0]!.state, 'in_progress', 'a key held for another body is left alone');
});

test('sandbox collections of a batch: each new reference stored once; an existing or repeated reference answers null', async () => {
  const collection = (reference: string, amount = 10_000): NewSandboxCollection => ({
    reference,
    provider_reference: `SBX${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
    amount_paise: amount,
    note: 'note "quoted"',
    payee_name: 'Payee',
    merchant_category: null,
    expires_at: new Date(Date.now() + 60_000),
    upi_uri: `upi://pay?tr=${reference}`,
  });
  const existing = `REF${randomUUID().slice(0, 8).toUpperCase()}`;
  const [first] = await insertCollections(t.db, [collection(existing)]);
  assert.equal(first?.reference, existing);
  const fresh = `REF${randomUUID().slice(0, 8).toUpperCase()}`;
  const twice = `REF${randomUUID().slice(0, 8).toUpperCase()}`;
  const batch = [collection(twice, 111), collection(existing, 222), collection(fresh, 333), collection(twice, 444)];
  const rows = await insertCollections(t.db, batch);
  assert.deepEqual(
    rows.map((r) => r && { reference: r.reference, provider_reference: r.provider_reference, amount_paise: Number(r.amount_paise), status: r.status, note: r.note }),
    [
      { reference: twice, provider_reference: batch[0]!.provider_reference, amount_paise: 111, status: 'PENDING', note: 'note "quoted"' },
      null,
      { reference: fresh, provider_reference: batch[2]!.provider_reference, amount_paise: 333, status: 'PENDING', note: 'note "quoted"' },
      null,
    ],
  );
});
