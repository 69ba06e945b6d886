import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
    try {
      const st = statSync(join(dir, rel));
      return [{ path: rel, size: st.isDirectory() ? 0 : st.size, kind: st.isDirectory() ? ('dir' as const) : ('file' as const) }];
    } catch {
      return [];
    }
  });
}

export type IdeaLine = { title: string; overall_score: number | null };

/** Idea titles from idea.json, in order (the first is the root idea). */
export function ideaTitles(dir: string): IdeaLine[] {
  try {
    const idea = JSON.parse(readFileSync(join(dir, 'idea.json'), 'utf8')) as { ideas?: { title?: unknown; overall_score?: unknown }[] };
    return (idea.ideas ?? []).map((i) => ({
      title: typeof i.title === 'string' ? i.title : '(untitled)',
      overall_score: typeof i.overall_score === 'number' ? i.overall_score : null,
    }));
  } catch {
    return [];
  }
}
