import { normalSf } from './distributions.ts';
import { averageRanks, tieTerm } from './ranks.ts';

export type MannWhitneyResult = {
  /** U of data_a, as scipy reports it */
  statistic: number;
  p_value: number;
  method: 'exact' | 'asymptotic';
  /** standardized U with tie and continuity corrections (asymptotic method only) */
  z?: number;
};

/** Both samples larger than this, or any tie, and scipy's method 'auto' uses the normal approximation. */
const EXACT_MAX_SMALLER_N = 8;

/**
 * Two-sided Mann-Whitney U test as scipy.stats.mannwhitneyu with its defaults
 * (method 'auto', use_continuity=True): the exact null distribution of U when either sample has
 * at most 8 values and nothing is tied, else the normal approximation with tie correction and
 * continuity correction.
 */
export function mannWhitneyU(a: readonly number[], b: readonly number[]): MannWhitneyResult {
  const [n1, n2] = [a.length, b.length];
  const { ranks, tieSizes } = averageRanks([...a, ...b]);
  let rankSumA = 0;
  for (let i = 0; i < n1; i++) rankSumA += ranks[i] as number;
  const u1 = rankSumA - (n1 * (n1 + 1)) / 2;
  const u = Math.max(u1, n1 * n2 - u1);
  const ties = tieSizes.some((t) => t > 1);

  if (Math.min(n1, n2) <= EXACT_MAX_SMALLER_N && !ties) {
    return { statistic: u1, p_value: Math.min(1, 2 * exactUSf(u, n1, n2)), method: 'exact' };
  }
  // Every value tied: U has no variance and carries no information (scipy: z = -infinity, p = 1).
  if (tieSizes.length === 1) return { statistic: u1, p_value: 1, method: 'asymptotic' };
  const n = n1 + n2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm(tieSizes) / (n * (n - 1))));
  const z = (u - (n1 * n2) / 2 - 0.5) / sd;
  return { statistic: u1, p_value: Math.min(1, 2 * normalSf(z)), method: 'asymptotic', z };
}

/**
 * P(U ≥ u) under the null hypothesis. The number of arrangements giving U = k is the coefficient
 * of q^k in the Gaussian binomial [n1+n2 choose m]_q = Π_{i=1..m} (1 − q^{n+i}) / (1 − q^i)
 * (m the smaller sample, n the larger). By symmetry P(U ≥ u) = P(U ≤ mn − u), so only the
 * coefficients up to mn − u are needed. Counts exceed 2^53 quickly, hence BigInt.
 */
function exactUSf(u: number, n1: number, n2: number): number {
  const m = Math.min(n1, n2);
  const n = Math.max(n1, n2);
  const top = m * n - u;
  const coef = new Array<bigint>(top + 1).fill(0n);
  coef[0] = 1n;
  for (let i = 1; i <= m; i++) {
    for (let k = top; k >= n + i; k--) coef[k] = (coef[k] as bigint) - (coef[k - n - i] as bigint);
    for (let k = i; k <= top; k++) coef[k] = (coef[k] as bigint) + (coef[k - i] as bigint);
  }
  let atMost = 0n;
  for (const c of coef) atMost += c;
  return Number(atMost) / Number(binomial(n1 + n2, m));
}

function binomial(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
