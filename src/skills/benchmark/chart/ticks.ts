/** Axis ticks at "nice" numbers: steps of 1, 2 or 5 times a power of ten. */

export type Ticks = { min: number; max: number; step: number; values: number[] };

/** About `target` ticks covering [lo, hi], extended outward to whole steps. */
export function niceTicks(lo: number, hi: number, target = 6): Ticks {
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = niceStep((hi - lo) / Math.max(1, target - 1));
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const values: number[] = [];
  const count = Math.round((max - min) / step);
  // Multiply rather than accumulate, and round away the binary noise (0.1 + 0.2).
  for (let i = 0; i <= count; i++) values.push(Number((min + i * step).toPrecision(12)));
  return { min, max, step, values };
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/**
 * Labels for every tick, with as many decimals as the step needs; exponent form for the whole axis
 * when its values are very large or the step very small.
 */
export function tickLabels(t: Ticks): string[] {
  const stepMagnitude = Math.floor(Math.log10(t.step));
  const largest = Math.max(...t.values.map(Math.abs));
  const largestMagnitude = largest === 0 ? 0 : Math.floor(Math.log10(largest));
  const exponent = largestMagnitude >= 6 || stepMagnitude <= -5;
  return t.values.map((v) => {
    if (v === 0) return '0';
    if (!exponent) return v.toFixed(Math.max(0, -stepMagnitude));
    const digits = Math.max(0, Math.floor(Math.log10(Math.abs(v))) - stepMagnitude);
    return v.toExponential(digits).replace(/\.?0+e/, 'e').replace('e+', 'e');
  });
}
