import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../domain/errors.js';
import { IMPS_MAX_PAISE } from '../../domain/payout.js';
import { validateCreatePayout } from './payout-input.js';

const inline = { name: '  Asha Traders ', account_number: '000123456789', ifsc: 'hdfc0000001', mobile: '9876543210', details_confirmation: true };

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError && err.code === 'VALIDATION_FAILED');
    return (err.details ?? []).map((i) => i.field);
  }
  assert.fail('expected VALIDATION_FAILED');
}

test('an inline beneficiary comes back checked, trimmed, with IFSC upper-cased and the bank name', () => {
  const { inline: b } = validateCreatePayout({ beneficiary: inline, amount_paise: 10_000, mode: 'IMPS' });
  assert.equal(b?.name, 'Asha Traders');
  assert.equal(b?.ifsc, 'HDFC0000001');
  assert.match(b?.bankName ?? '', /HDFC/i);
});

test('every issue at once: both beneficiary forms, bad IFSC and mobile, rail limit, long remarks', () => {
  const fields = issuesOf(() =>
    validateCreatePayout({
      beneficiary_id: '0190a8c2-0000-7000-8000-000000000000',
      beneficiary: { ...inline, ifsc: 'ZZZZ0000000', mobile: '12345', details_confirmation: false },
      amount_paise: IMPS_MAX_PAISE + 1,
      mode: 'IMPS',
      remarks: 'x'.repeat(256),
    }),
  );
  assert.deepEqual(fields.sort(), ['amount_paise', 'beneficiary', 'beneficiary.details_confirmation', 'beneficiary.ifsc', 'beneficiary.mobile', 'remarks'].sort());
});

test('neither beneficiary form is refused', () => {
  assert.deepEqual(issuesOf(() => validateCreatePayout({ amount_paise: 10_000, mode: 'NEFT' })), ['beneficiary']);
});
