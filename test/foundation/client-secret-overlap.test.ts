/**
 * Contract §11: `tijori client rotate-secret --client CLIENT_ID --overlap-hours N` keeps the old
 * secret valid for N hours (0–168; default 0: it stops at once, as in §2).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
before(async () => {
  ts = await startTestService();
});
after(() => ts.stop());

const get = (clientId: string, secret: string) =>
  fetch(`${ts.svc.publicUrl}/api/v1/merchant/payouts/${crypto.randomUUID()}`, { headers: { 'x-service-client-id': clientId, authorization: `Bearer ${secret}` } }).then((r) => r.status);

test('--overlap-hours N: both secrets work until the overlap ends; then only the new one', async () => {
  const c = await ts.createClient({ scopes: ['payouts:read'] });
  assert.equal(await get(c.clientId, c.secret), 404, 'authenticated (no such payout)');
  const rotated = parseJsonOutput(await runTijori(ts, ['client', 'rotate-secret', '--client', c.clientId, '--overlap-hours', '24', '--json']));
  assert.deepEqual(Object.keys(rotated).sort(), ['client_id', 'client_secret', 'old_secret_expires_at']);
  const until = Date.parse(rotated.old_secret_expires_at) - Date.now();
  assert.ok(until > 23.9 * 3600_000 && until <= 24 * 3600_000 + 5_000, String(until));
  assert.equal(await get(c.clientId, rotated.client_secret), 404, 'the new secret works');
  assert.equal(await get(c.clientId, c.secret), 404, 'the old one too, during the overlap');

  // The overlap ends (the database says when; moved into the past rather than waited for).
  await ts.svc.ctx.db.query(`UPDATE api_clients SET previous_secret_expires_at = now() - interval '1 second' WHERE client_id = $1`, [c.clientId]);
  // Within the client cache's few seconds, as any change of a client.
  await poll(async () => (await get(c.clientId, c.secret)) === 401, { what: 'the old secret stopped', timeoutMs: 10_000, stepMs: 200 });
  assert.equal(await get(c.clientId, rotated.client_secret), 404);

  // Default 0: the old secret stops at once, and an overlap still running ends too.
  const again = parseJsonOutput(await runTijori(ts, ['client', 'rotate-secret', '--client', c.clientId, '--overlap-hours', '2', '--json']));
  const last = parseJsonOutput(await runTijori(ts, ['client', 'rotate-secret', '--client', c.clientId, '--json']));
  assert.deepEqual(Object.keys(last).sort(), ['client_id', 'client_secret'], 'exactly the §2 object without an overlap');
  assert.equal(await get(c.clientId, again.client_secret), 401);
  assert.equal(await get(c.clientId, last.client_secret), 404);
});

test('--overlap-hours outside 0–168 is refused (VALIDATION_FAILED, field overlap_hours)', async () => {
  const c = await ts.createClient({ scopes: ['payouts:read'] });
  for (const n of ['169', '-1']) {
    const r = await runTijori(ts, ['client', 'rotate-secret', '--client', c.clientId, `--overlap-hours=${n}`, '--json']);
    assert.notEqual(r.code, 0, n);
    assert.match(r.stderr, /VALIDATION_FAILED.*overlap_hours/, n);
  }
  assert.equal(await get(c.clientId, c.secret), 404, 'nothing changed');
});
