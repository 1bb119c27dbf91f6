import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../domain/errors.js';
import { findSensitiveField, rejectSensitiveData } from './sensitive-data.js';

test('finds card numbers, PINs and OTPs wherever they are', () => {
  assert.equal(findSensitiveField({ card_number: '4111' }), 'card_number');
  assert.equal(findSensitiveField({ a: { b: [{ cvv: '1' }] } }), 'a.b[0].cvv');
  assert.equal(findSensitiveField({ upiPin: '1234' }), 'upiPin');
  assert.equal(findSensitiveField({ 'upi-pin': '1234' }), 'upi-pin');
  assert.equal(findSensitiveField({ customer_otp: '1' }), 'customer_otp');
  assert.equal(findSensitiveField({ OTP: '1' }), 'OTP');
  assert.equal(findSensitiveField({ purpose: 'card number 4111', amount_paise: 100 }), null);
  assert.equal(findSensitiveField({ beneficiary: { account_number: '12345678' } }), null);
});

test('rejects with SENSITIVE_DATA_REJECTED and names the field', () => {
  assert.throws(
    () => rejectSensitiveData({ pan: 'x' }),
    (e: unknown) => e instanceof AppError && e.code === 'SENSITIVE_DATA_REJECTED' && e.details?.[0]?.field === 'pan',
  );
  assert.doesNotThrow(() => rejectSensitiveData({ amount_paise: 100 }));
});
