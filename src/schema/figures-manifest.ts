import { type Static, Type as T } from '@sinclair/typebox';

export const FigureKind = T.Union([T.Literal('metric_bar'), T.Literal('best_vs_baseline'), T.Literal('param_sweep')], {
  description: 'metric_bar: the primary metric of every configuration, best and baseline marked; best_vs_baseline: the two side by side; param_sweep: the metric against a numeric setting that varies while the others stay fixed',
});
export type FigureKind = Static<typeof FigureKind>;

/** One figure of a paper, drawn from science_data.json. Paths are relative to the manifest's directory. */
export const FigureEntry = T.Object({
  /** what the paper includes: a vector PDF, or the PNG where no SVG-to-PDF converter is installed */
  file: T.String(),
  /** the same figure as a PNG: what a vision model is shown */
  png: T.String(),
  kind: FigureKind,
  /** plain text; the LaTeX snippet holds it escaped */
  caption: T.String(),
  caption_source: T.Union([T.Literal('data'), T.Literal('vision model')]),
  /** the \label of its figure environment */
  label: T.String(),
  /** every number the figure shows, under its science-data anchor key (`<node_id>.<metric>`, `best.<metric>`, ...) */
  source: T.Record(T.String(), T.Number()),
});
export type FigureEntry = Static<typeof FigureEntry>;

/**
 * `figures_manifest.json`, written by generate_figures beside the figures: each figure, a LaTeX
 * figure environment for each (in the same order) ready to paste or \input, and notes on what
 * could not be done as asked (no vision model, no PDF converter).
 */
export const FiguresManifest = T.Object({
  figures: T.Array(FigureEntry),
  latex_snippets: T.Array(T.String()),
  notes: T.Array(T.String()),
});
export type FiguresManifest = Static<typeof FiguresManifest>;
