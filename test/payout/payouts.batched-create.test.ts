/**
 * Payout creates that arrive together share their statements (src/services/payouts/payouts.ts): bank connection
 * look-ups, inline beneficiaries and the payout + key + history + event writes. Each create must
 * still answer exactly as if it were alone.
 */
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprint } from '../../src/services/shared/idempotency.js';
import { createPayout, inlineBeneficiary, payoutBody, type PayoutWorld, startPayoutWorld } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
});
after(async () => {
  await w?.t.stop();
});

test('concurrent creates to one new account: one beneficiary row, every payout on it, one created event and history each', async () => {
  const account = `9${Date.now()}`.slice(0, 14);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => createPayout(w, payoutBody(60_000 + i * 100, { beneficiary: inlineBeneficiary({ account_number: account }) }))),
  );
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [201]);
  const ids = answers.map((a) => a.body.data.id as string);
  assert.equal(new Set(ids).size, 20);
  const beneficiaries = await w.t.database.db.query<{ id: string }>(
    `SELECT id FROM beneficiaries WHERE org_id = $1 AND account_number_last4 = $2`,
    [w.client.orgId, account.slice(-4)],
  );
  assert.equal(beneficiaries.rowCount, 1);
  assert.deepEqual([...new Set(answers.map((a) => a.body.data.beneficiary.id))], [beneficiaries.rows[0]!.id]);
  const events = await w.t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE kind = 'payout.created' AND aggregate_id = ANY($1::uuid[])`, [ids]);
  assert.equal(events.rows[0]!.n, 20);
  const history = await w.t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payout_transitions WHERE trigger = 'created' AND payout_id = ANY($1::uuid[])`, [ids]);
  assert.equal(history.rows[0]!.n, 40);
  const keys = await w.t.database.db.query<{ resource_id: string; response_body: string }>(
    `SELECT resource_id, response_body FROM idempotency_keys WHERE resource_id = ANY($1::uuid[]) AND state = 'completed'`,
    [ids],
  );
  assert.equal(keys.rowCount, 20);
  for (const k of keys.rows) assert.equal(JSON.parse(k.response_body).data.id, k.resource_id, 'each key answers with its own payout');
});

test('a repeat of a create is answered as before after its route is deactivated; a new key gets ROUTE_INVALID', async () => {
  const world = await startPayoutWorld();
  try {
    const key = randomUUID();
    const body = payoutBody(61_000);
    const first = await createPayout(world, body, key);
    assert.equal(first.status, 201);
    await world.t.database.db.query('UPDATE bank_connections SET active = false WHERE id = $1', [world.bankConnectionId]);
    const again = await createPayout(world, body, key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    const other = await createPayout(world, payoutBody(61_100));
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'ROUTE_INVALID');
    const reused = await createPayout(world, payoutBody(61_200), key);
    assert.equal(reused.status, 422);
    assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  } finally {
    await world.t.stop();
  }
});

test('a key left in progress by a create that died is taken over: the payout is made once, with the id the key holds', async () => {
  const key = randomUUID();
  const body = payoutBody(62_000);
  const resourceId = randomUUID();
  const db = w.t.database.db;
  const client = await db.query<{ id: string }>('SELECT id FROM api_clients WHERE client_id = $1', [w.client.clientId]);
  const fp = fingerprint({ clientPk: client.rows[0]!.id, key, method: 'POST', path: '/api/v1/merchant/payouts', body });
  await db.query(
    `INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, locked_until, resource_id) VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', $4)`,
    [client.rows[0]!.id, key, fp, resourceId],
  );
  const r = await createPayout(w, body, key);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.id, resourceId);
  assert.equal(r.headers.get('idempotent-replayed'), null);
  const again = await createPayout(w, body, key);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, r.text);
  const rows = await db.query(`SELECT 1 FROM payouts WHERE id = $1`, [resourceId]);
  assert.equal(rows.rowCount, 1);
  const created = await db.query(`SELECT 1 FROM events WHERE kind = 'payout.created' AND aggregate_id = $1`, [resourceId]);
  assert.equal(created.rowCount, 1);
});
