import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCallbackDispatcher, postCallback } from './safe-dispatcher.js';
import type { Resolver } from './safe-dispatcher.js';

const guarded = createCallbackDispatcher({ allowPrivateNetworks: false, connectTimeoutMs: 1000 });
after(() => guarded.close());

const post = (url: string, dispatcher = guarded) =>
  postCallback({ dispatcher, url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 3000 });

test('only https URLs are accepted', async () => {
  for (const url of ['http://example.com/cb', 'ftp://example.com/', 'file:///etc/passwd', 'ws://example.com']) {
    const r = await post(url);
    assert.deepEqual({ ok: r.ok, status: r.status, error: r.error }, { ok: false, status: null, error: 'https_required' }, url);
  }
  assert.equal((await post('not a url')).error, 'invalid_url');
});

test('literal non-public IP hosts are refused before any connection is attempted', async () => {
  const literals = [
    'https://10.0.0.1/cb',
    'https://169.254.169.254/latest/meta-data/',
    'https://127.0.0.1:8081/admin',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fd00:ec2::254]/',
    'https://0.0.0.0/',
    'https://2130706433/', // WHATWG URL turns this into 127.0.0.1
    'https://0x7f.1/', // and this
  ];
  for (const url of literals) {
    const r = await post(url);
    assert.equal(r.error, 'address_not_allowed', url);
    assert.ok(r.latencyMs < 500, `${url} took ${r.latencyMs} ms: it must not have tried to connect`);
  }
});

test('a name resolving to any non-public address is refused (all addresses are judged)', async () => {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  };
  const d = createCallbackDispatcher({ allowPrivateNetworks: false, resolve });
  try {
    const r = await post('https://rebind.example/cb', d);
    assert.equal(r.error, 'address_not_allowed');
    assert.deepEqual(calls, ['rebind.example']);
  } finally {
    await d.close();
  }
});

test('localhost is refused through the system resolver', async () => {
  assert.equal((await post('https://localhost:9/')).error, 'address_not_allowed');
});

test('resolution failures are reported as dns errors', async () => {
  const d = createCallbackDispatcher({
    allowPrivateNetworks: false,
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    },
  });
  try {
    assert.equal((await post('https://nowhere.invalid/', d)).error, 'dns_not_found');
  } finally {
    await d.close();
  }
});

test('with allowPrivateNetworks a closed local port is connection_refused', async () => {
  const open = createCallbackDispatcher({ allowPrivateNetworks: true });
  try {
    const r = await post('https://127.0.0.1:1/', open);
    assert.deepEqual({ status: r.status, error: r.error }, { status: null, error: 'connection_refused' });
  } finally {
    await open.close();
  }
});

test('plain http: refused unless allowLocalHttp, and then only to non-public addresses', async () => {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tijori/payin`;
  const privateOnly = createCallbackDispatcher({ allowPrivateNetworks: true });
  const localHttp = createCallbackDispatcher({ allowPrivateNetworks: true, allowLocalHttp: true });
  const publicName = createCallbackDispatcher({ allowPrivateNetworks: true, allowLocalHttp: true, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  try {
    for (const d of [guarded, privateOnly]) assert.equal((await post(local, d)).error, 'https_required');
    assert.deepEqual(received, [], 'nothing was sent without allowLocalHttp');

    const ok = await post(local, localHttp);
    assert.deepEqual({ ok: ok.ok, status: ok.status }, { ok: true, status: 204 });
    assert.deepEqual(received, ['POST /tijori/payin']);

    const literal = await post('http://93.184.216.34/cb', localHttp);
    assert.equal(literal.error, 'address_not_allowed');
    assert.ok(literal.latencyMs < 500, 'refused before connecting');
    assert.equal((await post('http://merchant.example/cb', publicName)).error, 'address_not_allowed');
  } finally {
    await Promise.all([privateOnly.close(), localHttp.close(), publicName.close()]);
    await new Promise((r) => server.close(r));
  }
});
