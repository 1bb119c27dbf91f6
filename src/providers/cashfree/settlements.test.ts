import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signedRupeesToPaise } from './settlements.js';

test("Cashfree's decimal rupees to paise, sign kept, never through a float", () => {
  assert.equal(signedRupeesToPaise(499, 'x'), 49_900);
  assert.equal(signedRupeesToPaise(10.15, 'x'), 1_015);
  assert.equal(signedRupeesToPaise(0.1, 'x'), 10);
  assert.equal(signedRupeesToPaise(-9.98, 'x'), -998);
  assert.throws(() => signedRupeesToPaise(1.234, 'x'), /at most two decimals/);
});
