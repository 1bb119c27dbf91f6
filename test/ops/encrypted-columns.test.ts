/**
 * The one list of encrypted columns (src/services/keys/encrypted-columns.ts) against the schema a
 * fully migrated database has: every column that looks like it holds a secret — bytea, or a name
 * with secret, token, key, password, account number or an `_enc` suffix — is either listed as
 * encrypted (and `tijori keys rotate-master` re-encrypts it) or listed in NOT_ENCRYPTED with the
 * reason. A new secret column added without a line there fails here.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ENCRYPTED_COLUMNS, NOT_ENCRYPTED } from '../../src/services/keys/encrypted-columns.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());

const SECRET_LOOKING = /(secret|token|key|passw|account_?number|_enc$|_hash$|totp|credential|private)/i;

test('every secret-looking column of the schema is listed as encrypted or as not encrypted, with a reason', async () => {
  const cols = await database.db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema()
        AND c.table_name NOT IN (SELECT inhrelid::regclass::text FROM pg_inherits)`,
  );
  const encrypted = new Set(ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`));
  const unlisted: string[] = [];
  for (const c of cols.rows) {
    const name = `${c.table_name}.${c.column_name}`;
    if (c.data_type !== 'bytea' && !SECRET_LOOKING.test(c.column_name)) continue;
    // The sandbox provider is a separate module standing in for a bank and a PSP; its tables are not Tijori's secrets.
    if (c.table_name.startsWith('sandbox_')) continue;
    if (encrypted.has(name) || name in NOT_ENCRYPTED || `*.${c.column_name}` in NOT_ENCRYPTED) continue;
    unlisted.push(`${name} (${c.data_type})`);
  }
  assert.deepEqual(
    unlisted,
    [],
    'secret-looking columns in neither ENCRYPTED_COLUMNS nor NOT_ENCRYPTED (src/services/keys/encrypted-columns.ts): ' +
      'add an encrypted one to ENCRYPTED_COLUMNS (so `tijori keys rotate-master` re-encrypts it), anything else to NOT_ENCRYPTED with the reason',
  );
});

test('every listed encrypted column exists as bytea, with its key and context columns', async () => {
  for (const c of ENCRYPTED_COLUMNS) {
    const r = await database.db.query<{ column_name: string; data_type: string }>(
      'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
      [c.table],
    );
    const types = new Map(r.rows.map((x) => [x.column_name, x.data_type]));
    assert.equal(types.get(c.column), 'bytea', `${c.table}.${c.column}`);
    for (const k of [...c.key, ...(c.extra ?? [])]) assert.ok(types.has(k), `${c.table}.${k}`);
  }
});

test('NOT_ENCRYPTED names no column that is also listed as encrypted', () => {
  for (const c of ENCRYPTED_COLUMNS) assert.ok(!(`${c.table}.${c.column}` in NOT_ENCRYPTED), `${c.table}.${c.column}`);
});
