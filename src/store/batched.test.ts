import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Batcher } from './batched.js';

test('items added together are written in one call; later ones in the next', async () => {
  const calls: number[][] = [];
  const b = new Batcher<number>(async (items) => {
    calls.push(items);
    await new Promise((r) => setTimeout(r, 10));
  });
  const first = [1, 2, 3].map((n) => b.add(n));
  await new Promise((r) => setImmediate(r));
  const late = [4, 5].map((n) => b.add(n)); // arrive while the first batch is being written
  await Promise.all([...first, ...late]);
  assert.deepEqual(calls, [[1, 2, 3], [4, 5]]);
});

test('a failed write rejects exactly the items of its batch; the batcher keeps working', async () => {
  let fail = true;
  const b = new Batcher<string>(async () => {
    if (fail) throw new Error('db down');
  });
  const bad = b.add('a');
  await assert.rejects(bad, /db down/);
  fail = false;
  await b.add('b');
});

test('batches are capped', async () => {
  const sizes: number[] = [];
  const b = new Batcher<number>(async (items) => {
    sizes.push(items.length);
  }, { maxBatch: 2 });
  await Promise.all([1, 2, 3, 4, 5].map((n) => b.add(n)));
  assert.deepEqual(sizes, [2, 2, 1]);
});

test('each item gets its own result, in order', async () => {
  const b = new Batcher<number, number>(async (items) => items.map((n) => n * 10));
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => b.add(n))), [10, 20, 30]);
});

test('with concurrency 2, a second call starts while the first runs and takes what arrived meanwhile', { timeout: 5_000 }, async () => {
  // Each write is held until the test lets it finish, so the order of events is the test's,
  // not the timers' (a loaded machine fired short timers out of order).
  const calls: number[][] = [];
  const release: Array<() => void> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let started: () => void = () => {};
  const nextStart = () => new Promise<void>((r) => (started = r));
  const b = new Batcher<number>(
    async (items) => {
      calls.push(items);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      started();
      await new Promise<void>((r) => release.push(r));
      inFlight--;
    },
    { concurrency: 2 },
  );
  let call = nextStart();
  const first = [1, 2].map((n) => b.add(n));
  await call;
  call = nextStart();
  const second = [3, 4].map((n) => b.add(n)); // one slot free: a second call starts at once
  await call;
  call = nextStart();
  const third = [5, 6].map((n) => b.add(n)); // both slots busy: waits for one of them
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(calls, [[1, 2], [3, 4]], 'no third call while two run');
  release[0]!();
  await call;
  release[1]!();
  release[2]!();
  await Promise.all([...first, ...second, ...third]);
  assert.deepEqual(calls, [[1, 2], [3, 4], [5, 6]]);
  assert.equal(maxInFlight, 2);
});

test('isolated failures: a failing batch is retried item by item, so only the bad item fails', async () => {
  const calls: string[][] = [];
  const b = new Batcher<string, string>(
    async (items) => {
      calls.push(items);
      if (items.includes('bad')) throw new Error('constraint violated');
      return items.map((s) => s.toUpperCase());
    },
    { isolateFailures: (err) => (err as Error).message === 'constraint violated' },
  );
  const results = await Promise.allSettled(['a', 'bad', 'c'].map((s) => b.add(s)));
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    ['A', 'constraint violated', 'C'],
  );
  assert.deepEqual(calls, [['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
});

test('errors the batcher may not isolate fail the whole batch at once', async () => {
  let calls = 0;
  const b = new Batcher<string>(
    async () => {
      calls++;
      throw new Error('database unreachable');
    },
    { isolateFailures: (err) => (err as Error).message === 'constraint violated' },
  );
  const results = await Promise.allSettled(['a', 'b', 'c'].map((s) => b.add(s)));
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
  assert.equal(calls, 1);
});

test('by default every failure but an unreachable database is isolated, and the retries run one at a time', async () => {
  let inFlight = 0;
  let maxInFlight = 0;
  const b = new Batcher<string, string>(
    async (items) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      if (items.includes('bad')) throw Object.assign(new Error('value too long'), { code: '22001' });
      if (items.includes('bug')) throw new TypeError('a bug in one item');
      return items.map((s) => s.toUpperCase());
    },
    { concurrency: 1 },
  );
  const results = await Promise.allSettled(['a', 'bad', 'c', 'bug', 'e'].map((s) => b.add(s)));
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    ['A', 'value too long', 'C', 'a bug in one item', 'E'],
  );
  assert.equal(maxInFlight, 1, 'the retries took no more connections than the batch');

  let calls = 0;
  const down = new Batcher<string>(async () => {
    calls++;
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  const failed = await Promise.allSettled(['a', 'b', 'c'].map((s) => down.add(s)));
  assert.deepEqual(failed.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
  assert.equal(calls, 1, 'an unreachable database fails the batch at once, without a retry per item');
});
