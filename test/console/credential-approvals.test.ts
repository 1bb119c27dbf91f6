/**
 * Issue #29 item 4, first finding, as the attack: a developer (who may neither make nor check
 * payouts) created an API client with payouts:write in the console — or widened a client to it, or
 * rotated the secret of one — and paid through the merchant API alone; an admin could do the same.
 * Handing anyone a working payouts:write credential now needs a second admin's approval, audited;
 * the requester collects the secret once. Other clients are made at once, as before.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { type PayoutWorld, payoutBody, startPayoutWorld } from '../payout/helpers.js';

let w: PayoutWorld;
let admin: ConsoleCaller & { userId: string };
let admin2: ConsoleCaller & { userId: string };
let dev: ConsoleCaller & { userId: string };

before(async () => {
  w = await startPayoutWorld();
  admin = await signedInUser(w.t, w.client.orgId, 'ca-admin@example.com', 'admin');
  admin2 = await signedInUser(w.t, w.client.orgId, 'ca-admin2@example.com', 'admin');
  dev = await signedInUser(w.t, w.client.orgId, 'ca-dev@example.com', 'developer');
});
after(() => w?.t.stop());

const payoutScopes = ['payouts:write', 'payouts:read'];

async function pay(clientId: string, secret: string, amount: number) {
  return w.t.api('POST', '/merchant/payouts', {
    client: { orgId: w.client.orgId, clientId, secret },
    body: payoutBody(amount, { client_reference: `ca-${randomUUID().slice(0, 8)}` }),
    idempotencyKey: randomUUID(),
  });
}

async function clientsWithPayouts(): Promise<number> {
  const r = await w.t.database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM api_clients WHERE org_id = $1 AND 'payouts:write' = ANY(scopes)", [w.client.orgId]);
  return r.rows[0]!.n;
}

test('a developer asks for a payouts:write client: nothing is made until a second admin approves; the developer collects the secret once and only then can pay', async () => {
  const before = await clientsWithPayouts();
  const asked = await dev.call('POST', '/api-clients', { name: 'payroll', scopes: payoutScopes });
  assert.equal(asked.status, 201, asked.text);
  assert.equal(asked.body.data.approval_required, true);
  assert.equal(asked.body.data.client_secret, undefined, 'no secret before approval');
  const req = asked.body.data.request;
  assert.equal(req.status, 'PENDING');
  assert.equal(req.requested_by, 'ca-dev@example.com');
  assert.equal(await clientsWithPayouts(), before, 'no client yet');

  // The developer cannot approve (not an admin); nothing to collect yet.
  assert.equal((await dev.call('POST', `/api-client-requests/${req.request_id}/approve`)).status, 403);
  assert.equal((await dev.call('POST', `/api-client-requests/${req.request_id}/collect`)).status, 409);
  const listed = await admin.call('GET', '/api-client-requests');
  assert.ok(listed.body.data.some((r: any) => r.request_id === req.request_id && r.status === 'PENDING'));

  const ok = await admin.call('POST', `/api-client-requests/${req.request_id}/approve`);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status, 'APPROVED');
  assert.equal(JSON.stringify(ok.body).includes('secret'), false, 'the approver never sees a secret');
  assert.equal((await admin.call('POST', `/api-client-requests/${req.request_id}/collect`)).status, 403, 'only the requester collects');
  const got = await dev.call('POST', `/api-client-requests/${req.request_id}/collect`);
  assert.equal(got.status, 200, got.text);
  assert.deepEqual(got.body.data.client.scopes.sort(), [...payoutScopes].sort());
  assert.equal((await dev.call('POST', `/api-client-requests/${req.request_id}/collect`)).status, 409, 'collected once');
  const paid = await pay(got.body.data.client.client_id, got.body.data.client_secret, 4_999_900);
  assert.equal(paid.status, 201, paid.text);
  const audit = await w.t.database.db.query<{ action: string }>('SELECT action FROM console_audit_log WHERE org_id = $1 AND target_id IN ($2, $3) ORDER BY id', [w.client.orgId, req.request_id, got.body.data.client.client_id]);
  assert.deepEqual(audit.rows.map((r) => r.action), ['api_client.approval_requested', 'api_client.request_approved', 'api_client.created']);
});

test('an admin cannot approve their own request, nor through an admin whose credentials they issued', async () => {
  const asked = await admin.call('POST', '/api-clients', { name: 'admin-payroll', scopes: payoutScopes });
  const id = asked.body.data.request.request_id;
  const self = await admin.call('POST', `/api-client-requests/${id}/approve`);
  assert.equal(self.status, 403, self.text);
  assert.equal(self.body.error.code, 'SELF_APPROVAL_DENIED');
  // A puppet admin invited from the console (the set-up link comes back to the inviter).
  const invited = await admin.call('POST', '/users', { email: 'ca-puppet-admin@example.com', role: 'admin' });
  const puppet = consoleCaller(w.t);
  assert.equal((await puppet.call('POST', '/setup', { token: new URL(invited.body.data.setup_url).hash.replace('#token=', ''), password: GOOD_PASSWORD })).status, 200);
  const byPuppet = await puppet.call('POST', `/api-client-requests/${id}/approve`);
  assert.equal(byPuppet.status, 403, byPuppet.text);
  assert.equal(byPuppet.body.error.code, 'SELF_APPROVAL_DENIED');
  // A second, independent admin may reject it.
  const no = await admin2.call('POST', `/api-client-requests/${id}/reject`);
  assert.equal(no.status, 200, no.text);
  assert.equal(no.body.data.status, 'REJECTED');
  assert.equal((await admin.call('POST', `/api-client-requests/${id}/collect`)).status, 409);
});

test('widening a client to payouts:write and rotating the secret of one wait for a second admin', async () => {
  const made = await dev.call('POST', '/api-clients', { name: 'collections only', scopes: ['collections:read'] });
  assert.equal(made.status, 201, made.text);
  assert.ok(made.body.data.client_secret, 'a client that cannot move money is made at once');
  const clientId = made.body.data.client.client_id;
  const widened = await dev.call('PATCH', `/api-clients/${clientId}`, { scopes: ['collections:read', 'payouts:write'] });
  assert.equal(widened.status, 200, widened.text);
  assert.equal(widened.body.data.approval_required, true);
  assert.deepEqual((await w.t.database.db.query('SELECT scopes FROM api_clients WHERE client_id = $1', [clientId])).rows[0]?.scopes, ['collections:read']);
  const denied = await pay(clientId, made.body.data.client_secret, 10_000);
  assert.equal(denied.status, 403, 'not widened yet');
  const applied = await admin.call('POST', `/api-client-requests/${widened.body.data.request.request_id}/approve`);
  assert.equal(applied.status, 200, applied.text);
  assert.deepEqual(applied.body.data.scopes, ['collections:read', 'payouts:write']);

  // Rotating it now: the old secret keeps working until the new one is collected.
  const rot = await dev.call('POST', `/api-clients/${clientId}/rotate-secret`);
  assert.equal(rot.status, 200, rot.text);
  assert.equal(rot.body.data.approval_required, true);
  assert.equal(rot.body.data.client_secret, undefined);
  assert.equal((await admin2.call('POST', `/api-client-requests/${rot.body.data.request.request_id}/approve`)).status, 200);
  const fresh = await dev.call('POST', `/api-client-requests/${rot.body.data.request.request_id}/collect`);
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.data.client_id, clientId);
  assert.equal((await pay(clientId, made.body.data.client_secret, 10_001)).status, 401, 'the old secret stopped working');
  assert.equal((await pay(clientId, fresh.body.data.client_secret, 10_002)).status, 201);
});
