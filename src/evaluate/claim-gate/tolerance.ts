import type { Tolerance } from './policy.ts';

/** |claimed − reported| ≤ absolute + relative·|reported|. */
export function matches(claimed: number, reported: number, tol: Tolerance): boolean {
  // 1e-12: so that a claim of 0.3 matches a reported 0.1 + 0.2 at zero tolerance
  return Math.abs(claimed - reported) <= tol.absolute + tol.relative * Math.abs(reported) + 1e-12;
}

/**
 * A number as a paper prints it stands for the value when it is the value rounded to the decimals
 * printed (0.973 for 0.97312): the paper's own formatting, at any tolerance. Whole numbers are
 * not read this way, or "2" would stand for anything from 1.5 to 2.5.
 */
export function printedAs(written: string, value: number): boolean {
  return roundsTo(decimalsOf(written), Number(written.replace(/\{,\}|,/g, '')), value);
}

/** How many decimals a number is written with. */
export function decimalsOf(written: string): number {
  return /\.(\d+)/.exec(written)?.[1]?.length ?? 0;
}

/** printedAs with the written number read already: the gate asks this of every value for every number. */
export function roundsTo(decimals: number, shown: number, value: number): boolean {
  if (decimals === 0 || decimals > 12) return false;
  // most values are far from the number: only a near one is worth rounding
  if (Math.abs(value - shown) > 10 ** -decimals) return false;
  return Number(value.toFixed(decimals)) === shown;
}
