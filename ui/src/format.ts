// How numbers and times read on the pages.

export const score = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined ? '–' : v.toFixed(digits));

export const usd = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `$${v.toFixed(2)}`);

/**
 * A time as `2026-11-01 14:05` (with `:30` seconds when asked), in the browser's time zone. Not
 * Intl's: the first formatter a page makes loads its locale data, tens of ms before the first draw.
 */
function localTime(t: Date, withSeconds: boolean): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())}`;
  return `${day} ${two(t.getHours())}:${two(t.getMinutes())}${withSeconds ? `:${two(t.getSeconds())}` : ''}`;
}

export function when(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : localTime(t, false);
}

/** A time given as epoch seconds (as memory records keep it), readable. */
export function epochSeconds(ts: number | undefined): string {
  return ts === undefined || !Number.isFinite(ts) ? '–' : localTime(new Date(ts * 1000), true);
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
