/**
 * A measured number as a caption states it: whole numbers whole, others to four significant
 * digits (within the claim gate's tolerance of the anchored value, and readable).
 */
export function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  if (Math.abs(v) >= 1000) return String(Math.round(v));
  return String(Number(v.toPrecision(4)));
}

/** The numbers a text states: `20,573` is one number, `-3.5e-4` one, `2.2` one. */
export function numbersIn(text: string): number[] {
  const plain = text.replace(/\u2212/g, '-').replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  return [...plain.matchAll(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi)].map((m) => Number(m[0]));
}

/**
 * The numbers of `text` that none of `allowed` backs: equal to one of them, or to its magnitude
 * (a change of -96.5% said as "96.5% fewer"), up to rounding.
 */
export function unbackedNumbers(text: string, allowed: readonly number[]): number[] {
  const close = (n: number, a: number) => Math.abs(Math.abs(n) - Math.abs(a)) <= 0.005 * Math.max(Math.abs(a), 1e-12);
  return numbersIn(text).filter((n) => !allowed.some((a) => close(n, a)));
}
