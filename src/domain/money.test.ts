import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AMOUNT_MAX_PAISE,
  AMOUNT_MIN_PAISE,
  formatInr,
  isValidAmountPaise,
  paiseToRupeeString,
  rupeeStringToPaise,
} from './money.js';

test('paiseToRupeeString always gives two decimals', () => {
  assert.equal(paiseToRupeeString(49_900), '499.00');
  assert.equal(paiseToRupeeString(5), '0.05');
  assert.equal(paiseToRupeeString(50), '0.50');
  assert.equal(paiseToRupeeString(0), '0.00');
  assert.equal(paiseToRupeeString(100), '1.00');
  assert.equal(paiseToRupeeString(AMOUNT_MAX_PAISE), '100000000.00');
  assert.equal(paiseToRupeeString(Number.MAX_SAFE_INTEGER), '90071992547409.91');
});

test('paiseToRupeeString rejects fractions, negatives and unsafe integers', () => {
  for (const bad of [1.5, -1, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1]) {
    assert.throws(() => paiseToRupeeString(bad), RangeError);
  }
});

test('rupeeStringToPaise accepts only the canonical form', () => {
  assert.equal(rupeeStringToPaise('499.00'), 49_900);
  assert.equal(rupeeStringToPaise('0.05'), 5);
  for (const bad of ['499', '499.0', '499.000', '-1.00', '01.00', '1,000.00', ' 1.00', '1e3.00', '']) {
    assert.equal(rupeeStringToPaise(bad), null, bad);
  }
});

test('rupee string round-trips and equals paise / 100 for every amount', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: AMOUNT_MAX_PAISE }), (paise) => {
      const rupees = paiseToRupeeString(paise);
      assert.match(rupees, /^\d+\.\d{2}$/);
      assert.equal(rupeeStringToPaise(rupees), paise);
      assert.equal(Number(rupees), paise / 100);
    }),
  );
});

test('formatInr groups digits the Indian way', () => {
  assert.equal(formatInr(0), '₹0.00');
  assert.equal(formatInr(5), '₹0.05');
  assert.equal(formatInr(99_999), '₹999.99');
  assert.equal(formatInr(100_000), '₹1,000.00');
  assert.equal(formatInr(10_000_050), '₹1,00,000.50');
  assert.equal(formatInr(50_000_000), '₹5,00,000.00');
  assert.equal(formatInr(1_234_567_899), '₹1,23,45,678.99');
  assert.equal(formatInr(AMOUNT_MAX_PAISE), '₹10,00,00,000.00');
  assert.throws(() => formatInr(-100), RangeError);
});

// Builds without full ICU fall back to Western grouping; the hand-written cases above still run.
const hasIndianLocale = (100_000).toLocaleString('en-IN') === '1,00,000';

test('formatInr matches the en-IN locale grouping', { skip: !hasIndianLocale }, () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: AMOUNT_MAX_PAISE }), (paise) => {
      const digits = formatInr(paise).slice(1).replace(/,/g, '');
      assert.equal(digits, paiseToRupeeString(paise));
      const whole = formatInr(paise).slice(1, -3);
      assert.equal(whole, BigInt(Math.floor(paise / 100)).toLocaleString('en-IN'));
    }),
  );
});

test('isValidAmountPaise enforces the API range on integers only', () => {
  assert.equal(isValidAmountPaise(AMOUNT_MIN_PAISE), true);
  assert.equal(isValidAmountPaise(AMOUNT_MAX_PAISE), true);
  for (const bad of [99, AMOUNT_MAX_PAISE + 1, 100.5, '100', null, Number.NaN]) {
    assert.equal(isValidAmountPaise(bad), false, String(bad));
  }
});
