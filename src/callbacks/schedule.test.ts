import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK_DELAYS_MS, CALLBACK_MAX_ATTEMPTS, nextAttemptDelayMs } from './schedule.js';

const MIN = 60_000;
const H = 60 * MIN;
const expectedBase = [0, 1 * MIN, 5 * MIN, 30 * MIN, 2 * H, 6 * H, 12 * H, 24 * H, 48 * H, 72 * H];

test('ten attempts: at once, then 1 min ... 72 h', () => {
  assert.equal(CALLBACK_MAX_ATTEMPTS, 10);
  assert.deepEqual(CALLBACK_DELAYS_MS, expectedBase);
  expectedBase.forEach((base, made) => assert.equal(nextAttemptDelayMs(made, () => 0.5), base));
});

test('the first attempt is immediate whatever the jitter', () => {
  for (const r of [0, 0.3, 0.999999]) assert.equal(nextAttemptDelayMs(0, () => r), 0);
});

test('jitter stays within ±10 % of the base delay', () => {
  expectedBase.forEach((base, made) => {
    assert.equal(nextAttemptDelayMs(made, () => 0), Math.round(base * 0.9));
    assert.equal(nextAttemptDelayMs(made, () => 0.999999999), Math.round(base * 1.1 - base * 0.2 * 1e-9));
    for (let i = 0; i < 200; i++) {
      const d = nextAttemptDelayMs(made, Math.random)!;
      assert.ok(d >= Math.round(base * 0.9) && d <= Math.round(base * 1.1), `${made}: ${d}`);
    }
  });
});

test('a misbehaving random source is clamped', () => {
  assert.equal(nextAttemptDelayMs(1, () => -5), 0.9 * MIN);
  assert.equal(nextAttemptDelayMs(1, () => 7), 1.1 * MIN);
  assert.equal(nextAttemptDelayMs(1, () => Number.NaN), MIN);
});

test('exhausted after the tenth attempt', () => {
  assert.notEqual(nextAttemptDelayMs(9, Math.random), null);
  assert.equal(nextAttemptDelayMs(10, Math.random), null);
  assert.equal(nextAttemptDelayMs(11, Math.random), null);
});

test('invalid attempt counts throw', () => {
  for (const n of [-1, 1.5, Number.NaN]) assert.throws(() => nextAttemptDelayMs(n, Math.random), RangeError);
});
