import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCallbackDispatcher, postCallback } from '../../src/net/safe-dispatcher.js';
import type { PostCallbackResult } from '../../src/net/safe-dispatcher.js';
import { callbackHeaders } from '../../src/callbacks/signature.js';
import { failFirst, startHttpsReceiver } from './https-receiver.js';
import type { HttpsReceiver } from './https-receiver.js';

const SECRET = 'whsec_receiver_test';
const PAYOUT_SECRET = 'whsec_payout_test';
let rx: HttpsReceiver;
let trusted: ReturnType<typeof createCallbackDispatcher>;
let guarded: ReturnType<typeof createCallbackDispatcher>;

before(async () => {
  rx = await startHttpsReceiver({ secret: SECRET, secretsByPath: { '/payout': PAYOUT_SECRET } });
  trusted = createCallbackDispatcher({ allowPrivateNetworks: true, ca: rx.ca, connectTimeoutMs: 2000 });
  guarded = createCallbackDispatcher({ allowPrivateNetworks: false, ca: rx.ca, connectTimeoutMs: 2000 });
});
after(async () => {
  await rx.stop();
  await Promise.all([trusted.close(), guarded.close()]);
});
beforeEach(() => {
  rx.received.length = 0;
  rx.setResponder(null);
});

let n = 0;
function signed(secret = SECRET): { body: string; headers: Record<string, string>; eventId: string } {
  const eventId = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const body = JSON.stringify({ event: 'collection.received', event_id: eventId, data: { note: '₹ राम' } });
  return { body, eventId, headers: callbackHeaders({ eventId, secret, rawBody: body }) };
}

async function send(
  url: string,
  dispatcher = trusted,
  timeoutMs?: number,
  msg = signed(),
): Promise<PostCallbackResult> {
  return postCallback({ dispatcher, url, headers: msg.headers, body: msg.body, timeoutMs });
}

test('a signed callback reaches the receiver over TLS and verifies', async () => {
  const msg = signed();
  const r = await send(rx.url('/payin'), trusted, undefined, msg);
  assert.deepEqual({ ok: r.ok, status: r.status, error: r.error }, { ok: true, status: 200, error: null });
  assert.ok(r.latencyMs >= 0);
  assert.equal(rx.received.length, 1);
  const got = rx.received[0]!;
  assert.equal(got.method, 'POST');
  assert.equal(got.rawBody.toString('utf8'), msg.body);
  assert.equal(got.headers['content-type'], 'application/json');
  assert.ok(got.verification?.ok);
  assert.equal(got.verification.eventId, msg.eventId);
  assert.equal(got.answeredStatus, 200);
});

test('secrets per path: the payout path verifies only with its own secret', async () => {
  assert.equal((await send(rx.url('/payout'), trusted, undefined, signed(PAYOUT_SECRET))).status, 200);
  const wrong = await send(rx.url('/payout'), trusted, undefined, signed(SECRET));
  assert.equal(wrong.status, 401);
  assert.equal(wrong.error, 'http_401');
  assert.deepEqual(rx.received[1]!.verification, { ok: false, reason: 'bad_signature' });
});

test('without allowPrivateNetworks the receiver on loopback is refused and receives nothing', async () => {
  for (const url of [rx.url('/payin'), `https://localhost:${rx.port}/payin`]) {
    const r = await send(url, guarded);
    assert.deepEqual({ status: r.status, error: r.error, ok: r.ok }, { status: null, error: 'address_not_allowed', ok: false }, url);
  }
  assert.equal(rx.received.length, 0);
});

