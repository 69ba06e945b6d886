import { join } from 'node:path';
import { LaunchConfig, RunMeta } from '../../schema/checkpoint.ts';
import { readRecord } from './records.ts';
import { statOrNull } from '../paths.ts';

/** Files of a checkpoint worth pointing a researcher at, in pipeline order. */
const NOTABLE = [
  'experiment.md',
  'workflow.yaml',
  'launch_config.json',
  'idea.json',
  'tree.json',
  'nodes_tree.json',
  'cost_summary.json',
  'lineage_decisions.jsonl',
  'science_data.json',
  'figures_manifest.json',
  'full_paper.tex',
  'full_paper.pdf',
  'review_report.json',
  'ear',
  'ear_published/manifest.lock',
  'publish_record.json',
  'ors_grade.json',
];

export type FileEntry = { path: string; size: number; kind: 'file' | 'dir' };

export function notableFiles(dir: string): FileEntry[] {
  return NOTABLE.flatMap((rel) => {
    const st = statOrNull(join(dir, rel));
    return st ? [{ path: rel, size: st.isDirectory() ? 0 : st.size, kind: st.isDirectory() ? ('dir' as const) : ('file' as const) }] : [];
  });
}

export type RunOrigin = { model: string | null; provider: string | null; profile: string | null; parent_run_id: string | null };

/** What a run was launched with (launch_config.json) and, for a sub-experiment, its parent (meta.json). */
export function runOrigin(dir: string, problems: string[]): RunOrigin {
  const launch = readRecord(dir, 'launch_config.json', LaunchConfig, problems);
  const meta = readRecord(dir, 'meta.json', RunMeta, problems);
  return { model: launch?.llm_model ?? null, provider: launch?.llm_provider ?? null, profile: launch?.profile ?? null, parent_run_id: meta?.parent_run_id ?? null };
}
