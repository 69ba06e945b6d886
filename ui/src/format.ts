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

/** A span of seconds in the largest units that matter: `12 h 5 min`, `5 min`, `40 s`. */
export function duration(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return m > 0 ? `${m} min` : `${Math.round(sec)} s`;
}
