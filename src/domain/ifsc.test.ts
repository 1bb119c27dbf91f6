import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookupIfsc } from './ifsc.js';

// Every code below was checked against node_modules/ifsc/src (ifsc 2.0.50), not guessed.

test('real branches of large banks resolve to the bank', () => {
  assert.deepEqual(lookupIfsc('HDFC0000001'), { ifsc: 'HDFC0000001', bankCode: 'HDFC', bankName: 'HDFC Bank' });
  assert.deepEqual(lookupIfsc('SBIN0000001'), { ifsc: 'SBIN0000001', bankCode: 'SBIN', bankName: 'State Bank of India' });
  assert.equal(lookupIfsc('KKBK0000261')?.bankName, 'Kotak Mahindra Bank');
  assert.equal(lookupIfsc('UTIB0000001')?.bankName, 'Axis Bank');
});

test('sub-member branches report the bank holding the account', () => {
  // NPCI sub-member list (sublet.json): an HDFC code leased to a co-operative bank.
  assert.deepEqual(lookupIfsc('HDFC0CKUB01'), {
    ifsc: 'HDFC0CKUB01', bankCode: 'HDFC', bankName: 'Khamgaon Urban Co-operative Bank',
  });
  // Manual prefixes (custom-sublets.json): a prefix -> bank code, and a prefix -> literal name.
  assert.equal(lookupIfsc('UJVN0000001')?.bankName, 'Ujjivan Small Finance Bank');
  assert.equal(lookupIfsc('YESB0AMALCO')?.bankName, 'Amalner Urban Co-operative Bank');
});

test('a listed bank without a name in the dataset falls back to its code', () => {
  assert.deepEqual(lookupIfsc('ADBK0000001'), { ifsc: 'ADBK0000001', bankCode: 'ADBK', bankName: 'ADBK' });
});

test('well-formed codes of an unknown branch or bank are not valid', () => {
  assert.equal(lookupIfsc('HDFC0123456'), null);
  assert.equal(lookupIfsc('HDFC0000000'), null);
  assert.equal(lookupIfsc('HDFC0ZZZZZZ'), null);
  assert.equal(lookupIfsc('ZZZZ0000001'), null);
});

test('bad formats and lowercase are refused, never repaired', () => {
  for (const bad of ['', 'HDFC1000001', 'HDFC000001', 'HDFC00000001', 'hdfc0000001', 'HDFC0cKUB01',
    ' HDFC0000001', 'HDFC0000001 ', 'HDF10000001', 'HDFC-000001', 'HDFC0000001\n', 'toString000', '__proto__']) {
    assert.equal(lookupIfsc(bad), null, JSON.stringify(bad));
  }
});

test('look-ups are fast once loaded', () => {
  lookupIfsc('SBIN0000001');
  const started = performance.now();
  for (let i = 0; i < 10_000; i += 1) lookupIfsc(`SBIN0${String(i).padStart(6, '0')}`);
  assert.ok(performance.now() - started < 500, 'ten thousand look-ups should take well under a second');
});
