// How numbers and times read on the pages.

export const score = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined ? '–' : v.toFixed(digits));

export const usd = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `$${v.toFixed(2)}`);

export function when(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time given as epoch seconds (as memory records keep it), readable. */
export function epochSeconds(ts: number | undefined): string {
  return ts === undefined ? '–' : new Date(ts * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
