import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { InputError } from '../../../../src/core/errors.ts';
import { statisticalTest } from '../../../../src/skills/benchmark/statistical-test.ts';
import * as S from './reference-samples.ts';

/**
 * p-values against published values and SciPy. "scipy 1.10.1 and 1.17.1" means both versions give
 * the value to every printed digit (Debian 12's python3-scipy and the current release); values from
 * one version only say so. |p − reference| must stay below 1e-6, and in practice is below 1e-13.
 */
const TOLERANCE = 1e-6;
const ctx = { signal: new AbortController().signal, env: {} };

type Result = Record<string, unknown> & { statistic: number; p_value: number; method: string };
function run(pair: S.Pair, test: 'ttest' | 'mannwhitney' | 'wilcoxon'): Result {
  return statisticalTest.run({ data_a: pair.a, data_b: pair.b, test }, ctx) as Result;
}
function close(actual: number, expected: number, tolerance = TOLERANCE): void {
  expect(Math.abs(actual - expected)).toBeLessThan(tolerance);
}

/** [sample, statistic, p-value, method] */
type RankCase = [string, S.Pair, number, number, string];
function expectReferences(name: 'mannwhitney' | 'wilcoxon', cases: RankCase[]): void {
  test.each(cases)('%s', (_, pair, statistic, p, method) => {
    const r = run(pair, name);
    expect(r.statistic).toBe(statistic);
    close(r.p_value, p);
    expect(r.method).toBe(method);
  });
}

describe('ttest (scipy.stats.ttest_ind, equal_var=True; Welch alongside)', () => {
  // [sample, t, p, Welch t, Welch p] from scipy 1.17.1 (1.10.1 agrees to 1e-15)
  const cases: [string, S.Pair, number, number, number, number][] = [
    ['sleep', S.SLEEP, -1.8608134674868524, 0.07918671421593822, -1.8608134674868526, 0.0793941401873583],
    ['workers', S.WORKERS, 2.239334696520584, 0.0601368821915159, 2.2831482556870477, 0.05675092592187574],
    ['unequal variance', S.UNEQUAL_VARIANCE, -2.215646837627989, 0.05394592050940712, -2.3763541031440183, 0.04928433820673053],
    ['separated', S.SEPARATED, -19.367477211906536, 1.2052611727604613e-8, -19.695762918025718, 1.055573106282232e-8],
    ['large', S.LARGE, 1.1059867740373512, 0.2715850603898063, 1.1514791454246027, 0.25249877338029153],
    ['8 vs 50', S.EIGHT_VS_FIFTY, 3.327481455083936, 0.0015527859869871698, 2.5848697575798356, 0.03186618410147732],
  ];
  test.each(cases)('%s', (_, pair, t, p, welchT, welchP) => {
    const r = run(pair, 'ttest');
    close(r.statistic, t);
    close(r.p_value, p);
    close(r.welch_statistic as number, welchT);
    close(r.welch_p_value as number, welchP);
    expect(r.df).toBe(pair.a.length + pair.b.length - 2);
    // tails keep their relative precision too
    expect(Math.abs(r.p_value - p) / p).toBeLessThan(1e-9);
  });

  test("R's sleep example as R prints it: t = -1.8608, df = 18, p = 0.07919; Welch df = 17.776, p = 0.07939", () => {
    const r = run(S.SLEEP, 'ttest');
    close(r.statistic, -1.8608, 5e-5);
    close(r.p_value, 0.07919, 5e-6);
    close(r.welch_df as number, 17.776, 5e-4);
    close(r.welch_p_value as number, 0.07939, 5e-6);
    expect(r).toMatchObject({ test: 'ttest', n_a: 10, n_b: 10, df: 18 });
    expect(r.mean_a as number).toBeCloseTo(0.75, 12);
    expect(r.mean_b as number).toBeCloseTo(2.33, 12);
  });
});

describe('mannwhitney (scipy.stats.mannwhitneyu, two-sided, method auto)', () => {
  // the statistic is U of data_a
  expectReferences('mannwhitney', [
    // scipy docs example: "MannwhitneyuResult(statistic=17.0, pvalue=0.1111111111111111)", exact
    ['workers (scipy docs)', S.WORKERS, 17, 0.1111111111111111, 'exact'],
    // data from R's ?wilcox.test; R prints the one-sided p 0.1272 (W = 35); two-sided from scipy 1.10.1 and 1.17.1
    ['permeability (R docs)', S.PERMEABILITY, 35, 0.2544122544122544, 'exact'],
    // scipy 1.10.1 and 1.17.1
    ['3 vs 12, no ties', S.SMALL_UNTIED, 20, 0.8395604395604395, 'exact'],
    ['separated', S.SEPARATED, 0, 0.004329004329004329, 'exact'],
    ['8 vs 50', S.EIGHT_VS_FIFTY, 310, 0.011501401777582108, 'exact'],
    ['small with ties', S.SMALL_TIED, 4.5, 0.21090292605661043, 'asymptotic'],
    ['unequal variance (one tie)', S.UNEQUAL_VARIANCE, 5, 0.08143973230450288, 'asymptotic'],
    ['sleep (ties)', S.SLEEP, 25.5, 0.06932757543362658, 'asymptotic'],
    ['large', S.LARGE, 1228.5, 0.3346098950734747, 'asymptotic'],
  ]);

  test('all values equal: no evidence of a difference (p = 1, as scipy)', () => {
    const r = run({ a: [3, 3, 3], b: [3, 3] }, 'mannwhitney');
    expect(r.p_value).toBe(1);
    expect(r.statistic).toBe(3);
  });
});