test('a 302 is a failure and is not followed', async () => {
  rx.setResponder((r) => (r.index === 0 ? { status: 302, headers: { location: rx.url('/elsewhere') } } : 200));
  const r = await send(rx.url('/payin'));
  assert.deepEqual({ ok: r.ok, status: r.status, error: r.error }, { ok: false, status: 302, error: 'redirect_not_followed' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(rx.received.length, 1, 'the Location was not requested');
});

test('a 500 is recorded with status 500 and the response snippet', async () => {
  rx.setResponder(() => ({ status: 500, body: 'database down' }));
  const r = await send(rx.url('/payin'));
  assert.deepEqual(
    { ok: r.ok, status: r.status, error: r.error, snippet: r.responseSnippet },
    { ok: false, status: 500, error: 'http_500', snippet: 'database down' },
  );
});

test('failFirst: 500 for the first attempts, then 200 for the same event (retries)', async () => {
  rx.setResponder(failFirst(2));
  const msg = signed();
  const statuses: Array<number | null> = [];
  for (let i = 0; i < 3; i++) {
    // Each attempt is re-signed with a fresh timestamp over the same bytes, as the worker does.
    const headers = callbackHeaders({ eventId: msg.eventId, secret: SECRET, rawBody: msg.body });
    statuses.push((await postCallback({ dispatcher: trusted, url: rx.url('/payin'), headers, body: msg.body })).status);
  }
  assert.deepEqual(statuses, [500, 500, 200]);
  assert.ok(rx.received.every((r) => r.verification?.ok && !r.duplicate));
});

test('the response snippet is capped at 4 KiB', async () => {
  rx.setResponder(() => ({ status: 200, body: 'x'.repeat(100_000) }));
  const r = await send(rx.url('/payin'));
  assert.equal(r.status, 200);
  assert.equal(r.responseSnippet?.length, 4096);
});

test('a receiver that never answers hits the timeout', async () => {
  rx.setResponder(() => ({ hang: true }));
  const started = Date.now();
  const r = await send(rx.url('/payin'), trusted, 300);
  assert.deepEqual({ status: r.status, error: r.error }, { status: null, error: 'timeout' });
  assert.ok(Date.now() - started < 2000);
  assert.ok(r.latencyMs >= 250, `latency ${r.latencyMs}`);
  assert.equal(rx.received.length, 1);
});

test('a slow receiver within the timeout is fine', async () => {
  rx.setResponder(() => ({ status: 204, delayMs: 150 }));
  const r = await send(rx.url('/payin'), trusted, 2000);
  assert.equal(r.status, 204);
  assert.ok(r.latencyMs >= 140);
});

test('down and back up on the same port', async () => {
  const port = rx.port;
  await rx.stop();
  // A fresh dispatcher: a pooled keep-alive socket cut by stop() would fail as connection_reset.
  const fresh = createCallbackDispatcher({ allowPrivateNetworks: true, ca: rx.ca });
  try {
    const down = await send(rx.url('/payin'), fresh);
    assert.deepEqual({ status: down.status, error: down.error }, { status: null, error: 'connection_refused' });
  } finally {
    await rx.restart();
    await fresh.close();
  }
  assert.equal(rx.port, port);
  assert.equal((await send(rx.url('/payin'))).status, 200);
  assert.equal(rx.received.length, 1);
});

test('without the CA the certificate is not trusted', async () => {
  const untrusting = createCallbackDispatcher({ allowPrivateNetworks: true });
  try {
    const r = await send(rx.url('/payin'), untrusting);
    assert.equal(r.status, null);
    assert.match(r.error ?? '', /^tls_error: /);
  } finally {
    await untrusting.close();
  }
  assert.equal(rx.received.length, 0);
});

test('a host name missing from the certificate fails TLS', async () => {
  const d = createCallbackDispatcher({
    allowPrivateNetworks: true,
    ca: rx.ca,
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  });
  try {
    const r = await send(`https://merchant.example:${rx.port}/payin`, d);
    assert.equal(r.error, 'tls_error: ERR_TLS_CERT_ALTNAME_INVALID');
  } finally {
    await d.close();
  }
});

test('production path: NODE_EXTRA_CA_CERTS makes a dispatcher without `ca` trust the receiver', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tijori-ca-'));
  try {
    const caFile = join(dir, 'receiver-ca.pem');
    writeFileSync(caFile, rx.ca);
    const dispatcherModule = pathToFileURL(fileURLToPath(new URL('../../src/net/safe-dispatcher.ts', import.meta.url))).href;
    const msg = signed();
    const script = join(dir, 'post.mts');
    writeFileSync(
      script,
      `import { createCallbackDispatcher, postCallback } from ${JSON.stringify(dispatcherModule)};
const dispatcher = createCallbackDispatcher({ allowPrivateNetworks: true });
const r = await postCallback({ dispatcher, url: ${JSON.stringify(rx.url('/payin'))}, headers: ${JSON.stringify(msg.headers)}, body: ${JSON.stringify(msg.body)} });
await dispatcher.close();
process.stdout.write(JSON.stringify(r));
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, err);
    const r = JSON.parse(out) as PostCallbackResult;
    assert.deepEqual({ status: r.status, error: r.error }, { status: 200, error: null });
    assert.ok(rx.received[0]?.verification?.ok);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
