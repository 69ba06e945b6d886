import type { Composite } from './settings.ts';

/** An axis score below this counts as this: a harmonic or geometric mean of a zero would be 0 or undefined. */
export const AXIS_FLOOR = 0.01;

export type WeightedScore = { score: number; weight: number };

/** A judge's axis score as the composite uses it: clamped to [0, 1], then raised to the floor. */
export function clampAxis(x: number): number {
  return Math.max(AXIS_FLOOR, Math.min(1, x));
}

/**
 * The composite of the axes that take part (weight above 0, a finite score). 0 when none does.
 * harmonic_mean Σw/Σ(w/x); arithmetic_mean Σwx/Σw; weighted_min the lowest participating score;
 * geometric_mean exp(Σw·ln x/Σw).
 */
export function compositeScore(kind: Composite, axes: WeightedScore[]): number {
  const parts = axes.filter((a) => a.weight > 0 && Number.isFinite(a.score)).map((a) => ({ w: a.weight, x: clampAxis(a.score) }));
  if (parts.length === 0) return 0;
  const total = parts.reduce((s, p) => s + p.w, 0);
  switch (kind) {
    case 'harmonic_mean':
      return total / parts.reduce((s, p) => s + p.w / p.x, 0);
    case 'arithmetic_mean':
      return parts.reduce((s, p) => s + p.w * p.x, 0) / total;
    case 'weighted_min':
      return Math.min(...parts.map((p) => p.x));
    case 'geometric_mean':
      return Math.exp(parts.reduce((s, p) => s + p.w * Math.log(p.x), 0) / total);
  }
}
