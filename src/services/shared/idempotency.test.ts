import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, fingerprint } from './idempotency.js';

test('canonical JSON ignores key order but not values', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
  const base = { clientPk: 'c', key: 'k', method: 'POST', path: '/p' };
  assert.equal(fingerprint({ ...base, body: { a: 1, b: 2 } }), fingerprint({ ...base, body: { b: 2, a: 1 } }));
  assert.notEqual(fingerprint({ ...base, body: { a: 1 } }), fingerprint({ ...base, body: { a: 2 } }));
  assert.notEqual(fingerprint({ ...base, body: { a: 1 } }), fingerprint({ ...base, path: '/q', body: { a: 1 } }));
});
