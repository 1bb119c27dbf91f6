/**
 * Property-based fuzzing of every merchant route from the OpenAPI document: malformed and hostile
 * requests (wrong types, huge numbers, deep JSON, unicode, oversized bodies, broken JSON, missing
 * or bad headers). Properties: never a 5xx; every answer is the error or success envelope with a
 * request_id. FUZZ_RUNS sets the number of requests (default 600 here; `npm run test:faults`
 * runs 10,000).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

let ts: TestService;
let client: TestClient;
let operations: { method: string; path: string; body: any }[] = [];

before(async () => {
  // Three of four fuzzed requests fail authentication: keep them reaching the routes.
  ts = await startTestService({ AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000' });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  const doc = (await ts.api('GET', '/openapi.json')).body;
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      operations.push({ method: method.toUpperCase(), path, body });
    }
  }
  operations = operations.filter((o) => o.path.startsWith('/merchant'));
});
after(() => ts.stop());

/** Values of the wrong type, of extreme size, or hostile. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53, 2 ** 63, 1.5, Number.MAX_SAFE_INTEGER + 2, '', ' ', '0', '100', 'NaN', '\u0000', '\ud800', '🙂'.repeat(300)),
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
);

/** A body derived from the schema: valid-looking fields with some replaced or removed. */
function bodyFrom(schema: any): fc.Arbitrary<unknown> {
  const props = Object.keys(schema?.properties ?? {});
  const field = props.length > 0 ? fc.constantFrom(...props) : fc.string({ maxLength: 12 });
  return fc.oneof(
    fc.dictionary(field, hostileValue, { maxKeys: Math.max(1, props.length) }),
    fc.record({ amount_paise: hostileValue, purpose: hostileValue, response_mode: hostileValue, beneficiary: fc.oneof(hostileValue, fc.dictionary(fc.constantFrom('name', 'account_number', 'ifsc', 'mobile', 'details_confirmation'), hostileValue)) }, { requiredKeys: [] }),
    fc.dictionary(fc.constantFrom('card_number', 'upi_pin', 'otp', 'cvv', '__proto__', 'constructor'), hostileValue, { maxKeys: 2 }),
  );
}

/**
 * Valid create bodies, each of which the 'near' kind sends with one string field spoiled by a
 * character that is legal JSON but hostile to storage, signing or display (U+0000, a lone
 * surrogate, a control or bidi character): the inputs that pass the schema and must be caught by
 * validation, not by PostgreSQL (a 500 found this way: a NUL inside a valid CHECKOUT purpose).
 */
const VALID_BODIES: Record<string, Record<string, unknown>[]> = {
  '/merchant/payment-orders': [
    { amount_paise: 49_900, purpose: 'Order 1001', merchant_order_reference: 'INV-1001', callback_url: 'https://merchant.example/cb', callback_secret: 's'.repeat(40) },
    { amount_paise: 49_900, purpose: 'Order 1002', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true },
  ],
  '/merchant/payouts': [
    { amount_paise: 10_000, mode: 'IMPS', client_reference: 'PO-1', remarks: 'Refund', beneficiary: { name: 'Asha Rao', account_number: '123456789012', ifsc: 'SBIN0000001' } },
  ],
};
const hostileChar = fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0007', '\u202e', '\u2028', '\ufeff', '\uffff');
function nearValid(path: string): fc.Arbitrary<unknown> | null {
  const bases = VALID_BODIES[path];
  if (!bases) return null;
  return fc.record({ base: fc.constantFrom(...bases), pick: fc.nat(), at: fc.nat(), ch: hostileChar }).map(({ base, pick, at, ch }) => {
    const body = structuredClone(base) as Record<string, any>;
    const fields: Array<[Record<string, any>, string]> = [];
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string') fields.push([body, k]);
      if (v && typeof v === 'object') for (const [k2, v2] of Object.entries(v)) if (typeof v2 === 'string') fields.push([v as Record<string, any>, k2]);
    }
    const [obj, key] = fields[pick % fields.length]!;
    const text = obj[key] as string;
    const i = at % (text.length + 1);
    obj[key] = text.slice(0, i) + ch + text.slice(i);
    return body;
  });
}

const deepJson = fc.integer({ min: 50, max: 5000 }).map((d) => '['.repeat(d) + ']'.repeat(d));
const brokenJson = fc.constantFrom('{', '{"a":}', 'nul', '{"amount_paise": 1e999999}', '\u0000', '{"a":"\ud800"}', 'x'.repeat(70_000), `{"p":"${'a'.repeat(66_000)}"}`);

