/**
 * Organizations, API clients and bank connections are referenced by every order, payout, key and event
 * without a foreign key (migration 0008: the key checks locked these few rows on every write).
 * What replaces the keys: such a row can never be deleted, truncated or given another id, so a
 * reference stays valid. Checked here against real PostgreSQL, as the database owner.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
const org = randomUUID();
const client = randomUUID();
const bankConnection = randomUUID();

before(async () => {
  t = await createTestDatabase();
  await t.db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Kept Org')`, [org]);
  await t.db.query(`INSERT INTO api_clients (id, client_id, org_id, secret_hash, scopes) VALUES ($1, $2, $3, '\\x00', '{collections:read}')`, [
    client,
    `tj_client_${client}`,
    org,
  ]);
  await t.db.query(`INSERT INTO bank_connections (id, org_id, name, provider, modes) VALUES ($1, $2, 'Kept route', 'sandbox', '{IMPS}')`, [bankConnection, org]);
});
after(() => t.drop());

const refused = /never deleted, truncated or re-keyed/;

for (const [table, id] of [
  ['organizations', () => org],
  ['api_clients', () => client],
  ['bank_connections', () => bankConnection],
] as const) {
  test(`${table}: DELETE, TRUNCATE and a new id are refused; other updates are not`, async () => {
    await assert.rejects(t.db.query(`DELETE FROM ${table} WHERE id = $1`, [id()]), refused);
    await assert.rejects(t.db.query(`UPDATE ${table} SET id = $2 WHERE id = $1`, [id(), randomUUID()]), refused);
    await assert.rejects(t.db.query(`TRUNCATE ${table} CASCADE`), refused);
    const still = await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id()]);
    assert.equal(still.rows[0]?.n, 1);
    // Renaming (and rotating a client's secret, deactivating a bank connection, ...) stays possible.
    const renamed = await t.db.query(`UPDATE ${table} SET name = 'Renamed' WHERE id = $1`, [id()]);
    assert.equal(renamed.rowCount, 1);
  });
}
