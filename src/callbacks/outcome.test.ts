import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliveryOutcome } from './outcome.js';

const base = { retryScale: 1, random: () => 0.5 };

test('a 2xx ends the delivery', () => {
  assert.deepEqual(deliveryOutcome({ ...base, ok: true, statusCode: 204, scheduleStep: 1 }), { status: 'delivered', delayMs: null });
});

test('410 Gone stops retrying at once', () => {
  assert.deepEqual(deliveryOutcome({ ...base, ok: false, statusCode: 410, scheduleStep: 1 }), { status: 'gone', delayMs: null });
});

test('failures follow the schedule: 1 min after the first attempt, 72 h before the tenth', () => {
  assert.deepEqual(deliveryOutcome({ ...base, ok: false, statusCode: 500, scheduleStep: 1 }), { status: 'pending', delayMs: 60_000 });
  assert.deepEqual(deliveryOutcome({ ...base, ok: false, statusCode: null, scheduleStep: 9 }), { status: 'pending', delayMs: 72 * 3_600_000 });
});

test('after the tenth attempt the delivery is exhausted', () => {
  assert.deepEqual(deliveryOutcome({ ...base, ok: false, statusCode: 500, scheduleStep: 10 }), { status: 'exhausted', delayMs: null });
});

test('3xx is a failure like any other non-2xx', () => {
  assert.equal(deliveryOutcome({ ...base, ok: false, statusCode: 302, scheduleStep: 2 }).status, 'pending');
});

test('retryScale shrinks the delays (testing only)', () => {
  assert.deepEqual(deliveryOutcome({ ...base, retryScale: 0.001, ok: false, statusCode: 500, scheduleStep: 2 }), { status: 'pending', delayMs: 300 });
});
