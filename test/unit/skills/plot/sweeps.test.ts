import { describe, expect, test } from 'bun:test';
import type { ScienceConfiguration } from '../../../../src/schema/science-data.ts';
import { formatNumber, unbackedNumbers } from '../../../../src/science/numbers.ts';
import { sweepsOf } from '../../../../src/skills/plot/sweeps.ts';

const config = (id: string, params: ScienceConfiguration['params'], value: number): ScienceConfiguration => ({
  node_id: id,
  label: 'improve',
  name: id,
  depth: 1,
  parent_id: null,
  params,
  metrics: { loss: value },
  results_path: `${id}/results.json`,
});
const ids = (configs: ScienceConfiguration[]) => configs.map((c) => c.node_id);

describe('sweepsOf', () => {
  test('a setting varied with the others fixed, in order of the setting; the largest such set', () => {
    const sweeps = sweepsOf([
      config('a', { lr: 0.1, opt: 'sgd' }, 3),
      config('b', { lr: 0.01, opt: 'sgd' }, 2),
      config('c', { lr: 0.001, opt: 'sgd' }, 1),
      config('d', { lr: 0.1, opt: 'adam' }, 1),
      config('e', { lr: 0.01, opt: 'adam' }, 1),
    ]);
    expect(sweeps.map((s) => [s.param, ids(s.configurations), s.fixed])).toEqual([['lr', ['c', 'b', 'a'], { opt: 'sgd' }]]);
  });

  test('settings that change together show no one setting: no sweep; nor do two values, or strings', () => {
    expect(sweepsOf([config('a', { lr: 0.1, bs: 8 }, 3), config('b', { lr: 0.01, bs: 16 }, 2), config('c', { lr: 0.001, bs: 32 }, 1)])).toEqual([]);
    expect(sweepsOf([config('a', { lr: 0.1 }, 3), config('b', { lr: 0.01 }, 2), config('c', { lr: 0.01 }, 1)])).toEqual([]);
    expect(sweepsOf([config('a', { opt: 'x' }, 3), config('b', { opt: 'y' }, 2), config('c', { opt: 'z' }, 1)])).toEqual([]);
  });

  test('at most three sweeps, those with the most values first', () => {
    const configs = ['p', 'q', 'r', 's'].flatMap((p, k) =>
      Array.from({ length: 3 + k }, (_, i) => config(`${p}${i}`, { p: 0, q: 0, r: 0, s: 0, [p]: i + 1 }, i)),
    );
    expect(sweepsOf(configs).map((s) => [s.param, s.configurations.length])).toEqual([['s', 6], ['r', 5], ['q', 4]]);
  });
});

describe('caption numbers', () => {
  test('formatNumber: whole numbers whole, others to four significant digits', () => {
    expect([20573, 48.7581, -97.9491, 0.000123456, 123456.7].map((v) => formatNumber(v, 'plain'))).toEqual(['20573', '48.76', '-97.95', '0.0001235', '123457']);
  });

  test('unbackedNumbers: what no allowed number backs, thousands separators and magnitudes understood', () => {
    const allowed = [20573, -97.95, 48.76, 2.2];
    expect(unbackedNumbers('20,573 comparisons, 97.95% fewer, 48.76 times, ratio 2.2', allowed)).toEqual([]);
    expect(unbackedNumbers('about 20,000 comparisons in 3 runs', allowed)).toEqual([20000, 3]);
  });
});
