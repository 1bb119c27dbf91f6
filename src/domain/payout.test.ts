import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from './errors.js';
import {
  assertAttemptTransition,
  ATTEMPT_STATUS_OF,
  decide,
  initialState,
  type PayoutAttemptStatus,
  type PayoutMode,
  type PayoutStatus,
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

describe('decide: the one rule of every payout change after its create', () => {
  const live = (status: PayoutStatus, attempt: PayoutAttemptStatus | null, mode: PayoutMode = 'IMPS') => ({ status, mode, attempt: attempt ? { status: attempt } : null });

  test('a checker approves: PROCESSING with a first attempt and payout.created; rejects: REJECTED with the note', () => {
    const approved = decide(live('PENDING_APPROVAL', null), { kind: 'approve' });
    assert.equal(approved.result, 'applied');
    assert.ok(approved.result === 'applied');
    assert.deepEqual([approved.payout?.to, approved.attempt?.from, approved.attempt?.to, approved.event], ['PROCESSING', null, 'PENDING_SUBMIT', 'payout.created']);
    const rejected = decide(live('PENDING_APPROVAL', null), { kind: 'reject', note: 'no' });
    assert.ok(rejected.result === 'applied');
    assert.deepEqual([rejected.payout?.to, rejected.payout?.detail, rejected.attempt, rejected.event], ['REJECTED', 'no', null, 'payout.rejected']);
    assert.equal(decide(live('PROCESSING', 'PENDING_SUBMIT'), { kind: 'approve' }).result, 'stale');
  });

  test('bank news moves the attempt and, when it decides, the payout with its event', () => {
    const ok = decide(live('PROCESSING', 'PROCESSING'), { kind: 'succeeded', bankReference: 'B1', utr: '123456789012', processedAt: new Date() });
    assert.ok(ok.result === 'applied');
    assert.deepEqual([ok.attempt?.to, ok.payout?.to, ok.payout?.utr, ok.event], ['SUCCESS', 'SUCCESS', '123456789012', 'payout.success']);
    const accepted = decide(live('PROCESSING', 'PENDING_SUBMIT'), { kind: 'accepted', bankReference: 'B1' });
    assert.ok(accepted.result === 'applied');
    assert.deepEqual([accepted.attempt?.to, accepted.payout, accepted.event], ['PROCESSING', null, null]);
    assert.equal(decide(live('SUCCESS', 'SUCCESS'), { kind: 'succeeded', bankReference: 'B1', utr: '123456789012', processedAt: new Date() }).result, 'unchanged');
    assert.equal(decide(live('PROCESSING', 'PROCESSING'), { kind: 'unknown', error: 'late' }).result, 'stale');
    assert.equal(decide(live('PROCESSING', 'PROCESSING'), { kind: 'succeeded', bankReference: 'B1', utr: 'short', processedAt: new Date() }).result, 'invalid_utr');
  });

  test('a reversal: REVERSED after a success, a failure before one', () => {
    const after = decide(live('SUCCESS', 'SUCCESS'), { kind: 'reversed', bankReference: 'B1', reason: 'closed', reversedAt: new Date() });
    assert.ok(after.result === 'applied');
    assert.deepEqual([after.attempt?.to, after.payout?.to, after.event], ['REVERSED', 'REVERSED', 'payout.reversed']);
    const before = decide(live('PROCESSING', 'PROCESSING'), { kind: 'reversed', bankReference: 'B1', reason: 'closed', reversedAt: new Date() });
    assert.ok(before.result === 'applied');
    assert.deepEqual([before.attempt?.to, before.payout?.to, before.payout?.failureReason, before.event], ['FAILED', 'FAILED', 'reversed by the provider: closed', 'payout.failed']);
  });

  test('giving up fails the payout once; the attempt status of every piece of news is one table', () => {
    const failed = decide(live('PROCESSING', 'NOT_EXECUTED'), { kind: 'payout_failed', reason: 'tried' });
    assert.ok(failed.result === 'applied');
    assert.deepEqual([failed.attempt, failed.payout?.to, failed.event], [null, 'FAILED', 'payout.failed']);
    assert.equal(decide(live('FAILED', 'NOT_EXECUTED'), { kind: 'payout_failed', reason: 'tried' }).result, 'unchanged');
    for (const [kind, status] of Object.entries(ATTEMPT_STATUS_OF)) assert.ok(PAYOUT_ATTEMPT_STATUSES.includes(status), kind);
  });

  test('the channels start a payout: the console waits for approval, API and bulk rows are PROCESSING with an attempt', () => {
    assert.deepEqual(initialState('console'), { status: 'PENDING_APPROVAL', firstAttempt: false, approvalRequired: true, event: null });
    assert.deepEqual(initialState('api'), { status: 'PROCESSING', firstAttempt: true, approvalRequired: false, event: 'payout.created' });
    assert.equal(initialState('bulk').approvalRequired, true);
  });
});
