/**
 * Migration 0010 on rows written before it: a beneficiary shared by two clients of one
 * organization becomes the client's of its earliest payout; one no payout refers to belongs to
 * nobody (NULL, so no client can name it); afterwards the old shared account deduplicates per client.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { migrate } from '../../src/store/migrate.js';
import { inlineBeneficiary, payoutBody, startPayoutWorld, type PayoutWorld } from './helpers.js';
import type { TestClient } from '../support/service.js';

let w: PayoutWorld;
let a2: TestClient;
before(async () => {
  w = await startPayoutWorld();
  a2 = await w.t.createClient({ orgId: w.client.orgId });
});
after(() => w?.t.stop());

test('0010 gives existing beneficiaries the client of their earliest payout, orphans nobody', async () => {
  const db = w.t.database.db;
  const pay = (c: TestClient, amount: number) => w.t.api('POST', '/merchant/payouts', { client: c, body: payoutBody(amount, { beneficiary: inlineBeneficiary({ account_number: '999988887777' }) }), idempotencyKey: randomUUID() });
  const first = await pay(w.client, 11_000);
  const second = await pay(a2, 11_100);
  assert.equal(first.status, 201, first.text);
  assert.equal(second.status, 201, second.text);
  const shared = first.body.data.beneficiary.id as string;
  // Make the rows look as 0009 wrote them: one row per organization and account, used by both
  // clients' payouts, no owner; plus a row no payout refers to.
  await db.query('UPDATE payouts SET beneficiary_id = $1 WHERE id = $2', [shared, second.body.data.id]);
  await db.query('DELETE FROM beneficiaries WHERE id = $1', [second.body.data.beneficiary.id]);
  const orphan = randomUUID();
  await db.query(
    `INSERT INTO beneficiaries (id, org_id, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
     SELECT $1, org_id, name, account_number_enc, account_number_last4, '\\x00'::bytea, ifsc, bank_name, mobile FROM beneficiaries WHERE id = $2`,
    [orphan, shared],
  );
  await db.query(`ALTER TABLE beneficiaries DROP CONSTRAINT beneficiaries_client_pk_account_lookup_key`);
  await db.query(`ALTER TABLE beneficiaries DROP COLUMN client_pk`);
  await db.query(`ALTER TABLE beneficiaries ADD CONSTRAINT beneficiaries_org_id_account_lookup_key UNIQUE (org_id, account_lookup)`);
  await db.query(`DELETE FROM schema_migrations WHERE name = '0010_beneficiaries_per_client.sql'`);

  assert.deepEqual(await migrate(db), ['0010_beneficiaries_per_client.sql']);

  const owners = await db.query<{ id: string; client_id: string | null }>(
    'SELECT b.id, c.client_id FROM beneficiaries b LEFT JOIN api_clients c ON c.id = b.client_pk WHERE b.id = ANY($1::uuid[])',
    [[shared, orphan]],
  );
  const owner = Object.fromEntries(owners.rows.map((r) => [r.id, r.client_id]));
  assert.equal(owner[shared], w.client.clientId, 'the client of the earliest payout');
  assert.equal(owner[orphan], null);

  // After it: the first client names the row; the second gets BENEFICIARY_INVALID and, inline, a row of its own.
  const byA1 = await w.t.api('POST', '/merchant/payouts', { client: w.client, body: { beneficiary_id: shared, amount_paise: 11_200, mode: 'IMPS' }, idempotencyKey: randomUUID() });
  assert.equal(byA1.status, 201, byA1.text);
  const byA2 = await w.t.api('POST', '/merchant/payouts', { client: a2, body: { beneficiary_id: shared, amount_paise: 11_300, mode: 'IMPS' }, idempotencyKey: randomUUID() });
  assert.equal(byA2.body.error?.code, 'BENEFICIARY_INVALID');
  const inline = await pay(a2, 11_400);
  assert.equal(inline.status, 201, inline.text);
  assert.notEqual(inline.body.data.beneficiary.id, shared);
});
