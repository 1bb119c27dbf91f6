import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callbackHeaders, signCallback } from './signature.js';

// Expected values computed independently with `printf ... | openssl dgst -sha256 -hmac SECRET`.
const vectors: Array<{ name: string; secret: string; timestamp: number; rawBody: string | Buffer; hex: string }> = [
  {
    name: 'ASCII JSON',
    secret: 'whsec_test_123',
    timestamp: 1700000000,
    rawBody: '{"event":"payout.success","event_id":"3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b"}',
    hex: 'c5668b4ccda48eff82433f4f8ff0dbc16e3acd31c1f8ea606b08402af9d321cd',
  },
  {
    name: 'non-ASCII UTF-8 body and secret',
    secret: 'тайна-ключ',
    timestamp: 1712345678,
    rawBody: '{"data":{"name":"राम कुमार","note":"₹500 — café"}}',
    hex: '9f87972704c26eb6b3928c8eb5615a96eb1b6d0f7b41c8a14520d86ae77c4caf',
  },
  { name: 'empty body', secret: 'k', timestamp: 0, rawBody: '', hex: '6b4a4b8b3c40f1e8f53a3d36682e5f99f7ad2ac1df1c93dfe336f329167641e7' },
  {
    name: 'trailing newline is part of the body',
    secret: 'whsec_test_123',
    timestamp: 1700000000,
    rawBody: '{"a":1}\n',
    hex: '09f5a311a11aebe14717919bf25f08dcd549feeca8fe49117e415cb1ed371fef',
  },
  {
    name: 'Buffer with bytes that are not UTF-8 is signed byte for byte',
    secret: 'whsec_test_123',
    timestamp: 1700000000,
    rawBody: Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
    hex: '8fa96a807410b247d70509fe023ff0f9a94e17eb7d376f2094c2912c8e7082a5',
  },
];

for (const v of vectors) {
  test(`signCallback vector: ${v.name}`, () => {
    assert.equal(signCallback({ secret: v.secret, timestamp: v.timestamp, rawBody: v.rawBody }), `v1=${v.hex}`);
  });
}

test('a string body and its UTF-8 Buffer sign the same', () => {
  const body = '{"data":{"name":"राम कुमार","note":"₹500 — café"}}';
  const a = signCallback({ secret: 's', timestamp: 1, rawBody: body });
  const b = signCallback({ secret: 's', timestamp: 1, rawBody: Buffer.from(body, 'utf8') });
  assert.equal(a, b);
});

test('signature is lowercase hex with the v1= prefix', () => {
  assert.match(signCallback({ secret: 's', timestamp: 1, rawBody: 'x' }), /^v1=[0-9a-f]{64}$/);
});

test('signCallback refuses timestamps without a single decimal spelling, and empty secrets', () => {
  for (const timestamp of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
    assert.throws(() => signCallback({ secret: 's', timestamp, rawBody: '' }), TypeError);
  }
  assert.throws(() => signCallback({ secret: '', timestamp: 1, rawBody: '' }), TypeError);
});

test('callbackHeaders carries event id, timestamp, signature and content type', () => {
  const v = vectors[0]!;
  const h = callbackHeaders({ eventId: 'evt-1', secret: v.secret, rawBody: v.rawBody, nowSeconds: v.timestamp });
  assert.deepEqual(h, {
    'Content-Type': 'application/json',
    'X-Service-Event-Id': 'evt-1',
    'X-Service-Timestamp': '1700000000',
    'X-Service-Signature': `v1=${v.hex}`,
  });
});

test('callbackHeaders defaults the timestamp to now', () => {
  const before = Math.floor(Date.now() / 1000);
  const h = callbackHeaders({ eventId: 'e', secret: 's', rawBody: '{}' });
  const ts = Number(h['X-Service-Timestamp']);
  assert.ok(ts >= before && ts <= Math.floor(Date.now() / 1000));
  assert.equal(h['X-Service-Signature'], signCallback({ secret: 's', timestamp: ts, rawBody: '{}' }));
});
