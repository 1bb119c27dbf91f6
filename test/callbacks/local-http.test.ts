/**
 * A developer's local receiver over plain http (issue #16 item 4): with
 * CALLBACK_ALLOW_PRIVATE_NETWORKS=true an http:// destination on 127.0.0.1 gets signed callbacks,
 * and the service warns once at start that the switch is on. With the switch off, and with it on
 * under NODE_ENV=production, http:// is refused when configured and never sent.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { verifyCallback } from '../../examples/verifier.js';
import { destinationSecretContext } from '../../src/services/callbacks/destinations.js';
import { startTestService, type TestService } from '../support/service.js';
import { attemptRows, emit, eventually, setDestination } from './helpers.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let url = '';
const received: Received[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise((r) => server.close(r)));

const switchWarnings = (ts: TestService) => ts.logs.filter((l) => l.includes('"level":"warn"') && l.includes('CALLBACK_ALLOW_PRIVATE_NETWORKS is on'));

test('switch on: an http:// receiver on 127.0.0.1 gets a signed callback; one warning at start', async () => {
  const ts = await startTestService({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' });
  try {
    assert.equal(switchWarnings(ts).length, 1, ts.logs.join('\n'));
    const client = await ts.createClient({});
    const set = await setDestination(ts, client.orgId, 'payin', `${url}/switch-on`);
    assert.equal(set.status, 201, JSON.stringify(set.body));
    const secret: string = set.body.data.signing_secret;

    const created = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000, purpose: 'Local', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await ts.admin('POST', `/sandbox/payment-orders/${created.body.data.order_id}/pay`, {})).status, 200);

    const got = await eventually(async () => received.find((r) => r.path === '/switch-on'), 15_000, 'the callback');
    const v = await verifyCallback({ rawBody: got.body, headers: got.headers as Record<string, string>, secret });
    assert.equal(v.ok, true, JSON.stringify(v));
    assert.equal(v.ok && v.event.event, 'collection.received');
  } finally {
    await ts.stop();
  }
});

test('switch off: http:// is refused when configured, and no warning is logged', async () => {
  const ts = await startTestService({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'false' });
  try {
    assert.equal(switchWarnings(ts).length, 0);
    const org = await ts.createOrg();
    const set = await setDestination(ts, org, 'payin', `${url}/switch-off`);
    assert.equal(set.status, 422);
    assert.equal(set.body.error.code, 'VALIDATION_FAILED');
    assert.match(JSON.stringify(set.body.error.details), /CALLBACK_ALLOW_PRIVATE_NETWORKS=true and outside production/);
  } finally {
    await ts.stop();
  }
});

test('production with the switch on: http:// is refused when configured and when planted, nothing is sent', async () => {
  const ts = await startTestService({ NODE_ENV: 'production', SANDBOX_IN_PRODUCTION: 'true', MASTER_KEY: randomBytes(32).toString('base64'), CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' });
  try {
    assert.equal(ts.config.callbackAllowLocalHttp, false);
    assert.match(switchWarnings(ts)[0] ?? '', /https:\/\/ only in production/);
    const org = await ts.createOrg();
    const set = await setDestination(ts, org, 'payin', `${url}/production`);
    assert.equal(set.status, 422, JSON.stringify(set.body));

    // A row written before (or around) the check: the sender refuses it as well.
    const secretEnc = ts.svc.ctx.vault.encrypt('whsec_planted', destinationSecretContext(org, 'payin'));
    await ts.svc.ctx.db.query(`INSERT INTO callback_destinations (org_id, kind, url, secret_enc) VALUES ($1, 'payin', $2, $3)`, [org, `${url}/production`, secretEnc]);
    const ev = await emit(ts, { orgId: org, kind: 'collection.received' });
    const attempts = await eventually(async () => {
      const rows = await attemptRows(ts, ev.id);
      return rows.length > 0 ? rows : null;
    }, 10_000, 'the refused attempt');
    assert.deepEqual(attempts.map((a) => [a.error, a.status_code]), [['https_required', null]]);
    assert.equal(received.filter((r) => r.path === '/production').length, 0, 'nothing reached the receiver');
  } finally {
    await ts.stop();
  }
});
