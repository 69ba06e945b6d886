/** Descriptive statistics of one sample of finite numbers. */

export function mean(xs: readonly number[]): number {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Sample variance (n - 1 in the denominator), computed around the mean for accuracy. */
export function sampleVariance(xs: readonly number[]): number {
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  return ss / (xs.length - 1);
}

/** [min, max] of a non-empty list, without spreading it into arguments (lists may be long). */
export function extent(values: readonly number[]): [number, number] {
  let [min, max] = [Infinity, -Infinity];
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export type Summary = { n: number; mean: number; std: number | null; min: number; max: number; median: number };

/** n, mean, sample standard deviation (null for a single value), min, max and median of a non-empty sample. */
export function summarize(xs: readonly number[]): Summary {
  const [min, max] = extent(xs);
  return {
    n: xs.length,
    mean: mean(xs),
    std: xs.length > 1 ? Math.sqrt(sampleVariance(xs)) : null,
    min,
    max,
    median: median(xs),
  };
}
