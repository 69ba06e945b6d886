import { InputError } from '../../../core/errors.ts';
import { normalSf } from './distributions.ts';
import { averageRanks, tieTerm } from './ranks.ts';

export type WilcoxonResult = {
  /** min(R+, R−), as scipy reports it for the two-sided test */
  statistic: number;
  p_value: number;
  /** exact: the signed-rank distribution; permutation: all 2^n sign assignments of these ranks (ties or zeros) */
  method: 'exact' | 'permutation' | 'asymptotic';
  /** pairs left after dropping zero differences */
  n_nonzero: number;
  z?: number;
};

/** scipy's method 'auto' uses the normal approximation above this many pairs. */
const SMALL_N = 50;
/** With ties or zeros, scipy enumerates every sign assignment when there are at most 2^13 of them. */
const PERMUTATION_MAX_N = 13;

/**
 * Two-sided Wilcoxon signed-rank test of paired samples as scipy.stats.wilcoxon with its defaults
 * (zero_method 'wilcox': zero differences dropped; correction=False; method 'auto'). For at most 50
 * pairs without ties or zeros the exact distribution; with ties or zeros and at most 13 pairs the
 * exact permutation distribution (as in scipy 1.17; older releases such as 1.10 used the untied
 * table or the normal approximation there); otherwise the normal approximation with
 * tie correction.
 */
export function wilcoxonSignedRank(a: readonly number[], b: readonly number[]): WilcoxonResult {
  if (a.length !== b.length) {
    throw new InputError(`data_a and data_b must have the same length for the paired wilcoxon test (got ${a.length} and ${b.length})`);
  }
  const all = a.map((x, i) => x - (b[i] as number));
  const d = all.filter((x) => x !== 0);
  if (d.length === 0) throw new InputError('data_a and data_b are equal in every pair, so the wilcoxon test is undefined');
  const zeros = all.length - d.length;

  const { ranks, tieSizes } = averageRanks(d.map(Math.abs));
  const rPlus = sumWhere(ranks, d, (x) => x > 0);
  const rMinus = sumWhere(ranks, d, (x) => x < 0);
  const statistic = Math.min(rPlus, rMinus);
  const ties = tieSizes.some((t) => t > 1);
  const n = d.length;

  if (all.length <= SMALL_N && !ties && zeros === 0) {
    return { statistic, p_value: exactP(rPlus, n), method: 'exact', n_nonzero: n };
  }
  if (all.length <= PERMUTATION_MAX_N) {
    return { statistic, p_value: permutationP(rPlus, ranks), method: 'permutation', n_nonzero: n };
  }
  const meanR = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1) - tieTerm(tieSizes) / 2) / 24);
  const z = (rPlus - meanR) / sd;
  return { statistic, p_value: Math.min(1, 2 * normalSf(Math.abs(z))), method: 'asymptotic', n_nonzero: n, z: -Math.abs(z) };
}

function sumWhere(ranks: readonly number[], d: readonly number[], keep: (x: number) => boolean): number {
  let sum = 0;
  for (let i = 0; i < d.length; i++) if (keep(d[i] as number)) sum += ranks[i] as number;
  return sum;
}

/** 2·min(P(R+ ≤ r), P(R+ ≥ r)) under the signed-rank distribution of n untied ranks. */
function exactP(rPlus: number, n: number): number {
  const max = (n * (n + 1)) / 2;
  // counts[s] = number of subsets of {1..n} summing to s; at most 2^50, exact in a double.
  const counts = new Array<number>(max + 1).fill(0);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) {
    for (let s = max; s >= k; s--) counts[s] = (counts[s] as number) + (counts[s - k] as number);
  }
  let below = 0;
  let above = 0;
  for (let s = 0; s <= max; s++) {
    if (s <= rPlus) below += counts[s] as number;
    if (s >= rPlus) above += counts[s] as number;
  }
  return Math.min(1, (2 * Math.min(below, above)) / 2 ** n);
}

/** The same two-sided p-value over every assignment of signs to the given (possibly tied) ranks. */
function permutationP(rPlus: number, ranks: readonly number[]): number {
  // scipy compares with a relative tolerance so that sums equal in theory count as equal.
  const tolerance = Math.abs(rPlus) * Number.EPSILON * 100;
  const total = 2 ** ranks.length;
  let below = 0;
  let above = 0;
  for (let signs = 0; signs < total; signs++) {
    let sum = 0;
    for (let i = 0; i < ranks.length; i++) if (signs & (1 << i)) sum += ranks[i] as number;
    if (sum <= rPlus + tolerance) below++;
    if (sum >= rPlus - tolerance) above++;
  }
  return Math.min(1, (2 * Math.min(below, above)) / total);
}
