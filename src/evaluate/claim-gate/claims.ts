import { keyPattern } from '../extract.ts';

/** A number a text states for a metric: "accuracy of 91.2%", "speedup: 2.3x". */
export type NumericClaim = { key: string; value: number; percent: boolean; snippet: string; where: string; /** offset of the number in the text */ at: number };

/** How far after the metric's name its number may stand ("accuracy reached a mean of 0.91"). */
const WINDOW = 40;
const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d+)?|\.\d+)`;

/**
 * The numeric claims a text makes about the given metric keys: each mention of a key followed
 * within a few words (not crossing a sentence end) by a number. Where two keys overlap ("top-1
 * accuracy" and "accuracy"), the number belongs to the longer name.
 */
export function extractClaims(text: string, keys: string[], where: string): NumericClaim[] {
  const byNumber = new Map<number, NumericClaim & { nameLength: number }>();
  for (const key of keys) {
    const re = new RegExp(String.raw`(?<![A-Za-z0-9_])(${keyPattern(key)})(?![A-Za-z0-9])((?:[^.\n;!?]|\.(?=\d)){0,${WINDOW}}?)(?<![A-Za-z0-9_.])(${NUMBER})(?!\d)(\s*(?:\\?%|percent))?`, 'gi');
    for (const m of text.matchAll(re)) {
      const name = m[1] ?? '';
      const at = m.index + name.length + (m[2] ?? '').length;
      const value = Number(m[3]);
      if (!Number.isFinite(value)) continue;
      const prior = byNumber.get(at);
      if (prior && prior.nameLength >= name.length) continue;
      byNumber.set(at, { key, value, percent: m[4] !== undefined, snippet: m[0].replace(/\s+/g, ' ').trim(), where, at, nameLength: name.length });
    }
  }
  return [...byNumber.entries()].sort((a, b) => a[0] - b[0]).map(([, { nameLength: _, ...claim }]) => claim);
}
