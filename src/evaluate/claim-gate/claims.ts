import { unique } from '../../core/values.ts';
import { keyPattern } from '../extract.ts';

/** A number a text states for a metric: "accuracy of 91.2%", "speedup: 2.3x". */
export type NumericClaim = { key: string; value: number; percent: boolean; snippet: string; where: string; /** offset of the number in the text */ at: number };

/** How far after the metric's name its number may stand ("accuracy reached a mean of 0.91"). */
const WINDOW = 40;
const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d+)?|\.\d+)`;

/**
 * The numeric claims a text makes about the given metric keys: each mention of a key followed
 * within a few words (not crossing a sentence end) by a number. Where two keys overlap ("top-1
 * accuracy" and "accuracy"), the number belongs to the longer name. A number written right before
 * a metric's name ("the best of 2 configurations") is that metric's, not the one named before it:
 * the claim is the following key's, or none when the name is one of `others` (a metric the data
 * holds that no claim is read for). So is a number written before the unit a metric's name ends
 * with ("0.5 s" for time_s): that metric's, or none when several names end with that unit.
 */
export function extractClaims(text: string, keys: string[], where: string, others: readonly string[] = []): NumericClaim[] {
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
  const names = unique([...keys, ...others]).sort((a, b) => b.length - a.length);
  const named = names.length === 0 ? null : new RegExp(String.raw`^[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:\s*(?:\\?%|percent))?\s*(?:~|\\,)?\s*(?:${names.map((k) => `(${keyPattern(k)})`).join('|')})(?![A-Za-z0-9])`, 'i');
  const units = new Map<string, string[]>();
  for (const k of names) {
    const unit = /_([a-z]{1,3})$/.exec(k)?.[1];
    if (unit) units.set(unit, [...(units.get(unit) ?? []), k]);
  }
  const unitAfter = units.size === 0 ? null : new RegExp(String.raw`^[-+]?(?:\d+(?:\.\d+)?|\.\d+)\s*(?:~|\\,)?\s*(${[...units.keys()].join('|')})(?![A-Za-z0-9])`, 'i');
  const out: NumericClaim[] = [];
  for (const [at, { nameLength: _, ...claim }] of [...byNumber.entries()].sort((a, b) => a[0] - b[0])) {
    const after = text.slice(at, at + 120);
    const next = named?.exec(after);
    const unit = unitAfter?.exec(after)?.[1]?.toLowerCase();
    const byUnit = unit === undefined ? [] : (units.get(unit) ?? []);
    const following = next ? names[next.slice(1).findIndex((g) => g !== undefined)] : byUnit.includes(claim.key) ? claim.key : byUnit.length === 1 ? byUnit[0] : byUnit.length > 1 ? '' : undefined;
    if (following === undefined || following === claim.key) out.push(claim);
    else if (keys.includes(following)) out.push({ ...claim, key: following });
  }
  return out;
}
