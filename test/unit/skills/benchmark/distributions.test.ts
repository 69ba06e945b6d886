import { expect, test } from 'bun:test';
import { incompleteBeta, logGamma, normalSf, studentTSf } from '../../../../src/skills/benchmark/stats/distributions.ts';

// Reference values: scipy 1.17.1 (scipy.stats.t.sf, scipy.stats.norm.sf, scipy.special.gammaln,
// scipy.special.betainc). Compared relatively, so that far tails count as much as the middle.
const relative = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);

test.each([
  [2.0, 1e5, 0.022751481728753256],
  [0.5, 3.5, 0.32342521966127546],
  [8.0, 3, 0.002038288793892733],
  [30, 10, 1.9808961710156623e-11],
  [1.0, 1, 0.25000000000000006],
  [-2.5, 7, 0.9795038907071235],
])('Student t sf(%p, df=%p)', (t, df, expected) => {
  expect(relative(studentTSf(t, df), expected)).toBeLessThan(1e-9);
});

test.each([
  [0.1, 0.460172162722971],
  [1.0, 0.15865525393145707],
  [3.0, 0.0013498980316300933],
  [10.0, 7.61985302416047e-24],
  [30.0, 4.906713927147908e-198],
  [-2.0, 0.9772498680518208],
])('normal sf(%p)', (z, expected) => {
  expect(relative(normalSf(z), expected)).toBeLessThan(1e-12);
});

test('log-gamma and the incomplete beta function', () => {
  expect(relative(logGamma(0.5), 0.5723649429247001)).toBeLessThan(1e-14);
  expect(relative(logGamma(100), 359.1342053695754)).toBeLessThan(1e-14);
  expect(relative(incompleteBeta(0.3, 2, 5), 0.579825)).toBeLessThan(1e-12);
  expect(incompleteBeta(0, 2, 3)).toBe(0);
  expect(incompleteBeta(1, 2, 3)).toBe(1);
});
