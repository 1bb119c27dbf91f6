import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { PollingWorker } from './polling-worker.js';

const log = pino({ level: 'silent' });
const INTERVAL_MS = 60_000; // never reached in these tests: only pokes and "look again" run ticks

/** A worker whose tick answers from `answers` (then 0) and counts its ticks. */
function worker(answers: number[], tickLimit?: number) {
  let ticks = 0;
  const w = new PollingWorker({
    name: 'test',
    intervalMs: INTERVAL_MS,
    log,
    tickLimit,
    tick: async () => {
      ticks++;
      return answers.shift() ?? 0;
    },
  });
  return { w, ticks: () => ticks };
}

/**
 * Lets the loop run whatever it runs at once: these ticks resolve at once, so looking again is a
 * chain of microtasks, all run before the next macrotask; sleeping is a timer of INTERVAL_MS.
 */
const settle = () => new Promise((r) => setImmediate(r));

test('without a tick limit, any handled item means look again at once', async () => {
  const { w, ticks } = worker([3, 1]);
  w.start();
  await settle();
  await w.stop();
  assert.equal(ticks(), 3); // 3 handled, 1 handled, then 0: sleeps
});

test('with a tick limit, a tick that handled fewer than the limit drained the work: the loop sleeps', async () => {
  const { w, ticks } = worker([3, 1], 4);
  w.start();
  await settle();
  assert.equal(ticks(), 1); // 3 < 4: no empty second look
  await w.rounds(1); // a poke (or a test's round) runs the next tick
  assert.equal(ticks(), 2);
  await w.stop();
});

test('with a tick limit, a full tick looks again at once', async () => {
  const { w, ticks } = worker([4, 4, 2], 4);
  w.start();
  await settle();
  await w.stop();
  assert.equal(ticks(), 3); // full, full, then 2 < 4
});

test('with a tick limit, a poke during a tick still makes the loop look again', async () => {
  let ticks = 0;
  let release: (() => void) | undefined;
  const w = new PollingWorker({
    name: 'test',
    intervalMs: INTERVAL_MS,
    log,
    tickLimit: 4,
    tick: async () => {
      ticks++;
      if (ticks === 1) await new Promise<void>((r) => (release = r));
      return ticks <= 2 ? 1 : 0; // bounded, so that a loop that ignores the limit stops too (and fails)
    },
  });
  w.start();
  await settle();
  assert.equal(ticks, 1);
  w.poke(); // new work committed while the first tick runs
  release?.();
  await settle();
  assert.equal(ticks, 2); // looked again although 1 < 4
  await w.stop();
});
