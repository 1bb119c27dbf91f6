import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AppError } from './errors.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE, rupeeStringToPaise } from './money.js';
import {
  buildUpiIntent,
  isValidVpa,
  parseUpiIntent,
  truncateNote,
  upiIntentIssues,
  UPI_NOTE_MAX_CHARS,
} from './upi-intent.js';
import type { UpiIntentInput } from './upi-intent.js';

const base: UpiIntentInput = {
  payeeVpa: 'tijori.merchant@okaxis',
  payeeName: 'Acme Stores',
  amountPaise: 49_900,
  transactionRef: 'ORD12345',
  note: 'Order ORD12345',
};

test('builds the exact string with a stable parameter order', () => {
  assert.equal(
    buildUpiIntent(base),
    'upi://pay?pa=tijori.merchant@okaxis&pn=Acme%20Stores&am=499.00&cu=INR&tr=ORD12345&tn=Order%20ORD12345',
  );
  assert.equal(
    buildUpiIntent({ ...base, merchantCategoryCode: '5411', note: undefined, amountPaise: 105 }),
    'upi://pay?pa=tijori.merchant@okaxis&pn=Acme%20Stores&mc=5411&am=1.05&cu=INR&tr=ORD12345',
  );
});

test('encodes reserved characters in values and never uses +', () => {
  const uri = buildUpiIntent({ ...base, payeeName: 'A&B = C+D #1 ₹', note: 'x?y/z 50%' });
  assert.ok(uri.includes('pn=A%26B%20%3D%20C%2BD%20%231%20%E2%82%B9'));
  assert.ok(uri.includes('tn=x%3Fy%2Fz%2050%25'));
  assert.deepEqual(parseUpiIntent(uri), {
    pa: base.payeeVpa, pn: 'A&B = C+D #1 ₹', am: '499.00', cu: 'INR', tr: 'ORD12345', tn: 'x?y/z 50%',
  });
});

test('notes are cut to 50 code points without splitting a surrogate pair', () => {
  const emoji = '😀'.repeat(60);
  assert.equal(truncateNote(emoji), '😀'.repeat(UPI_NOTE_MAX_CHARS));
  assert.equal(truncateNote(`${'a'.repeat(49)}😀b`), `${'a'.repeat(49)}😀`);
  assert.equal(truncateNote('short'), 'short');
  assert.equal(truncateNote('bad \ud800 half'), 'bad \uFFFD half');
  const uri = buildUpiIntent({ ...base, note: emoji });
  assert.equal(parseUpiIntent(uri).tn, '😀'.repeat(UPI_NOTE_MAX_CHARS));
});

test('validates every input field', () => {
  const bad: UpiIntentInput = {
    payeeVpa: 'no-at-sign', payeeName: '  ', amountPaise: 99.5, transactionRef: 'has-dash', merchantCategoryCode: '541',
  };
  assert.deepEqual(upiIntentIssues(bad).map((i) => i.field),
    ['payeeVpa', 'payeeName', 'amountPaise', 'transactionRef', 'merchantCategoryCode']);
  assert.throws(() => buildUpiIntent(bad), (err: unknown) => err instanceof AppError && err.code === 'VALIDATION_FAILED');
  assert.deepEqual(upiIntentIssues({ ...base, transactionRef: 'A'.repeat(35) }), []);
  assert.equal(upiIntentIssues({ ...base, transactionRef: 'A'.repeat(36) })[0]?.field, 'transactionRef');
  assert.equal(upiIntentIssues({ ...base, transactionRef: '' })[0]?.field, 'transactionRef');
  assert.equal(upiIntentIssues({ ...base, merchantCategoryCode: '54111' })[0]?.field, 'merchantCategoryCode');
  assert.equal(upiIntentIssues({ ...base, payeeName: 'x\udc00' })[0]?.field, 'payeeName');
  assert.equal(upiIntentIssues({ ...base, payeeName: 'x\u0000y' })[0]?.field, 'payeeName');
  assert.equal(upiIntentIssues({ ...base, amountPaise: AMOUNT_MAX_PAISE + 1 })[0]?.field, 'amountPaise');
});

test('VPA shape', () => {
  for (const ok of ['ab@ok', 'first.last-1_x@okhdfcbank', `${'a'.repeat(256)}@ybl`]) assert.equal(isValidVpa(ok), true, ok);
  for (const bad of ['a@ok', 'ab@o', 'ab@ok1', 'a b@ok', 'ab@@ok', 'ab', '@ok', 'ab@ok.in', `${'a'.repeat(257)}@ybl`, 'ab@ok\n']) {
    assert.equal(isValidVpa(bad), false, bad);
  }
});

test('parseUpiIntent rejects malformed URIs', () => {
  for (const bad of ['https://pay?pa=a@b', 'upi://pay', 'upi://pay?', 'upi://pay?pa', 'upi://pay?=x',
    'upi://pay?pa=a@bc&pa=b@cd', 'upi://pay?pn=%E2%82', 'upi://pay?pa=ab@cd&&am=1.00']) {
    assert.throws(() => parseUpiIntent(bad), Error, bad);
  }
  assert.deepEqual(parseUpiIntent('UPI://pay?pa=ab@cd&am=1.00&x='), { pa: 'ab@cd', am: '1.00', x: '' });
});

const vpa = fc.stringMatching(/^[A-Za-z0-9.\-_]{2,40}@[A-Za-z]{2,12}$/);
const input: fc.Arbitrary<UpiIntentInput> = fc.record(
  {
    payeeVpa: vpa,
    // U+0000 is refused (it cannot be stored: see isStorableText), so the valid inputs have none.
    payeeName: fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== '' && !s.includes('\u0000')),
    amountPaise: fc.integer({ min: AMOUNT_MIN_PAISE, max: AMOUNT_MAX_PAISE }),
    transactionRef: fc.stringMatching(/^[A-Za-z0-9]{1,35}$/),
    note: fc.string({ unit: 'binary', maxLength: 80 }),
    merchantCategoryCode: fc.stringMatching(/^[0-9]{4}$/),
  },
  { requiredKeys: ['payeeVpa', 'payeeName', 'amountPaise', 'transactionRef'] },
);

test('property: am is always R.PP and equals paise / 100 exactly', () => {
  fc.assert(
    fc.property(input, (x) => {
      const am = parseUpiIntent(buildUpiIntent(x)).am ?? '';
      assert.match(am, /^\d+\.\d{2}$/);
      assert.equal(rupeeStringToPaise(am), x.amountPaise);
      assert.equal(Number(am), x.amountPaise / 100);
    }),
  );
});

test('property: parse(build(x)) round-trips every parameter', () => {
  fc.assert(
    fc.property(input, (x) => {
      const uri = buildUpiIntent(x);
      assert.doesNotMatch(uri, /[\s+]/);
      const expected: Record<string, string> = { pa: x.payeeVpa, pn: x.payeeName };
      if (x.merchantCategoryCode !== undefined) expected.mc = x.merchantCategoryCode;
      Object.assign(expected, { am: parseUpiIntent(uri).am, cu: 'INR', tr: x.transactionRef });
      const note = truncateNote(x.note ?? '');
      if (note !== '') expected.tn = note;
      assert.deepEqual(parseUpiIntent(uri), expected);
      assert.deepEqual(Object.keys(parseUpiIntent(uri)), Object.keys(expected));
    }),
  );
});
