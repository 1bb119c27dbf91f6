/**
 * Answers that do not come from a route still use the envelope (issue 16 item 10): headers over
 * Node's limit (431, answered before Fastify has a request) and a known path asked with another
 * method (405 with Allow), on the public API, the checkout and the internal listener.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
before(async () => {
  ts = await startTestService();
});
after(() => ts?.stop());

/** One raw HTTP/1.1 exchange (fetch refuses to send oversized headers in some builds). */
function rawRequest(baseUrl: string, head: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(head);
  });
}

function envelopeOf(raw: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

for (const listener of ['public', 'internal'] as const) {
  test(`headers over the limit → 431 HEADERS_TOO_LARGE in the envelope with a request_id (${listener} listener)`, async () => {
    const url = listener === 'public' ? ts.svc.publicUrl : ts.svc.internalUrl;
    const raw = await rawRequest(url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const r = envelopeOf(raw);
    assert.equal(r.status, 431);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, 'HEADERS_TOO_LARGE');
    assert.match(r.body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.error.request_id, r.body.request_id);
    assert.equal(r.headers['x-request-id'], r.body.request_id);
    assert.match(r.headers['content-type']!, /^application\/json/);
  });
}

test('a known path with another method → 405 METHOD_NOT_ALLOWED with Allow (merchant API, checkout, internal)', async () => {
  const cases: Array<[string, string, string]> = [
    [`${ts.svc.publicUrl}/api/v1/merchant/payment-orders`, 'DELETE', 'GET, HEAD, POST'],
    [`${ts.svc.publicUrl}/api/v1/merchant/payment-orders/00000000-0000-4000-8000-000000000000`, 'DELETE', 'GET, HEAD'],
    [`${ts.svc.publicUrl}/api/v1/merchant/payouts/x?y=1`, 'PUT', 'GET, HEAD'],
    [`${ts.svc.publicUrl}/checkout/abcdefghijklmnopqrst/status`, 'POST', 'GET, HEAD'],
    [`${ts.svc.publicUrl}/checkout/abcdefghijklmnopqrst/details`, 'GET', 'POST'],
    [`${ts.svc.publicUrl}/healthz`, 'POST', 'GET, HEAD'],
    [`${ts.svc.internalUrl}/provider/sandbox/callbacks`, 'GET', 'POST'],
    [`${ts.svc.internalUrl}/admin/orgs`, 'DELETE', 'GET, HEAD, POST'],
  ];
  for (const [url, method, allow] of cases) {
    const res = await fetch(url, { method });
    const body = (await res.json()) as any;
    assert.equal(res.status, 405, `${method} ${url}`);
    assert.equal(res.headers.get('allow'), allow, `${method} ${url}`);
    assert.equal(body.error.code, 'METHOD_NOT_ALLOWED');
    assert.equal(body.request_id, res.headers.get('x-request-id'));
  }
  // An unknown path is still 404, with no Allow.
  const unknown = await fetch(`${ts.svc.publicUrl}/api/v1/merchant/nothing-here`, { method: 'GET' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get('allow'), null);
  assert.equal(((await unknown.json()) as any).error.code, 'NOT_FOUND');
});

test('405 comes before the body is read: a body-less QUERY, or a PUT with a body that is not JSON, is 405 with Allow', async () => {
  const url = new URL(`${ts.svc.publicUrl}/api/v1/merchant/payment-orders`);
  const cases = [
    `QUERY ${url.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    `PUT ${url.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`,
    `PATCH ${url.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{bad}`,
  ];
  for (const head of cases) {
    const r = envelopeOf(await rawRequest(ts.svc.publicUrl, head));
    assert.equal(r.status, 405, head.split('\r\n')[0]);
    assert.equal(r.headers['allow'], 'GET, HEAD, POST');
    assert.equal(r.body.error.code, 'METHOD_NOT_ALLOWED');
  }
});

test('what Node cannot parse (unknown method, malformed request line, HTTP/9.9) → 400 MALFORMED_REQUEST in the envelope with a request_id', async () => {
  for (const line of ['FROB /api/v1/merchant/payment-orders HTTP/1.1', 'GET /api/v1/merchant/payment-orders HTTP/9.9', 'GET  HTTP/1.1', 'this is not http']) {
    const r = envelopeOf(await rawRequest(ts.svc.publicUrl, `${line}\r\nHost: x\r\n\r\n`));
    assert.equal(r.status, 400, line);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, 'MALFORMED_REQUEST', line);
    assert.match(r.body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(r.headers['x-request-id'], r.body.request_id);
  }
});
