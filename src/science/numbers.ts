/**
 * Numbers a model's text may quote. A name or summary a model writes is words: the numbers in it
 * must be ones the data already holds (a configuration's settings, the experiment's own
 * description), so a made-up result can never enter science_data.json or the bundle through it.
 */

/** Digits standing alone: not part of an identifier (node_e3ab948b, log2, mulberry32). */
const STANDALONE = /(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![A-Za-z0-9_])/g;
/** Every run of digits, with its sign (a minus sign too), thousands separators and exponent (`-3.5e-4`, `1,003,112`). */
const EVERY = /[-\u2212]?\d+(?:,\d{3}(?!\d))*(?:\.\d+)?(?:e[+-]?\d+)?/gi;

/** Where a number stands in a text, as the `every` reading reads it. */
type NumberSpan = { value: number; start: number; end: number };

/**
 * The numbers a text writes out; thousands separators (2,000) are read as one number. `standalone`
 * (the default) reads the digits that stand alone, without sign: a name's digits are the name's.
 * `every` reads every run of digits with its sign (a minus sign too) and exponent, so that no
 * number of a text a model wrote slips by as part of a word.
 */
export function numbersIn(text: string, reading: 'standalone' | 'every' = 'standalone'): number[] {
  if (reading === 'every') return numberSpans(text).map((s) => s.value);
  const plain = text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  return [...plain.matchAll(STANDALONE)].map((m) => Number(m[0]));
}

/** Every number of a text as `numbersIn` reads it with `every`, and where it stands. */
function numberSpans(text: string): NumberSpan[] {
  return [...text.matchAll(EVERY)].map((m) => ({ value: Number(m[0].replace(/\u2212/, '-').replace(/,/g, '')), start: m.index, end: m.index + m[0].length }));
}

/**
 * The text with every number (as `numbersIn` reads them with `every`) that `backed` refuses
 * replaced by `marker`: a model's words may keep the numbers the data holds, never its own.
 * Numbers inside the spans `keep` gives (a key's name, `top_1_accuracy`) are left alone.
 */
export function maskNumbers(text: string, backed: (n: number) => boolean, marker: string, keep: readonly { start: number; end: number }[] = []): string {
  let out = '';
  let at = 0;
  for (const s of numberSpans(text)) {
    if (backed(s.value) || keep.some((k) => s.start >= k.start && s.end <= k.end)) continue;
    out += text.slice(at, s.start) + marker;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * The numbers of `text` (every one, as `numbersIn` reads them) that none of `allowed` backs: equal
 * to one of them, or to its magnitude (a change of -96.5% said as "96.5% fewer"), up to rounding.
 */
export function unbackedNumbers(text: string, allowed: readonly number[]): number[] {
  const close = (n: number, a: number) => Math.abs(Math.abs(n) - Math.abs(a)) <= 0.005 * Math.max(Math.abs(a), 1e-12);
  return numbersIn(text, 'every').filter((n) => !allowed.some((a) => close(n, a)));
}

/** The numbers of `text` that are not among `allowed`, each once. */
export function foreignNumbers(text: string, allowed: ReadonlySet<number>): number[] {
  return [...new Set(numbersIn(text).filter((n) => !allowed.has(n)))];
}

/** Every number in some values (params, measurements) and texts, for `foreignNumbers`. */
export function allowedNumbers(values: readonly unknown[], texts: readonly string[] = []): Set<number> {
  const out = new Set<number>();
  const add = (v: unknown): void => {
    if (typeof v === 'number' && Number.isFinite(v)) out.add(Math.abs(v));
    else if (typeof v === 'string') for (const n of numbersIn(v)) out.add(n);
    else if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
  };
  values.forEach(add);
  for (const t of texts) for (const n of numbersIn(t)) out.add(n);
  return out;
}

/**
 * How `formatNumber` writes a number. `latex`, the paper's: integers in full with thin thousands
 * separators (`30{,}850`), other numbers to three significant digits without trailing zeros
 * (`0.973`, `12.3`), very small or large ones as `1.23\times10^{-4}`; `\ensuremath` keeps the
 * minus sign and powers right in text and in math. `plain`, a figure caption's: whole numbers
 * whole (`20573`), others to four significant digits (`48.76`), within the claim gate's tolerance
 * of the anchored value, and readable.
 */
export type NumberStyle = 'latex' | 'plain';

/** Significant digits of a non-integer by style; the digits before the decimal point are never rounded away. */
const SIGNIFICANT: Readonly<Record<NumberStyle, number>> = { latex: 3, plain: 4 };

/** A number as a paper (`latex`) or a caption (`plain`) prints it, the same for the same value every time. */
export function formatNumber(value: number, style: NumberStyle = 'latex'): string {
  if (style === 'plain') {
    if (Number.isInteger(value)) return String(value);
    if (Math.abs(value) >= 1000) return String(Math.round(value));
    return String(Number(value.toPrecision(SIGNIFICANT.plain)));
  }
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '\\ensuremath{-}' : '';
  const a = Math.abs(value);
  if (a === 0) return '0';
  if (a >= 1e15 || (a < 1e-3 && !Number.isInteger(a))) return scientific(value);
  if (Number.isInteger(a)) return sign + grouped(a.toFixed(0));
  const intDigits = Math.floor(Math.log10(a)) + 1;
  const fixed = a.toFixed(Math.max(0, SIGNIFICANT.latex - intDigits));
  const [whole = '0', fraction] = fixed.split('.');
  const kept = fraction?.replace(/0+$/, '') ?? '';
  return sign + grouped(whole) + (kept ? `.${kept}` : '');
}

function scientific(value: number): string {
  const [mantissa = '0', exponent = '0'] = value.toExponential(SIGNIFICANT.latex - 1).split('e');
  const m = mantissa.replace(/\.?0+$/, '');
  return `\\ensuremath{${m}\\times10^{${Number(exponent)}}}`;
}

function grouped(digits: string): string {
  return digits.length < 4 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, '{,}');
}
