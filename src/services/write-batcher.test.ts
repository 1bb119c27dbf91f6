import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WriteBatcher } from './write-batcher.js';

test('items added together are written in one call; later ones in the next', async () => {
  const calls: number[][] = [];
  const b = new WriteBatcher<number>(async (items) => {
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
  const b = new WriteBatcher<string>(async () => {
    if (fail) throw new Error('db down');
  });
  const bad = b.add('a');
  await assert.rejects(bad, /db down/);
  fail = false;
  await b.add('b');
});

test('batches are capped', async () => {
  const sizes: number[] = [];
  const b = new WriteBatcher<number>(async (items) => {
    sizes.push(items.length);
  }, 2);
  await Promise.all([1, 2, 3, 4, 5].map((n) => b.add(n)));
  assert.deepEqual(sizes, [2, 2, 1]);
});
