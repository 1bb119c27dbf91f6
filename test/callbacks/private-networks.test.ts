/**
 * With CALLBACK_ALLOW_PRIVATE_NETWORKS=false (the production default) nothing is ever sent to a
 * loopback/private address, whatever the URL says: the dispatcher judges every resolved address at
 * connect time. The attempt is recorded with error address_not_allowed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { destinationSecretContext } from '../../src/services/callbacks/destinations.js';
import { startTestService, type TestService } from '../support/service.js';
import { attemptRows, deliveryRows, emit, eventually, startTrustedReceiver, type TrustedReceiver } from './helpers.js';

let r: TrustedReceiver;
let ts: TestService;
before(async () => {
  r = await startTrustedReceiver();
  ts = await startTestService({ ...r.env, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' });
});
after(async () => {
  await ts.stop();
  await r.close();
});

test('deliveries to loopback are refused at connect time and recorded as address_not_allowed', async () => {
  const org = await ts.createOrg();
  // `destination set` refuses such URLs, so plant one directly: a name that resolves to 127.0.0.1
  // (as a rebinding DNS answer would) ...
  const secretEnc = ts.svc.ctx.vault.encrypt('whsec_test_private', destinationSecretContext(org, 'payin'));
  await ts.svc.ctx.db.query(`INSERT INTO callback_destinations (org_id, kind, url, secret_enc) VALUES ($1, 'payin', $2, $3)`, [
    org,
    `https://localhost:${r.rx.port}/private`,
    secretEnc,
  ]);
  // ... and a payment order's own callback_url with a literal loopback address.
  const ctxString = `payment_order:${randomUUID()}:callback_secret`;
  const extra = { url: r.rx.url('/private-order'), secretEnc: ts.svc.ctx.vault.encrypt('x'.repeat(32), ctxString), secretContext: ctxString };
  const ev = await emit(ts, { orgId: org, kind: 'collection.received', extraDestination: extra });
  assert.equal(ev.deliveries, 2);

  await eventually(async () => (await attemptRows(ts, ev.id)).length === 2, 5000, 'two attempts');
  const attempts = await attemptRows(ts, ev.id);
  assert.deepEqual(attempts.map((a) => [a.target, a.error, a.status_code]).sort(), [
    ['order', 'address_not_allowed', null],
    ['payin', 'address_not_allowed', null],
  ]);
  assert.equal(r.rx.received.length, 0, 'nothing reached the receiver');
  assert.ok((await deliveryRows(ts, ev.id)).every((d) => d.status === 'pending'), 'retried on the schedule (DNS may change), never sent');
});
