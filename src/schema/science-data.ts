import { type Static, Type as T } from '@sinclair/typebox';

const Nullable = <S extends Parameters<typeof T.Union>[0][number]>(s: S) => T.Union([s, T.Null()]);

/**
 * One number a paper may state, under its anchor key. The value is measured (a node's
 * results.json) or computed from measured values; never a model's text.
 */
export const ScienceValue = T.Object({
  value: T.Number(),
  /** the metric it is a value of (a results.json measurement name), or what was counted */
  metric: T.String(),
  /** the node it was measured on; null for values computed across nodes */
  node_id: Nullable(T.String()),
  /** what the number is, in a few words, for the writer and the claim gate */
  what: T.String(),
});
export type ScienceValue = Static<typeof ScienceValue>;

/** A measured configuration: one node with real data, its settings and its measurements. */
export const ScienceConfiguration = T.Object({
  node_id: T.String(),
  /** the node's label in the search: draft, improve, ablation, validation, debug, other */
  label: T.String(),
  /** a short name for the configuration (the model may name it; "Shell sort, ratio 2.2") */
  name: T.String(),
  depth: T.Integer({ minimum: 0 }),
  parent_id: Nullable(T.String()),
  /** the settings it ran with (results.json params) */
  params: T.Record(T.String(), T.Union([T.Number(), T.String(), T.Boolean()])),
  /** what it measured (results.json measurements) */
  metrics: T.Record(T.String(), T.Number()),
  /** the results.json the numbers were read from */
  results_path: T.String(),
});
export type ScienceConfiguration = Static<typeof ScienceConfiguration>;

/**
 * `science_data.json`: what a search measured, typed, for the paper's text, figures and tables.
 * Anchor keys in `values` (the claim anchors a paper's numbers name):
 * - `<node_id>.<metric>`: a node's measurement;
 * - `best.<metric>`, `baseline.<metric>`: the best and the baseline configuration's;
 * - `improvement.<primary metric>.ratio` (baseline over best, or best over baseline when higher is
 *   better: how many times better) and `.percent` (relative change from the baseline, in percent);
 * - `count.configurations`: how many configurations have real data.
 */
export const ScienceData = T.Object({
  schema_version: T.Literal(1),
  primary_metric: T.Object({ name: T.String(), higher_is_better: T.Boolean(), unit: Nullable(T.String()) }),
  /** the experiment in words: goal from experiment.md, the idea, and a method summary the model may write */
  experiment_context: T.Object({ goal: T.String(), idea: Nullable(T.String()), method_summary: T.String() }),
  configurations: T.Array(ScienceConfiguration),
  best: Nullable(T.Object({ node_id: T.String(), value: T.Number() })),
  /** the configuration others are compared with: the root draft's, or the one labelled baseline */
  baseline: Nullable(T.Object({ node_id: T.String(), value: T.Number() })),
  values: T.Record(T.String(), ScienceValue),
  /**
   * What was left out and why (a node whose results.json is missing or damaged), and whether the
   * names and the method summary are the model's or the deterministic ones: a writer that quotes
   * this file, and a reader checking it, must know which nodes it does not cover.
   */
  notes: T.Optional(T.Array(T.String())),
});
export type ScienceData = Static<typeof ScienceData>;
