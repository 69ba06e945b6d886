import { InputError } from '../../../core/errors.ts';
import { studentTSf } from './distributions.ts';
import { mean, sampleVariance } from './summary.ts';

export type TTestResult = {
  statistic: number;
  p_value: number;
  df: number;
  /** Welch's unequal-variance test on the same data */
  welch_statistic: number;
  welch_p_value: number;
  welch_df: number;
};

/**
 * Two-sided two-sample t-test with pooled variance (Student; scipy.stats.ttest_ind with its
 * default equal_var=True), and Welch's test alongside.
 */
export function studentTTest(a: readonly number[], b: readonly number[]): TTestResult {
  if (a.length < 2) throw new InputError('data_a needs at least 2 numbers for a t-test');
  if (b.length < 2) throw new InputError('data_b needs at least 2 numbers for a t-test');
  const [na, nb] = [a.length, b.length];
  const [va, vb] = [sampleVariance(a), sampleVariance(b)];
  if (va === 0 && vb === 0) {
    throw new InputError('data_a and data_b both have zero variance, so the t statistic is undefined', 'use samples whose values vary');
  }
  const diff = mean(a) - mean(b);

  const df = na + nb - 2;
  const pooled = ((na - 1) * va + (nb - 1) * vb) / df;
  const t = diff / Math.sqrt(pooled * (1 / na + 1 / nb));

  const [sa, sb] = [va / na, vb / nb];
  const welchDf = (sa + sb) ** 2 / (sa ** 2 / (na - 1) + sb ** 2 / (nb - 1));
  const welchT = diff / Math.sqrt(sa + sb);

  return {
    statistic: t,
    p_value: twoSided(t, df),
    df,
    welch_statistic: welchT,
    welch_p_value: twoSided(welchT, welchDf),
    welch_df: welchDf,
  };
}

function twoSided(t: number, df: number): number {
  return Math.min(1, 2 * studentTSf(Math.abs(t), df));
}
