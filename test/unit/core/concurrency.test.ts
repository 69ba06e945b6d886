import { expect, test } from 'bun:test';
import { mapConcurrent } from '../../../src/core/concurrency.ts';

test('results in the order of the items, with at most limit calls in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const out = await mapConcurrent([5, 1, 4, 2, 3, 0], 2, async (x, i) => {
    most = Math.max(most, ++inFlight);
    await Bun.sleep(x);
    inFlight--;
    return `${i}:${x}`;
  });
  expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
  expect(most).toBe(2);
  expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
});

test('a rejection starts no new call and is thrown once the started ones settle', async () => {
  const started: number[] = [];
  let settled = 0;
  const err = await mapConcurrent([0, 1, 2, 3, 4], 2, async (x) => {
    started.push(x);
    await Bun.sleep(x === 0 ? 1 : 5);
    settled++;
    if (x === 0) throw new Error('first fails');
    return x;
  }).catch((e: Error) => e);
  expect((err as Error).message).toBe('first fails');
  expect(started).toEqual([0, 1]);
  expect(settled).toBe(2);
});
