import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from './errors.js';
import {
  assertAttemptTransition,
  assertPayoutTransition,
  ATTEMPT_TRANSITIONS,
  canTransitionAttempt,
  canTransitionPayout,
  checkRailRules,
  IMPS_MAX_PAISE,
  isPayoutMode,
  isRetryableAttempt,
  isValidUtr,
  needsStatusInquiry,
  PAYOUT_ATTEMPT_STATUSES,
  PAYOUT_MODES,
  PAYOUT_STATUSES,
  PAYOUT_TRANSITIONS,
  payoutStatusForAttempt,
  RTGS_MIN_PAISE,
} from './payout.js';

const isInvalidState = (err: unknown): boolean => err instanceof AppError && err.code === 'INVALID_STATE';

// Independent, hand-written copies of the tables.
const LEGAL_PAYOUT = new Set(['PENDING_APPROVAL>PROCESSING', 'PENDING_APPROVAL>REJECTED', 'PROCESSING>SUCCESS', 'PROCESSING>FAILED', 'SUCCESS>REVERSED']);
const LEGAL_ATTEMPT = new Set([
  'PENDING_SUBMIT>PROCESSING', 'PENDING_SUBMIT>SUCCESS', 'PENDING_SUBMIT>FAILED', 'PENDING_SUBMIT>UNKNOWN',
  'PENDING_SUBMIT>NOT_EXECUTED', 'PROCESSING>SUCCESS', 'PROCESSING>FAILED',
  'UNKNOWN>PROCESSING', 'UNKNOWN>SUCCESS', 'UNKNOWN>FAILED', 'UNKNOWN>NOT_EXECUTED', 'SUCCESS>REVERSED',
]);

test('every pair of payout states is checked against the table', () => {
  for (const from of PAYOUT_STATUSES) {
    for (const to of PAYOUT_STATUSES) {
      const legal = LEGAL_PAYOUT.has(`${from}>${to}`);
      assert.equal(canTransitionPayout(from, to), legal, `${from} -> ${to}`);
      if (legal) assert.ok(assertPayoutTransition(from, to));
      else assert.throws(() => assertPayoutTransition(from, to), isInvalidState);
    }
  }
  assert.equal(PAYOUT_TRANSITIONS.length, LEGAL_PAYOUT.size);
});

test('every pair of attempt states is checked against the table', () => {
  for (const from of PAYOUT_ATTEMPT_STATUSES) {
    for (const to of PAYOUT_ATTEMPT_STATUSES) {
      const legal = LEGAL_ATTEMPT.has(`${from}>${to}`);
      assert.equal(canTransitionAttempt(from, to), legal, `${from} -> ${to}`);
      if (legal) assert.ok(assertAttemptTransition(from, to));
      else assert.throws(() => assertAttemptTransition(from, to), isInvalidState);
    }
  }
  assert.equal(ATTEMPT_TRANSITIONS.length, LEGAL_ATTEMPT.size);
});

test('an unknown outcome is never resent and never silently settled', () => {
  assert.equal(canTransitionAttempt('UNKNOWN', 'PENDING_SUBMIT'), false);
  assert.equal(isRetryableAttempt('UNKNOWN'), false);
  assert.equal(needsStatusInquiry('UNKNOWN'), true);
  assert.equal(payoutStatusForAttempt('UNKNOWN'), 'PROCESSING');
  assert.equal(canTransitionAttempt('PROCESSING', 'NOT_EXECUTED'), false);
  for (const settled of ['FAILED', 'NOT_EXECUTED', 'REVERSED'] as const) {
    assert.equal(ATTEMPT_TRANSITIONS.some((t) => t.from === settled), false, `${settled} is terminal`);
  }
  // A success can only be undone by the provider's reversal, never moved back to pending or failed.
  assert.deepEqual(ATTEMPT_TRANSITIONS.filter((t) => t.from === 'SUCCESS').map((t) => t.to), ['REVERSED']);
  assert.deepEqual(PAYOUT_ATTEMPT_STATUSES.filter(isRetryableAttempt), ['NOT_EXECUTED']);
  assert.deepEqual(PAYOUT_ATTEMPT_STATUSES.filter(needsStatusInquiry), ['PROCESSING', 'UNKNOWN']);
});

test('payout status follows the latest attempt', () => {
  const expected = {
    PENDING_SUBMIT: 'PROCESSING', PROCESSING: 'PROCESSING', UNKNOWN: 'PROCESSING',
    SUCCESS: 'SUCCESS', FAILED: 'FAILED', NOT_EXECUTED: 'PROCESSING', REVERSED: 'REVERSED',
  } as const;
  for (const status of PAYOUT_ATTEMPT_STATUSES) assert.equal(payoutStatusForAttempt(status), expected[status], status);
});

test('rail amount rules', () => {
  assert.deepEqual(checkRailRules('IMPS', IMPS_MAX_PAISE), []);
  assert.deepEqual(checkRailRules('IMPS', 100), []);
  const imps = checkRailRules('IMPS', IMPS_MAX_PAISE + 1);
  assert.equal(imps.length, 1);
  assert.equal(imps[0]?.field, 'amount_paise');
  assert.match(imps[0]?.issue ?? '', /₹5,00,000\.00/);
  assert.deepEqual(checkRailRules('RTGS', RTGS_MIN_PAISE), []);
  assert.deepEqual(checkRailRules('RTGS', 10_000_000_000), []);
  const rtgs = checkRailRules('RTGS', RTGS_MIN_PAISE - 1);
  assert.equal(rtgs[0]?.field, 'amount_paise');
  assert.match(rtgs[0]?.issue ?? '', /₹2,00,000\.00/);
  assert.deepEqual(checkRailRules('NEFT', 100), []);
  assert.deepEqual(checkRailRules('NEFT', 10_000_000_000), []);
  assert.equal(IMPS_MAX_PAISE, 50_000_000);
  assert.equal(RTGS_MIN_PAISE, 20_000_000);
});

test('UTR shapes per rail', () => {
  assert.equal(isValidUtr('IMPS', '412345678901'), true);
  for (const bad of ['41234567890', '4123456789012', '41234567890A', '']) assert.equal(isValidUtr('IMPS', bad), false, bad);
  assert.equal(isValidUtr('NEFT', 'N123240123456789'), true);
  assert.equal(isValidUtr('NEFT', 'HDFCN52024011512345678'), true);
  for (const bad of ['N12324012345678', 'N1232401234567890', 'HDFCN5202401151234567', 'N12324012345678-', 'N123240123456789\n']) {
    assert.equal(isValidUtr('NEFT', bad), false, JSON.stringify(bad));
  }
  assert.equal(isValidUtr('RTGS', 'HDFCR52024011512345678'), true);
  for (const bad of ['N123240123456789', 'HDFCR5202401151234567', 'HDFCR520240115123456789', 'HDFCR52024011512345 78']) {
    assert.equal(isValidUtr('RTGS', bad), false, bad);
  }
});

test('payout modes', () => {
  assert.deepEqual([...PAYOUT_MODES], ['IMPS', 'NEFT', 'RTGS']);
  assert.equal(isPayoutMode('NEFT'), true);
  assert.equal(isPayoutMode('neft'), false);
  assert.equal(isPayoutMode('UPI'), false);
  assert.equal(isPayoutMode(1), false);
});
