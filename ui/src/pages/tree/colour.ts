// Node fills: by status (a fixed palette) or by score (a sequential scale over the run's scores).

export type ColourBy = 'status' | 'score';

export type StatusKind = 'success' | 'failed' | 'running' | 'pending' | 'other';

/** Status names as the tree file gives them; older files say completed or done for success. */
const STATUS_KINDS: Record<string, StatusKind> = { success: 'success', completed: 'success', done: 'success', failed: 'failed', error: 'failed', running: 'running', pending: 'pending' };

export const statusKind = (status: string | undefined): StatusKind => (status ? STATUS_KINDS[status] : undefined) ?? 'other';

export const STATUS_FILL: Record<StatusKind, string> = {
  success: '#2f9e5b',
  failed: '#c8372d',
  running: '#2f6fdb',
  pending: '#a3adbb',
  other: '#d9912a',
};

/** The fill of a node without a score when coloured by score. */
export const NO_SCORE_FILL = '#cfd4dc';

// viridis at its ends and middle: ordered in lightness, and readable with red-green colour blindness
const SCALE: [number, number, number][] = [
  [68, 1, 84],
  [33, 145, 140],
  [253, 231, 37],
];

/** The colour of `t` in 0..1 along the score scale. */
function scaleColour(t: number): string {
  const u = Math.min(1, Math.max(0, t)) * (SCALE.length - 1);
  const i = Math.min(SCALE.length - 2, Math.floor(u));
  const f = u - i;
  const [a, b] = [SCALE[i]!, SCALE[i + 1]!];
  const mix = (k: number) => Math.round(a[k]! + (b[k]! - a[k]!) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** A CSS gradient of the whole scale, for the legend. */
export const SCALE_GRADIENT = `linear-gradient(to right, ${SCALE.map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`).join(', ')})`;

export function scoreFill(score: number | null, range: { min: number; max: number } | null): string {
  if (score === null || range === null) return NO_SCORE_FILL;
  return scaleColour(range.max === range.min ? 1 : (score - range.min) / (range.max - range.min));
}
