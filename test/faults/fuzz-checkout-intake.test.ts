/**
 * Fuzzing beyond the merchant API (issue 8 §4): the hosted checkout's JSON endpoints
 * (/checkout/:token/status|details|reference|simulate) with real and forged tokens, and the
 * internal provider callback intake with unsigned, badly signed and validly signed hostile bodies.
 * Properties: never a 5xx; every JSON answer is the envelope with a request_id; the intake answers
 * 401 to anything whose signature does not verify. FUZZ_RUNS requests each (600 in `npm test`,
 * 10,000 in `npm run test:faults`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import { startTestService, type TestService } from '../support/service.js';
import { report } from './helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

let ts: TestService;
const tokens: string[] = [];
before(async () => {
  // Thousands of checkout requests from one address: the per-address checkout limit has its own test.
  ts = await startTestService({ CHECKOUT_RATE_LIMIT_PER_MINUTE: '1000000' });
  const client = await ts.createClient({ rateLimit: 1_000_000 });
  for (let i = 0; i < 3; i++) {
    const o = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000 + i, purpose: 'fuzz' } });
    tokens.push(String(o.body.data.checkout_url).split('/checkout/')[1]!);
  }
});
after(() => ts?.stop());

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e308, 2 ** 63, '', '\u0000', '\ud800', '🙂'.repeat(200), 'pay', 'fail', '9876543210', 'a@b.in', 'x'.repeat(5000)),
  fc.string({ maxLength: 200, unit: 'binary' }),
  fc.integer(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);
const FIELDS = ['customer_name', 'customer_email', 'customer_phone', 'customer_consent', 'payer_reference', 'outcome', 'upi_pin', 'otp', 'card_number', '__proto__'];
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), hostile, { maxKeys: 5 }).map((b) => JSON.stringify(b)),
  fc.constantFrom('{', 'null', '[]', '"x"', '{"outcome":"pay"}', '{"payer_reference":"123456789012"}', '['.repeat(3000) + ']'.repeat(3000), `{"a":"${'a'.repeat(70_000)}"}`),
);

async function send(url: string, method: string, headers: Record<string, string>, payload?: string) {
  const res = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body: payload ?? '' }) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

function envelopeIssue(r: { status: number; type: string; text: string }): string | null {
  if (r.status >= 500) return `${r.status}: ${r.text.slice(0, 200)}`;
  if (!r.type.includes('application/json')) return null; // the HTML page itself is not under test here
  const b = JSON.parse(r.text);
  if (typeof b.request_id !== 'string') return `no request_id: ${r.text.slice(0, 200)}`;
  if (r.status >= 400 && (b.success !== false || b.error?.request_id !== b.request_id || typeof b.error?.code !== 'string')) return `not the error envelope: ${r.text.slice(0, 200)}`;
  return null;
}

test('fuzzed checkout JSON endpoints: no 5xx, always the envelope', { timeout: 600_000 }, async () => {
  const started = Date.now();
  const token = fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 140 }), fc.constantFrom('..', '%00', 'a'.repeat(16), 'A'.repeat(129)), fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/));
  const endpoint = fc.constantFrom(['GET', 'status'], ['POST', 'details'], ['POST', 'reference'], ['POST', 'simulate']);
  const ctype = fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', '');
  let sent = 0;
  const statuses: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(token, endpoint, body, ctype, async (t, [method, step], payload, type) => {
      const r = await send(`${ts.svc.publicUrl}/checkout/${encodeURIComponent(t)}/${step}`, method!, type ? { 'content-type': type } : {}, payload);
      sent++;
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      assert.equal(envelopeIssue(r), null);
    }),
    { numRuns: RUNS },
  );
  report('fuzz-checkout', { operations: sent, statuses, violations: 0, ms: Date.now() - started });
});

test('fuzzed provider callback intake: unsigned or badly signed → 401, signed garbage never a 5xx', { timeout: 600_000 }, async () => {
  const started = Date.now();
  const secret = sandboxSigningSecret(ts.config.masterKey);
  const callbackBody = fc.oneof(
    body,
    fc.record({ id: fc.oneof(fc.uuid(), hostile), type: fc.oneof(fc.constantFrom('collection.updated', 'payout.updated', 'x'), hostile), reference: fc.oneof(fc.constantFrom('ORD1', 'txn_x'), hostile), status: fc.oneof(fc.constantFrom('SUCCESS', 'FAILED', 'PENDING'), hostile), utr: hostile, paid_at: hostile, processed_at: hostile }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
  );
  const signing = fc.constantFrom('none', 'garbage', 'wrong-key', 'stale', 'valid');
  let sent = 0;
  const statuses: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(callbackBody, signing, fc.constantFrom('sandbox', 'other'), async (raw, how, provider) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (how === 'garbage') headers['x-sandbox-signature'] = 't=1,v1=zz';
      if (how === 'wrong-key') headers['x-sandbox-signature'] = signSandboxBody('not the key', raw);
      if (how === 'stale') headers['x-sandbox-signature'] = signSandboxBody(secret, raw, Math.floor(Date.now() / 1000) - 3600);
      if (how === 'valid') headers['x-sandbox-signature'] = signSandboxBody(secret, raw);
      const r = await send(`${ts.svc.internalUrl}/provider/${provider}/callbacks`, 'POST', headers, raw);
      sent++;
      statuses[`${how}:${r.status}`] = (statuses[`${how}:${r.status}`] ?? 0) + 1;
      assert.ok(r.status < 500, `${how} → ${r.status}: ${r.text.slice(0, 200)}`);
      if (provider === 'sandbox' && how !== 'valid' && raw.length <= 64 * 1024) assert.equal(r.status, 401, `${how} → ${r.status}: ${r.text.slice(0, 200)}`);
      if (r.status >= 400) assert.equal(envelopeIssue(r), null);
    }),
    { numRuns: RUNS },
  );
  const fivexx = ts.logs.filter((l) => l.includes('"status":5'));
  report('fuzz-intake', { operations: sent, statuses, log_5xx: fivexx.length, violations: fivexx.length, ms: Date.now() - started });
  assert.equal(fivexx.length, 0, fivexx.slice(0, 3).join('\n'));
});

for (const [what, fields] of [
  ['U+0000', { id: '\u0000' }],
  ['a lone surrogate in its id', { id: '\ud800' }],
  ['a lone surrogate in its reference', { reference: 'ORD\udc00' }],
  ['a lone surrogate in its failure reason', { failure_reason: 'x\ud83d' }],
] as const) {
  test(`a validly signed callback carrying ${what} is refused with 422, not a 500 (regression)`, async () => {
    const base: Record<string, unknown> = { id: randomUUID(), type: 'collection.updated', reference: 'ORD1', status: 'FAILED' };
    const raw = JSON.stringify({ ...base, ...fields });
    const res = await fetch(`${ts.svc.internalUrl}/provider/sandbox/callbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxBody(sandboxSigningSecret(ts.config.masterKey), raw) },
      body: raw,
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.equal(body.error.code, 'VALIDATION_FAILED');
  });
}
