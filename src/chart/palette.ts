/** Colours: a categorical palette for series and a viridis-like scale for heatmaps. */

/** The ten colours matplotlib uses by default, familiar from most papers. */
const SERIES_COLOURS = [
  '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf',
] as const;

export function seriesColour(i: number): string {
  return SERIES_COLOURS[i % SERIES_COLOURS.length] as string;
}

/** viridis sampled at 0, 1/8, ..., 1: perceptually uniform and readable in grey scale. */
const VIRIDIS: readonly [number, number, number][] = [
  [68, 1, 84], [71, 44, 122], [59, 82, 139], [44, 114, 142], [33, 145, 140],
  [40, 174, 128], [94, 201, 98], [173, 220, 48], [253, 231, 37],
];

/** The scale's colour at t in [0, 1], interpolated between the samples. */
export function viridis(t: number): string {
  const pos = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(pos));
  const f = pos - i;
  const [a, b] = [VIRIDIS[i] as [number, number, number], VIRIDIS[i + 1] as [number, number, number]];
  return `#${a.map((c, k) => Math.round(c + ((b[k] as number) - c) * f).toString(16).padStart(2, '0')).join('')}`;
}

/** Black or white, whichever reads better on the given #rrggbb background. */
export function inkOn(background: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(background.slice(i, i + 2), 16)) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? '#000000' : '#ffffff';
}
