/**
 * Numbers a model's text may quote. A name or summary a model writes is words: the numbers in it
 * must be ones the data already holds (a configuration's settings, the experiment's own
 * description), so a made-up result can never enter science_data.json or the bundle through it.
 */

/** Digits standing alone: not part of an identifier (node_e3ab948b, log2, mulberry32). */
const NUMBER = /(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![A-Za-z0-9_])/g;

/** The numbers a text writes out; thousands separators (2,000) are read as one number. */
export function numbersIn(text: string): number[] {
  const plain = text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  return [...plain.matchAll(NUMBER)].map((m) => Number(m[0]));
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
