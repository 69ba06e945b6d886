/** Axis ticks at "nice" numbers: steps of 1, 2 or 5 times a power of ten. */

/** The axis range [min, max] and the ticks inside it. */
export type Ticks = { min: number; max: number; step: number; values: number[] };

/** [lo, hi] widened by a fraction of its span, so that marks at the extremes do not touch the frame. */
export function withMargin(lo: number, hi: number, fraction = 0.05): [number, number] {
  const pad = (hi - lo) * fraction;
  return [lo - pad, hi + pad];
}

/**
 * An axis over [lo, hi] with ticks at the nice numbers inside it, about `target` of them.
 * A single value gets room around it.
 */
export function niceTicks(lo: number, hi: number, target = 6): Ticks {
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = niceStep((hi - lo) / Math.max(1, target - 1));
  // The slack keeps 3e-5 / 1e-5 = 3.0000000000000004 from dropping the tick at 3e-5.
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  // Multiply rather than accumulate, and round away the binary noise (3 × 1e-5 = 2.9999999999999997e-5).
  const values = Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
  return { min: lo, max: hi, step, values };
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * power;
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
    if (!exponent) return v.toFixed(Math.max(0, -stepMagnitude));
    if (v === 0) return '0';
    const digits = Math.max(0, Math.floor(Math.log10(Math.abs(v))) - stepMagnitude);
    return v.toExponential(digits).replace(/\.?0+e/, 'e').replace('e+', 'e');
  });
}