describe('wilcoxon (scipy.stats.wilcoxon: zero_method wilcox, correction False, method auto)', () => {
  // the statistic is min(R+, R−)
  expectReferences('wilcoxon', [
    // scipy docs example: "(24.0, 0.041259765625)"
    ['corn (scipy docs)', S.CORN, 24, 0.041259765625, 'exact'],
    // data from R's ?wilcox.test; R prints the one-sided p 0.01953 (V = 40); two-sided from scipy 1.10.1 and 1.17.1
    ['depression (R docs)', S.DEPRESSION, 5, 0.0390625, 'exact'],
    // scipy 1.10.1 and 1.17.1
    ['40 pairs', S.PAIRS_40, 349, 0.42021225081225566, 'exact'],
    ['60 pairs', S.PAIRS_60, 865, 0.7128134714257682, 'asymptotic'],
    ['20 pairs with zeros', S.PAIRS_ZEROS_20, 39.5, 0.13803498674891154, 'asymptotic'],
    // scipy 1.17.1 only: since 1.10.1, ties and zeros in small samples are handled by enumerating
    // every sign assignment (≤ 13 pairs) or by the normal approximation, no longer by the untied table
    ['8 pairs with ties', S.PAIRS_TIED_8, 10, 0.3046875, 'permutation'],
    ['10 pairs with zeros', S.PAIRS_ZEROS_10, 1.5, 0.09375, 'permutation'],
    ['sleep, paired (zero and ties)', S.SLEEP, 0, 0.00390625, 'permutation'],
    ['30 pairs with ties', S.PAIRS_TIED_30, 130.5, 0.03587834103075659, 'asymptotic'],
  ]);

  test('zero differences are dropped and counted', () => {
    expect(run(S.PAIRS_ZEROS_10, 'wilcoxon')).toMatchObject({ n_a: 10, n_b: 10, n_nonzero: 6 });
  });
});

describe('bad input', () => {
  const cases: [string, unknown[], unknown[], string, RegExp][] = [
    ['empty data_a', [], [1, 2], 'ttest', /^data_a is empty$/],
    ['empty data_b', [1, 2], [], 'mannwhitney', /^data_b is empty$/],
    ['NaN', [1, Number.NaN, 3], [1, 2], 'ttest', /^data_a\[1\] is not a finite number$/],
    ['Infinity', [1, 2], [1, Number.POSITIVE_INFINITY], 'mannwhitney', /^data_b\[1\] is not a finite number$/],
    ['one value for a t-test', [1], [1, 2, 3], 'ttest', /^data_a needs at least 2 numbers/],
    ['zero variance', [2, 2, 2], [5, 5], 'ttest', /^data_a and data_b both have zero variance/],
    ['unequal lengths', [1, 2, 3], [1, 2], 'wilcoxon', /^data_a and data_b must have the same length .*\(got 3 and 2\)$/],
    ['all differences zero', [1, 2, 3], [1, 2, 3], 'wilcoxon', /^data_a and data_b are equal in every pair/],
  ];
  test.each(cases)('%s', (_, a, b, name, message) => {
    const call = () => statisticalTest.run({ data_a: a as number[], data_b: b as number[], test: name as 'ttest' }, ctx);
    expect(call).toThrow(InputError);
    expect(call).toThrow(message);
  });

  test('the schema refuses an unknown test, a non-number and a missing sample', () => {
    const schema = statisticalTest.params;
    expect(Value.Check(schema, { data_a: [1, 2], data_b: [3, 4], test: 'wilcoxon' })).toBe(true);
    expect(Value.Check(schema, { data_a: [1, 2], data_b: [3, 4] })).toBe(true);
    expect(Value.Check(schema, { data_a: [1, 2], data_b: [3, 4], test: 'anova' })).toBe(false);
    expect(Value.Check(schema, { data_a: [1, '2'], data_b: [3, 4] })).toBe(false);
    expect(Value.Check(schema, { data_a: [1, 2] })).toBe(false);
  });

  test('the test defaults to ttest', () => {
    expect(statisticalTest.run({ data_a: S.SLEEP.a, data_b: S.SLEEP.b }, ctx)).toMatchObject({ test: 'ttest' });
  });
});
