import { describe, expect, test } from 'bun:test';
import { centroid, cosine, nearest } from '../../../src/ideas/vectors.ts';

describe('vectors', () => {
  test('cosine: 1 for one direction, 0 for orthogonal or a zero vector, scale-free', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
  });

  test('nearest: the k most similar, nearest first, ties by index', () => {
    const vs = [[0, 1], [1, 0], [1, 1], [1, 0]];
    expect(nearest([1, 0], vs, 3)).toEqual([
      { index: 1, similarity: 1 },
      { index: 3, similarity: 1 },
      { index: 2, similarity: cosine([1, 0], [1, 1]) },
    ]);
    expect(nearest([1, 0], vs, 10)).toHaveLength(4);
  });

  test('centroid: the mean', () => {
    expect(centroid([[1, 2], [3, 6]])).toEqual([2, 4]);
  });
});
