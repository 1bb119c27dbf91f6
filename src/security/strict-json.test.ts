import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { hasDuplicateKeys, parseJsonStrict } from './strict-json.js';

test('a key named twice in one object is found at any depth, escapes and whitespace included', () => {
  for (const text of [
    '{"a":1,"a":2}',
    '{"a" : 1, "a"\n:2}',
    '{"x":{"y":[{"k":1,"k":1}]}}',
    '[{"a":1},{"b":1,"b":{}}]',
    '{"a\\"b":1,"a\\"b":2}',
    '{"\\u0061":1,"a":2}',
    '{"amount_paise":100,"purpose":"x","amount_paise":100000}',
  ]) {
    assert.equal(hasDuplicateKeys(text, JSON.parse(text)), true, text);
    assert.throws(() => parseJsonStrict(text), SyntaxError, text);
  }
});

test('distinct keys, colons and quotes inside strings, and non-objects pass', () => {
  for (const text of [
    '{"a":1,"b":2}',
    '{"a":"x\\":y","b":"\\\\":1}'.replace('"\\\\":1', '"\\\\"'),
    '{"a":"\\"b\\":1","b":":"}',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":2}]',
    '"a:b"',
    '123',
    '{}',
    '{"k\\\\":"v"}',
  ]) {
    assert.equal(hasDuplicateKeys(text, JSON.parse(text)), false, text);
  }
});

test('property: stringified values never have duplicates; an injected repeat always does', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v, null, Math.random() < 0.5 ? 1 : 0);
      assert.equal(hasDuplicateKeys(text, JSON.parse(text)), false, text);
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.jsonValue(), (obj, extra) => {
      const key = Object.keys(obj)[0]!;
      const text = `{${JSON.stringify(key)}:${JSON.stringify(extra)},${JSON.stringify(obj).slice(1)}`;
      assert.equal(hasDuplicateKeys(text, JSON.parse(text)), true, text);
    }),
    { numRuns: 500 },
  );
});
