// How numbers and times read on the pages.

export const score = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined ? '–' : v.toFixed(digits));

export const usd = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `$${v.toFixed(2)}`);

// one formatter each: toLocaleString with options builds a new one per call, slow over a thousand rows
const minutes = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const seconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function when(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : minutes.format(t);
}

/** A time given as epoch seconds (as memory records keep it), readable. */
export function epochSeconds(ts: number | undefined): string {
  return ts === undefined ? '–' : seconds.format(new Date(ts * 1000));
}

/** A file's size in B, KB, MB or GB (powers of 1024). */
export function fileSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024;
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
