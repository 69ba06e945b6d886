import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { writeJsonAtomic } from '../core/atomic.ts';
import { isCheckpointDir } from '../core/checkpoint/locate.ts';
import { InputError, InvalidRecordError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import { workspaceOf } from '../core/workspace.ts';
import type { ModelClient } from '../llm/client.ts';
import { ScienceData } from '../schema/science-data.ts';
import { anchorValues, compare } from './anchors.ts';
import { measuredNodes } from './configurations.ts';
import { chosenIdea, experimentGoal } from './experiment.ts';
import { nameConfigurations } from './naming.ts';
import { readNodesFile } from './nodes-file.ts';
import { readScienceDataFile } from './read.ts';
import { primaryMetric } from './primary-metric.ts';

export const SCIENCE_DATA_FILE = 'science_data.json';

export type ScienceDataRequest = {
  nodesJsonPath: string;
  primaryMetric?: string;
  higherIsBetter: boolean;
  /** names the configurations and summarises the method; a string: why there is no model, and the names are deterministic */
  model: ModelClient | string;
  signal?: AbortSignal;
};

/** What the stage reports; the file holds the rest. */
export type ScienceDataSummary = {
  science_data_path: string;
  primary_metric: string;
  higher_is_better: boolean;
  configurations: number;
  best: { node_id: string; name: string; value: number } | null;
  baseline: { node_id: string; name: string; value: number } | null;
  notes: string[];
};

/**
 * Builds `science_data.json` beside the nodes file (the checkpoint's nodes_tree.json): every node
 * with real data as a configuration, numbers from its results.json only, the best and the baseline
 * by the primary metric, and the anchor values a paper quotes. Nothing is written when no node has
 * usable measurements.
 */
export async function buildScienceData(req: ScienceDataRequest): Promise<ScienceDataSummary> {
  const path = resolve(req.nodesJsonPath);
  const checkpointDir = dirname(path);
  const file = readNodesFile(path);
  if (!isCheckpointDir(checkpointDir)) throw new InputError(`nodes_json_path '${printable(req.nodesJsonPath)}' is not inside a checkpoint`, "give the checkpoint's nodes_tree.json");
  const notes: string[] = [];
  const measured = measuredNodes(checkpointDir, file.nodes, notes);
  if (measured.length === 0) {
    const why = file.nodes.length === 0 ? 'it lists no nodes' : notes.join('; ');
    throw new InputError(`no node of ${printable(req.nodesJsonPath)} has real data with a readable results.json: ${why}`, 'science data is built from measured nodes only; run the search until a node emits results');
  }
  const metric = primaryMetric(checkpointDir, { name: req.primaryMetric, higher_is_better: req.higherIsBetter });
  const goal = experimentGoal(checkpointDir, file.experiment_goal);
  const idea = chosenIdea(checkpointDir);
  const naming = await nameConfigurations(req.model, { configs: measured, metric: metric.name, higherIsBetter: metric.higher_is_better, goal, idea }, notes, req.signal);
  const configurations = measured.map((c) => ({
    node_id: c.node_id,
    label: c.label,
    name: naming.names.get(c.node_id) as string,
    depth: c.depth,
    parent_id: c.parent_id,
    params: c.params,
    metrics: c.metrics,
    results_path: c.results_path,
  }));
  const cmp = compare(configurations, metric.name, metric.higher_is_better);
  if (cmp.metric === null) notes.push(`no configuration measured ${metric.name} (from ${metric.source}): no best, baseline or improvement`);
  const values = anchorValues(configurations, cmp, metric.higher_is_better, notes);
  // notes name files by their place in the workspace: the data travels in bundles, the author's paths should not
  const workspace = `${workspaceOf(checkpointDir)}${sep}`;
  const data: ScienceData = {
    schema_version: 1,
    primary_metric: { name: cmp.metric ?? metric.name, higher_is_better: metric.higher_is_better, unit: null },
    experiment_context: { goal, idea, method_summary: naming.method_summary },
    configurations,
    best: cmp.best,
    baseline: cmp.baseline,
    values,
    notes: notes.map((n) => n.replaceAll(workspace, '')),
  };
  const bad = Value.Errors(ScienceData, data).First();
  if (bad) throw new InvalidRecordError(`science data would not match its schema at ${bad.path}: ${bad.message}`);
  const out = join(checkpointDir, SCIENCE_DATA_FILE);
  writeJsonAtomic(out, data);
  const named = (p: typeof cmp.best) => (p ? { ...p, name: naming.names.get(p.node_id) as string } : null);
  return { science_data_path: out, primary_metric: data.primary_metric.name, higher_is_better: metric.higher_is_better, configurations: configurations.length, best: named(cmp.best), baseline: named(cmp.baseline), notes: data.notes ?? [] };
}

/** A checkpoint's science_data.json, checked (readScienceDataFile); null when there is none. */
export function readScienceData(checkpointDir: string): ScienceData | null {
  const path = join(checkpointDir, SCIENCE_DATA_FILE);
  return existsSync(path) ? readScienceDataFile(path) : null;
}
