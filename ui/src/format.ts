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

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A size in bytes, readable: 1536 is "1.5 KB" (powers of 1024). */
export function bytes(n: number): string {
  let v = n;
  let unit = 0;
  while (v >= 1024 && unit < SIZE_UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return unit === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${SIZE_UNITS[unit]}`;
}