/** A body that names one of its keys twice (the last one differing): always 400 INVALID_JSON. */
function duplicated(schema: any): fc.Arbitrary<string> {
  return fc.record({ body: bodyFrom(schema), value: hostileValue }).map(({ body, value }) => {
    const text = JSON.stringify(body);
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    const key = keys[0] ?? 'amount_paise';
    return `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'},${keys.length > 0 ? text.slice(1) : `${JSON.stringify(key)}:1}`}`;
  });
}

type Req = { op: number; kind: string; auth: string; path: string; raw?: string; body?: unknown; headers: Record<string, string>; contentType: string };

function requestArb(): fc.Arbitrary<Req> {
  return fc
    .record({
      op: fc.nat({ max: operations.length - 1 }),
      param: fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constantFrom('..', '%00', '%2e%2e%2f', 'ord_' + 'x'.repeat(250))),
      kind: fc.constantFrom('schema', 'near', 'deep', 'broken', 'duplicate'),
      auth: fc.constantFrom('ok', 'none', 'wrong', 'garbage'),
      key: fc.constantFrom('ok', 'missing', 'bad'),
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''),
    })
    .chain((r) => {
      const op = operations[r.op] as { method: string; path: string; body: any };
      const near = r.kind === 'near' && op.method === 'POST' ? nearValid(op.path) : null;
      const bodyArb = near
        ? near.map((b) => ({ body: b }))
        : r.kind === 'schema' || r.kind === 'near'
          ? bodyFrom(op.body).map((b) => ({ body: b }))
          : (r.kind === 'deep' ? deepJson : r.kind === 'duplicate' ? duplicated(op.body) : brokenJson).map((raw) => ({ raw }));
      return bodyArb.map((b) => {
        const headers: Record<string, string> = {};
        if (r.auth !== 'none') {
          headers['x-service-client-id'] = r.auth === 'garbage' ? '\u00ff'.repeat(50) : client.clientId;
          headers.authorization = r.auth === 'ok' ? `Bearer ${client.secret}` : r.auth === 'wrong' ? 'Bearer nope' : 'Basic ' + 'x'.repeat(300);
        }
        if (op.method === 'POST' && r.key !== 'missing') headers['idempotency-key'] = r.key === 'ok' ? crypto.randomUUID() : 'not-a-uuid';
        const path = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(r.param));
        return { op: r.op, kind: r.kind, auth: r.auth, path, headers, contentType: r.contentType, ...b } as Req;
      });
    });
}

test('no fuzzed request gets a 5xx or an answer outside the envelope', { timeout: 600_000 }, async () => {
  assert.ok(operations.length >= 1, 'the OpenAPI document lists merchant routes');
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(requestArb(), async (req) => {
      const op = operations[req.op] as { method: string };
      const headers = { ...req.headers };
      if (req.contentType) headers['content-type'] = req.contentType;
      const hasBody = op.method !== 'GET';
      const res = await fetch(`${ts.svc.publicUrl}/api/v1${req.path}`, {
        method: op.method,
        headers,
        ...(hasBody ? { body: req.raw ?? JSON.stringify(req.body) } : {}),
      });
      sent++;
      const text = await res.text();
      assert.ok(res.status < 500, `${op.method} ${req.path} → ${res.status}: ${text.slice(0, 300)}`);
      const body = JSON.parse(text);
      assert.equal(typeof body.request_id, 'string');
      if (res.status >= 400) {
        assert.equal(body.success, false);
        assert.equal(typeof body.error.code, 'string');
        assert.equal(body.error.request_id, body.request_id);
      } else {
        assert.equal(body.success, true);
      }
      if (req.kind === 'duplicate' && req.auth === 'ok' && hasBody && req.contentType.startsWith('application/json') && res.status !== 404) {
        assert.equal(body.error?.code, 'INVALID_JSON', `duplicate key: ${req.raw} → ${res.status} ${text.slice(0, 200)}`);
      }
    }),
    { numRuns: RUNS },
  );
  assert.equal(sent, RUNS);
  const fivexx = ts.logs.filter((l) => l.includes('"status":5'));
  assert.equal(fivexx.length, 0, fivexx.slice(0, 3).join('\n'));
  console.log(`fuzz: ${sent} requests over ${operations.length} operations, 0 5xx`);
});
