/**
 * Seconds a Retry-After header asks to wait: delta-seconds or an HTTP date; null when absent or
 * unreadable. `now` is passed in so the date form is testable.
 */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // an HTTP date names its month; without this, Date.parse reads '-3' as a year
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
