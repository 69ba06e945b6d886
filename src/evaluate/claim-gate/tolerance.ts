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
  const decimals = /\.(\d+)/.exec(written)?.[1]?.length ?? 0;
  if (decimals === 0 || decimals > 12) return false;
  const shown = Number(written.replace(/\{,\}|,/g, ''));
  return Number(value.toFixed(decimals)) === shown;
}
