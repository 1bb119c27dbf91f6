/**
 * The console's scripts and stylesheets go out compressed (issue #28): precompressed by the build
 * (NAME.br, NAME.gz), sent in the encoding the browser accepts, with `Vary: Accept-Encoding` and a
 * year's immutable cache; index.html is never cached.
 */
import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncodings } from '../../src/http/public/console/static.js';
import { startTestService, type TestService } from '../support/service.js';
import { buildConsoleApp } from './browser-support.js';

let ts: TestService;
before(async () => {
  await buildConsoleApp();
  ts = await startTestService();
});
after(() => ts.stop());

const get = (path: string, acceptEncoding?: string) =>
  fetch(`${ts.svc.publicUrl}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

test('Accept-Encoding: tokens with q=0 are refused, * accepts anything', () => {
  assert.deepEqual([...acceptedEncodings('gzip, deflate, br;q=1.0')], ['gzip', 'deflate', 'br']);
  assert.deepEqual([...acceptedEncodings('br;q=0, gzip;q=0.5')], ['gzip']);
  assert.deepEqual([...acceptedEncodings('*')], ['*']);
  assert.deepEqual([...acceptedEncodings(undefined)], []);
});

test('scripts and stylesheets: brotli or gzip as accepted, identity otherwise; the same bytes once decoded', async () => {
  const page = await get('/console/');
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('cache-control'), 'no-store');
  const html = await page.text();
  const assets = [...html.matchAll(/\/console\/assets\/[A-Za-z0-9_-]+\.(?:js|css)/g)].map((m) => m[0]);
  assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), html);
  for (const path of assets) {
    // undici's fetch would decode the body itself: raw bytes are read through the node http client.
    const raw = await rawGet(path, 'identity');
    assert.equal(raw.headers['content-encoding'], undefined, path);
    assert.equal(raw.headers.vary, 'accept-encoding', path);
    assert.equal(raw.headers['cache-control'], 'public, max-age=31536000, immutable', path);

    const br = await rawGet(path, 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br', path);
    assert.equal(br.headers.vary, 'accept-encoding', path);
    assert.ok(br.body.length < raw.body.length / 2, `${path}: ${br.body.length} of ${raw.body.length} bytes`);
    assert.deepEqual(brotliDecompressSync(br.body), raw.body);

    const gz = await rawGet(path, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip', path);
    assert.deepEqual(gunzipSync(gz.body), raw.body);

    const none = await rawGet(path, undefined);
    assert.equal(none.headers['content-encoding'], undefined, path);
  }
  assert.equal((await get(`${assets[0]}.br`)).status, 404, 'the precompressed files are not paths of their own');
});

function rawGet(path: string, acceptEncoding: string | undefined): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${ts.svc.publicUrl}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
