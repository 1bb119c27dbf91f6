/** The sandbox PSP's own HTTP API and its callback retries. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackSender } from '../../src/sandbox/callback-sender.js';
import { verifySandboxSignature } from '../../src/providers/sandbox/signature.js';
import { createLogger } from '../../src/observability/logger.js';
import { startTestService, type TestService } from '../support/service.js';
import { waitFor } from './helpers.js';

let t: TestService;
before(async () => {
  t = await startTestService();
});
after(() => t.stop());

const psp = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${t.svc.sandboxUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
};

const collection = (extra: Record<string, unknown> = {}) => ({
  reference: `REF${Date.now()}${Math.floor(Math.random() * 1e6)}`,
  amount_paise: 12_345,
  note: 'Test note',
  payee_name: 'Shop & Co',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  ...extra,
});

test('create is idempotent by reference; conflicting parameters are 409', async () => {
  const c = collection();
  const first = await psp('POST', '/psp/collections', c);
  assert.equal(first.status, 201);
  assert.equal(first.body.upi_uri, `upi://pay?pa=tijori.sandbox@sandbox&pn=Shop%20%26%20Co&am=123.45&cu=INR&tr=${c.reference}&tn=Test%20note`);
  const again = await psp('POST', '/psp/collections', c);
  assert.equal(again.status, 200);
  assert.equal(again.body.upi_uri, first.body.upi_uri);
  assert.equal(again.body.provider_reference, first.body.provider_reference);
  assert.equal((await psp('POST', '/psp/collections', { ...c, amount_paise: 12_346 })).status, 409);
  assert.equal((await psp('POST', '/psp/collections', { ...c, reference: 'BAD-REF' })).status, 400);
});

test('status inquiries are counted per reference, known or not', async () => {
  const c = collection();
  await psp('POST', '/psp/collections', c);
  assert.equal((await psp('GET', `/psp/collections/${c.reference}`)).body.status, 'PENDING');
  await psp('GET', `/psp/collections/${c.reference}`);
  assert.equal((await psp('GET', '/psp/collections/NOPE')).status, 404);
  const stats = (await psp('GET', '/stats')).body;
  assert.equal(stats.payin_status_checks[c.reference], 2);
  assert.equal(stats.payin_status_checks.NOPE, 1);
  assert.deepEqual(stats.payout_executions, {});
});

test('pay is idempotent, fail after pay is 409, unknown is 404', async () => {
  const c = collection();
  await psp('POST', '/psp/collections', c);
  const p = await psp('POST', `/psp/collections/${c.reference}/pay`, { callback: false, utr: '135791357913' });
  assert.equal(p.body.status, 'SUCCESS');
  assert.equal((await psp('POST', `/psp/collections/${c.reference}/pay`, { callback: false })).body.utr, '135791357913');
  assert.equal((await psp('POST', `/psp/collections/${c.reference}/pay`, { callback: false, utr: '999999999999' })).status, 409);
  assert.equal((await psp('POST', `/psp/collections/${c.reference}/fail`, { callback: false })).status, 409);
  assert.equal((await psp('POST', '/psp/collections/NOPE/pay', { callback: false })).status, 404);
});

test('callbacks are signed and retried until the receiver answers 2xx, with the same body', async () => {
  const bodies: string[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      calls++;
      assert.ok(verifySandboxSignature('secret', data, req.headers['x-sandbox-signature'] as string));
      bodies.push(data);
      res.statusCode = calls < 3 ? 503 : 200;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const sender = createCallbackSender({ url: () => `http://127.0.0.1:${port}/cb`, secret: 'secret', log: createLogger('silent'), delaysMs: [0, 20, 20, 20, 20] });
  sender.send({ id: 'e1', type: 'collection.updated' });
  await waitFor(async () => calls >= 3);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(calls, 3);
  assert.equal(new Set(bodies).size, 1);
  sender.close();
  server.close();
});

test('refunds: one reference sent many times at once is executed once and every request gets that refund, never "exceeds the paid amount"', async () => {
  const c = collection();
  await psp('POST', '/psp/collections', c);
  assert.equal((await psp('POST', `/psp/collections/${c.reference}/pay`, { callback: false })).status, 200);
  // The whole amount, so a request that counted a twin's execution in the sum would be refused.
  const refund = { reference: `RF${c.reference}`, collection_reference: c.reference, amount_paise: c.amount_paise };
  const answers = await Promise.all(Array.from({ length: 12 }, () => psp('POST', '/psp/refunds', refund)));
  assert.deepEqual([...new Set(answers.map((a) => a.status))].sort(), answers.some((a) => a.status === 200) ? [200, 201] : [201], JSON.stringify(answers.map((a) => a.body)));
  assert.equal(answers.filter((a) => a.status === 201).length, 1, 'executed once');
  assert.equal(new Set(answers.map((a) => a.body.provider_reference)).size, 1, 'every answer names the one refund');
  const other = await psp('POST', '/psp/refunds', { ...refund, reference: `RG${c.reference}` });
  assert.equal(other.status, 422, 'a second refund of the whole amount is refused');
});
