/** `tijori org set --org ORG --refund-review none|required` (contract §6), through the real binary. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { serviceWithClient } from '../support/service.js';
import { paidOrder } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

test('the setting decides whether a new refund waits for review; the default is required', async () => {
  const refundOf = async () => {
    const o = await paidOrder(w.t, w.client, 10_000);
    const r = await w.t.api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client: w.client, body: { amount_paise: 100 }, idempotencyKey: crypto.randomUUID() });
    assert.equal(r.status, 201, r.text);
    return r.body.data.status as string;
  };
  assert.equal(await refundOf(), 'PENDING_REVIEW');
  const none = await runTijori(w.t, ['org', 'set', '--org', w.client.orgId, '--refund-review', 'none', '--json']);
  assert.equal(none.code, 0, none.stderr);
  assert.deepEqual(parseJsonOutput(none), { id: w.client.orgId, name: parseJsonOutput(none).name, refund_review: 'none', settlement_expected_days: 3 });
  assert.equal(await refundOf(), 'PROCESSING');
  const back = await runTijori(w.t, ['org', 'set', '--org', w.client.orgId, '--refund-review', 'required', '--json']);
  assert.equal(parseJsonOutput(back).refund_review, 'required');
  assert.equal(await refundOf(), 'PENDING_REVIEW');
});

test('bad values are refused; an unknown organization is an error', async () => {
  const bad = await runTijori(w.t, ['org', 'set', '--org', w.client.orgId, '--refund-review', 'sometimes', '--json']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /none or required/);
  const unknown = await runTijori(w.t, ['org', 'set', '--org', '00000000-0000-4000-8000-000000000000', '--refund-review', 'none', '--json']);
  assert.notEqual(unknown.code, 0);
  const create = await runTijori(w.t, ['org', 'create', '--name', 'Still works', '--json']);
  assert.equal(create.code, 0, create.stderr);
});
