/**
 * Contract §11 end to end, with real deliveries to an HTTPS receiver:
 * - `tijori destination rotate-secret` answers {signing_secret, active_from}; deliveries stay
 *   signed with the old secret only (one v1= signature) until `activate-secret` or active_from;
 *   from the switch on only the new one signs, replays included; the new secret is stored
 *   encrypted like the old one (never in plain text, bound to its row's vault context).
 * - `tijori destination set --scheme standard-webhooks`: webhook-* headers that the
 *   `standardwebhooks` npm package (as published) verifies, and the SDK's verifier too.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyCallback as sdkVerify } from '../../sdk/src/index.js';
import { destinationSecretContext } from '../../src/services/callbacks/destinations.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';
import { emit, eventually, startTrustedReceiver, type TrustedReceiver } from './helpers.js';

let r: TrustedReceiver;
let ts: TestService;
before(async () => {
  r = await startTrustedReceiver();
  ts = await startTestService({ ...r.env, CALLBACK_RETRY_SCALE: '0.02' });
});
after(async () => {
  await ts.stop();
  await r.close();
});

const v1 = (secret: string, h: Record<string, unknown>, body: Buffer) => `v1=${createHmac('sha256', secret).update(`${String(h['x-service-timestamp'])}.`).update(body).digest('hex')}`;

async function deliveredOnce(org: string, path: string): Promise<{ headers: Record<string, unknown>; body: Buffer; eventId: string }> {
  const before = r.rx.received.length;
  const e = await emit(ts, { orgId: org, kind: 'collection.received' });
  const req = await eventually(async () => r.rx.received.slice(before).find((x) => x.path === path && x.rawBody.toString().includes(e.id)), 10_000, `a delivery of ${e.id}`);
  return { headers: req.headers as Record<string, unknown>, body: req.rawBody, eventId: e.id };
}

async function setUp(path: string, extra: string[] = []): Promise<{ org: string; secret: string }> {
  const org = await ts.createOrg();
  const out = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', r.rx.url(path), ...extra, '--json']));
  return { org, secret: out.signing_secret };
}

test('rotate-secret: the new secret once, the old one keeps signing (one v1=) until activate-secret; then only the new one, replays included', async () => {
  const path = '/rotate';
  const { org, secret: old } = await setUp(path);
  r.secrets[path] = old;

  const rotated = parseJsonOutput(await runTijori(ts, ['destination', 'rotate-secret', '--org', org, '--kind', 'payin', '--json']));
  assert.deepEqual(Object.keys(rotated), ['signing_secret', 'active_from']);
  assert.match(rotated.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.notEqual(rotated.signing_secret, old);
  const activeIn = Date.parse(rotated.active_from) - Date.now();
  assert.ok(activeIn > 71.9 * 3600_000 && activeIn <= 72 * 3600_000 + 5_000, `active_from 72 h on (${activeIn} ms)`);
  const next: string = rotated.signing_secret;

  // Stored encrypted like the current secret: same vault, same row-bound context, no plain text.
  const row = (await ts.svc.ctx.db.query('SELECT secret_enc, next_secret_enc FROM callback_destinations WHERE org_id = $1 AND kind = $2', [org, 'payin'])).rows[0]!;
  assert.ok(!row.next_secret_enc.toString('latin1').includes(next.slice(6)));
  assert.equal(ts.svc.ctx.vault.decrypt(row.next_secret_enc, destinationSecretContext(org, 'payin')), next);
  assert.throws(() => ts.svc.ctx.vault.decrypt(row.next_secret_enc, destinationSecretContext(org, 'payout')), 'bound to its row');
  assert.equal(ts.svc.ctx.vault.decrypt(row.secret_enc, destinationSecretContext(org, 'payin')), old);

  // Meanwhile: the old secret only, one signature, as the API document's verifiers expect.
  const during = await deliveredOnce(org, path);
  assert.equal(during.headers['x-service-signature'], v1(old, during.headers, during.body));
  assert.match(String(during.headers['x-service-signature']), /^v1=[0-9a-f]{64}$/);
  // A receiver following the docs accepts both meanwhile (the SDK takes the list).
  assert.equal(sdkVerify(during.body, during.headers as Record<string, string>, [next, old]).event_id, during.eventId);

  const text = await runTijori(ts, ['destination', 'rotate-secret', '--org', org, '--kind', 'payin']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /shown only now/);
  const latest: string = /signing_secret: (\S+)/.exec(text.stdout)![1]!;
  assert.notEqual(latest, next, 'rotating again replaces the waiting secret');
  const stillOld = await deliveredOnce(org, path);
  assert.equal(stillOld.headers['x-service-signature'], v1(old, stillOld.headers, stillOld.body));

  const activated = parseJsonOutput(await runTijori(ts, ['destination', 'activate-secret', '--org', org, '--kind', 'payin', '--json']));
  assert.equal(activated.kind, 'payin');
  r.secrets[path] = latest;
  const afterSwitch = await deliveredOnce(org, path);
  assert.equal(afterSwitch.headers['x-service-signature'], v1(latest, afterSwitch.headers, afterSwitch.body));
  const gone = (await ts.svc.ctx.db.query('SELECT secret_enc, next_secret_enc, next_secret_active_from FROM callback_destinations WHERE org_id = $1', [org])).rows[0]!;
  assert.equal(gone.next_secret_enc, null);
  assert.equal(gone.next_secret_active_from, null);
  assert.equal(ts.svc.ctx.vault.decrypt(gone.secret_enc, destinationSecretContext(org, 'payin')), latest, 'the old secret is gone');

  // A replay of an event from before the switch is signed with the new secret.
  const n = r.rx.received.length;
  const replay = await runTijori(ts, ['event', 'replay', '--event', during.eventId, '--json']);
  assert.equal(replay.code, 0, replay.stderr);
  const replayed = await eventually(async () => r.rx.received.slice(n).find((x) => x.rawBody.toString().includes(during.eventId)));
  assert.equal(replayed.headers['x-service-signature'], v1(latest, replayed.headers as Record<string, unknown>, replayed.rawBody));

  const nothing = await runTijori(ts, ['destination', 'activate-secret', '--org', org, '--kind', 'payin', '--json']);
  assert.notEqual(nothing.code, 0);
  assert.match(nothing.stderr, /INVALID_STATE/);
  const none = await runTijori(ts, ['destination', 'rotate-secret', '--org', org, '--kind', 'payout', '--json']);
  assert.match(none.stderr, /NOT_FOUND/);
  const audit = (await ts.svc.ctx.db.query(`SELECT action FROM console_audit_log WHERE org_id = $1 AND target_type = 'destination' ORDER BY id`, [org])).rows.map((x) => x.action);
  assert.deepEqual(audit, ['destination.secret_rotated', 'destination.secret_rotated', 'destination.secret_activated']);
  assert.ok(!JSON.stringify(ts.logs).includes(latest), 'signing secrets never logged');
});

test('72 hours after the rotation the new secret signs by itself; the health worker then drops the old one', async () => {
  const path = '/rotate-by-time';
  const { org, secret: old } = await setUp(path);
  const rotated = parseJsonOutput(await runTijori(ts, ['destination', 'rotate-secret', '--org', org, '--kind', 'payin', '--json']));
  r.secrets[path] = old;
  // The database's clock decides: move the rotation 72 h into the past rather than wait.
  await ts.svc.ctx.db.query(`UPDATE callback_destinations SET next_secret_active_from = now() - interval '1 second' WHERE org_id = $1`, [org]);
  r.secrets[path] = rotated.signing_secret;
  const d = await deliveredOnce(org, path);
  assert.equal(d.headers['x-service-signature'], v1(rotated.signing_secret, d.headers, d.body), 'the new secret from active_from on');
  assert.equal((await ts.admin('GET', `/orgs/${org}/destinations`)).body.data.destinations[0].next_secret_active_from, null);

  const promoted = await ts.svc.ctx.destinations.promoteDueSecrets();
  assert.ok(promoted.some((p) => p.org_id === org && p.kind === 'payin'));
  const row = (await ts.svc.ctx.db.query('SELECT secret_enc, next_secret_enc FROM callback_destinations WHERE org_id = $1', [org])).rows[0]!;
  assert.equal(row.next_secret_enc, null);
  assert.equal(ts.svc.ctx.vault.decrypt(row.secret_enc, destinationSecretContext(org, 'payin')), rotated.signing_secret);
});

test('--scheme standard-webhooks: webhook-* headers that the standardwebhooks package verifies; the body is the same event JSON', async () => {
  const path = '/standard';
  const { org, secret } = await setUp(path, ['--scheme', 'standard-webhooks']);
  assert.match(secret, /^whsec_/);
  const listed = (await ts.admin('GET', `/orgs/${org}/destinations`)).body.data.destinations[0];
  assert.equal(listed.scheme, 'standard-webhooks');

  const d = await deliveredOnce(org, path);
  assert.equal(d.headers['x-service-signature'], undefined);
  assert.equal(d.headers['webhook-id'], d.eventId);
  assert.match(String(d.headers['webhook-timestamp']), /^[0-9]{10}$/);
  assert.match(String(d.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
  const headers = { 'webhook-id': String(d.headers['webhook-id']), 'webhook-timestamp': String(d.headers['webhook-timestamp']), 'webhook-signature': String(d.headers['webhook-signature']) };
  const event = new Webhook(secret).verify(d.body.toString('utf8'), headers) as { event: string; event_id: string };
  assert.equal(event.event, 'collection.received');
  assert.equal(event.event_id, d.eventId);
  assert.throws(() => new Webhook(secret).verify(`${d.body.toString('utf8')} `, headers), 'a changed body fails');
  // The SDK's verifier recognises the scheme from the headers, and takes a list of secrets.
  assert.equal(sdkVerify(d.body, headers, ['whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', secret]).event_id, d.eventId);

  // Rotation works the same way in this scheme.
  const rotated = parseJsonOutput(await runTijori(ts, ['destination', 'rotate-secret', '--org', org, '--kind', 'payin', '--json']));
  await runTijori(ts, ['destination', 'activate-secret', '--org', org, '--kind', 'payin', '--json']);
  const after = await deliveredOnce(org, path);
  const h2 = { 'webhook-id': String(after.headers['webhook-id']), 'webhook-timestamp': String(after.headers['webhook-timestamp']), 'webhook-signature': String(after.headers['webhook-signature']) };
  assert.equal((new Webhook(rotated.signing_secret).verify(after.body.toString('utf8'), h2) as { event_id: string }).event_id, after.eventId);
  assert.throws(() => new Webhook(secret).verify(after.body.toString('utf8'), h2), 'the old secret is gone');

  // Back to the API document's scheme.
  const back = parseJsonOutput(await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', r.rx.url(path), '--scheme', 'tijori-v1', '--json']));
  assert.equal(back.scheme, 'tijori-v1');
  const v = await deliveredOnce(org, path);
  assert.equal(v.headers['x-service-signature'], v1(rotated.signing_secret, v.headers, v.body));
});

test('a scheme that does not exist is 422 on field scheme; a secret made before Standard Webhooks must be rotated first (409)', async () => {
  const { org } = await setUp('/bad-scheme');
  const bad = await runTijori(ts, ['destination', 'set', '--org', org, '--kind', 'payin', '--url', r.rx.url('/bad-scheme'), '--scheme', 'svix', '--json']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /VALIDATION_FAILED.*scheme/);
  // A secret of an older release: Base64url, not the standard Base64 Standard Webhooks needs.
  const legacy = 'whsec_' + Buffer.alloc(32, 0xfb).toString('base64url');
  await ts.svc.ctx.db.query('UPDATE callback_destinations SET secret_enc = $2 WHERE org_id = $1', [org, ts.svc.ctx.vault.encrypt(legacy, destinationSecretContext(org, 'payin'))]);
  const refused = await ts.admin('PUT', `/orgs/${org}/destinations/payin`, { url: r.rx.url('/bad-scheme'), scheme: 'standard-webhooks' });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'INVALID_STATE');
  assert.equal((await ts.admin('GET', `/orgs/${org}/destinations`)).body.data.destinations[0].scheme, 'tijori-v1');
});
