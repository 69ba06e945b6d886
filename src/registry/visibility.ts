/** Who may read a bundle in the registry, and which changes of it count as promotion. */
export type Visibility = 'staged' | 'unlisted' | 'public' | 'private-token' | `embargoed-until:${string}`;

const PLAIN = new Set(['staged', 'unlisted', 'public', 'private-token']);
const EMBARGO = /^embargoed-until:(\d{4})-(\d{2})-(\d{2})$/;

/** The visibility a string names, or null: an embargo must name a real calendar date. */
export function parseVisibility(s: string): Visibility | null {
  if (PLAIN.has(s)) return s as Visibility;
  return embargoStart(s) === null ? null : (s as Visibility);
}

/** When an embargo ends: the start (00:00 UTC) of its date; null when `v` is not an embargo. */
export function embargoStart(v: string): number | null {
  const m = EMBARGO.exec(v);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : null;
}

/** The caller as the server sees them: nobody, or the user of a valid token. */
export type Caller = { user: string } | null;

/**
 * Whether `caller` may read a bundle of `visibility` owned by `owner`: 'ok', 'token' (a valid token
 * is needed: 401) or 'refused' (403). The owner reads their bundles whatever the visibility.
 */
export function readAccess(visibility: Visibility, owner: string, caller: Caller, now: number): 'ok' | 'token' | 'refused' {
  if (caller?.user === owner) return 'ok';
  if (visibility === 'public' || visibility === 'unlisted') return 'ok';
  if (visibility === 'private-token') return caller ? 'ok' : 'token';
  if (visibility === 'staged') return caller ? 'refused' : 'token';
  const start = embargoStart(visibility);
  return start !== null && now >= start ? 'ok' : 'refused';
}

/**
 * Whether going from `from` to `to` is a promotion: out of staged to anything else, or from any
 * other state to public. Asking for the state a bundle is already in is allowed (a retry). Anything
 * else narrows or shifts who can read it and is refused.
 */
export function mayPromote(from: Visibility, to: Visibility): boolean {
  if (from === to) return true;
  if (to === 'staged') return false;
  return from === 'staged' || to === 'public';
}
