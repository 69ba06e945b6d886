import { join } from 'node:path';
import type { NodeRecord } from '../../schema/checkpoint.ts';
import { statOrNull } from '../paths.ts';
import { type PaperFacts, paperFacts } from './paper.ts';
import { nodePlacements, type Placement } from './placement.ts';
import { parseCheckpointJson, readCheckpointText } from './records.ts';
import { type CheckpointSummary, summarizeCheckpoint } from './summary.ts';
import { readTree, readTreeOutline } from './tree.ts';

/** Report files larger than this are named as a problem instead of being sent whole. */
const MAX_REPORT_BYTES = 8 * 1024 * 1024;

/** The reproducibility (ORS) stage outputs, by the key they appear under. */
const ORS_FILES = {
  grade: 'ors_grade.json',
  phase1: 'ors_phase1.json',
  replicator: 'ors_replicator.json',
  seed: 'ors_seed.json',
  rubric_meta: 'ors_rubric.meta.json',
} as const;

/** The summary every command shares, plus what only the dashboard shows. */
export type CheckpointReport = CheckpointSummary & {
  node_count: number;
  /** the primary metric's value on the best node, when both are known */
  top_metric: { name: string; value: number; node_id: string } | null;
  /** review_report.json as written; present when the file is */
  review?: unknown;
  /** parsed JSON; a string for legacy runs (a text or Markdown report) */
  reproducibility_report?: unknown;
  /** the ORS stage outputs that exist */
  ors?: Partial<Record<keyof typeof ORS_FILES, unknown>>;
  /** the paper the pipeline wrote (the .tex, the compiled PDF, its title and pages); absent when there is none */
  paper?: PaperFacts;
  /** the tree's node records, only when asked for (only their outline fields when asked for the outline) */
  nodes_list?: NodeRecord[];
  /** where each node that ran did so, by node id, from its report */
  placements: Record<string, Placement>;
};

/**
 * Everything the dashboard shows about one run: the summary every command shares, plus the
 * report files the pipeline stages leave. Files that are absent leave their key out; damaged
 * ones are named in `problems`.
 */
export function checkpointReport(dir: string, opts: { withNodes?: boolean; outline?: boolean } = {}): CheckpointReport {
  // the outline keeps of each node what a drawing of the tree needs: a large tree.json is nearly all traces and artifacts
  const { tree, ...s } = summarizeCheckpoint(dir, opts.outline ? readTreeOutline : readTree);
  const problems = s.problems;
  const report: CheckpointReport = {
    ...s,
    node_count: s.nodes.total,
    top_metric: s.best?.metric && s.best.value !== null ? { name: s.best.metric, value: s.best.value, node_id: s.best.id } : null,
    placements: nodePlacements(dir, tree?.nodes ?? []),
  };
  const review = readJson(join(dir, 'review_report.json'), problems);
  if (review !== undefined) report.review = review;
  const repro = reproducibilityReport(dir, problems);
  if (repro !== undefined) report.reproducibility_report = repro;
  const ors = orsResults(dir, problems);
  if (ors) report.ors = ors;
  const paper = paperFacts(dir);
  if (paper) report.paper = paper;
  if (opts.withNodes) report.nodes_list = tree?.nodes ?? [];
  // summarizeCheckpoint already read review_report.json; a damaged one is named once
  report.problems = [...new Set(problems)];
  return report;
}

/** reproducibility_report.json at the root or under repro/; a legacy run's text or Markdown report as a string. */
function reproducibilityReport(dir: string, problems: string[]): unknown {
  for (const rel of ['reproducibility_report.json', 'repro/reproducibility_report.json']) {
    const text = readLimited(join(dir, rel), problems);
    if (text === null) continue;
    try {
      return JSON.parse(text);
    } catch {
      return text; // legacy runs wrote the report as plain text under the .json name
    }
  }
  for (const rel of ['reproducibility_report.md', 'repro/reproducibility_report.md']) {
    const text = readLimited(join(dir, rel), problems);
    if (text !== null) return text;
  }
  return undefined;
}

function orsResults(dir: string, problems: string[]): CheckpointReport['ors'] | null {
  const out: NonNullable<CheckpointReport['ors']> = {};
  for (const [key, name] of Object.entries(ORS_FILES) as [keyof typeof ORS_FILES, string][]) {
    const value = readJson(join(dir, name), problems);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** A JSON file's value; undefined when it is absent or damaged (then named in problems). */
function readJson(file: string, problems: string[]): unknown {
  return parseCheckpointJson(file, readLimited(file, problems), problems);
}

function readLimited(file: string, problems: string[]): string | null {
  // absent, or its directory is a file: readCheckpointText says which, if anything
  const size = statOrNull(file)?.size ?? 0;
  if (size > MAX_REPORT_BYTES) {
    problems.push(`${file}: is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_REPORT_BYTES / 1024 / 1024} MB shown in a summary`);
    return null;
  }
  return readCheckpointText(file, problems);
}
