import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIndianMobile, normaliseIndianMobile, PHONE_INPUT_MAX_LENGTH } from './phone.js';

test('usual spellings of an Indian mobile number normalise to its 10 digits', () => {
  for (const spelling of ['9876543210', '+91 98765 43210', '+91-98765-43210', '+919876543210', '91 98765 43210', '919876543210', '098765 43210', '09876543210', '(987) 654-3210', '98765.43210', ' 98765\u00a043210 ']) {
    assert.equal(normaliseIndianMobile(spelling), '9876543210', JSON.stringify(spelling));
  }
});

test('anything else is not a mobile number: landline shapes, other countries, too few or many digits, two prefixes', () => {
  for (const bad of ['', '12345 67890', '+91 12345 67890', '+44 7911 123456', '98765 4321', '9876543210 1', '+91 0 98765 43210', '0091 98765 43210', '+9198765432101', 'abcdefghij', '9876５43210', '9'.repeat(PHONE_INPUT_MAX_LENGTH + 1)]) {
    assert.equal(normaliseIndianMobile(bad), null, JSON.stringify(bad));
  }
});

test('the stored form is only the bare 10 digits', () => {
  assert.equal(isIndianMobile('9876543210'), true);
  assert.equal(isIndianMobile('+919876543210'), false);
  assert.equal(isIndianMobile('09876543210'), false);
});
