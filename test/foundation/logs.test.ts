/**
 * One log line per request with request_id, client id, route, status and latency; planted secrets
 * (client secret, admin token, Authorization header) appear in no log line.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { poll } from '../support/poll.js';
import { startTestService, type TestService } from '../support/service.js';

let ts: TestService;
/** The request lines of these answers, once pino (which writes asynchronously) has written them. */
const linesOf = async (...requestIds: string[]): Promise<any[]> =>
  (await poll(async () => {
    // The request line is the one with its latency (other lines may carry the request id too).
    const lines = requestIds.map((id) => ts.logs.map((l) => JSON.parse(l)).find((l) => l.request_id === id && 'latency_ms' in l));
    return lines.every(Boolean) ? lines : undefined;
  }, { what: `log lines of ${requestIds.join(', ')}`, timeoutMs: 5_000, stepMs: 10 }))!;

before(async () => {
  ts = await startTestService();
});
after(() => ts.stop());

test('request lines carry the fields; secrets are never logged', async () => {
  const c = await ts.createClient({ scopes: ['collections:read'] });
  const r = await ts.api('GET', '/nothing-here', { client: c });
  const planted = await ts.api('GET', '/nothing-here', { headers: { authorization: 'Bearer planted-secret-value-123', 'x-service-client-id': c.clientId } });
  const lines = await linesOf(r.body.request_id, planted.body.request_id);
  const line = lines.find((l) => l.request_id === r.body.request_id);
  assert.ok(line, 'a line for the request');
  for (const field of ['request_id', 'method', 'route', 'status', 'latency_ms']) assert.ok(field in line, field);
  assert.equal(line.status, 404);
  const all = ts.logs.join('\n');
  for (const secret of [c.secret, ts.config.adminToken, 'planted-secret-value-123']) assert.ok(!all.includes(secret), 'secret leaked into logs');
});

test('a merchant-authenticated request line names the client id', async () => {
  const c = await ts.createClient({ scopes: ['collections:read'] });
  const r = await ts.api('GET', '/merchant/payment-orders/00000000-0000-4000-8000-000000000000', { client: c });
  assert.equal(r.status, 404);
  const [line] = await linesOf(r.body.request_id);
  assert.equal(line?.client_id, c.clientId);
  assert.equal(line?.route, '/api/v1/merchant/payment-orders/:order');
  assert.ok(!ts.logs.join('\n').includes(c.secret));
});
