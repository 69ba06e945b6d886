import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_ID = '20260301120000_sorting';
export const ROOT_ID = `node_${RUN_ID}_root`;

type FixtureNode = {
  id: string;
  parent_id: string | null;
  label: string;
  raw_label?: string;
  status: string;
  has_real_data: boolean;
  /** the results.json text of its work directory; absent: none written */
  results?: string;
  /** the code files of its work directory */
  code?: Record<string, string>;
  metrics?: Record<string, unknown>;
  artifacts?: unknown[];
};

const results = (params: Record<string, unknown>, measurements: Record<string, unknown>) => JSON.stringify({ schema_version: '1.0', params, measurements, predictions: {}, scores: {} });

/**
 * The nodes of a finished sorting search: an insertion-sort root draft (1000 comparisons), two
 * Shell-sort children (a list of trials averaging 100, and the best at 50), a failed node without
 * real data, one whose results.json is damaged and one that wrote none.
 */
export const SORTING_NODES: FixtureNode[] = [
  { id: ROOT_ID, parent_id: null, label: 'draft', status: 'success', has_real_data: true, results: results({ algorithm: 'insertion', seed: 42 }, { comparisons: 1000, moves: 900 }), code: { 'sort.js': '// insertion\n' } },
  { id: 'node_aaaa0001', parent_id: ROOT_ID, label: 'improve', status: 'success', has_real_data: true, results: results({ algorithm: 'shell', gap_ratio: 2.2, seed: 42 }, { comparisons: [90, 110], moves: 80 }), code: { 'sort.js': '// shell 2.2\n' } },
  {
    id: 'node_aaaa0002',
    parent_id: ROOT_ID,
    label: 'improve',
    status: 'success',
    has_real_data: true,
    results: results({ algorithm: 'shell', gap_ratio: 2.4, seed: 42, gaps: [1, 4, 10] }, { comparisons: 50, moves: 40 }),
    code: { 'sort.js': '// shell 2.4\n', 'lib/gaps.js': '// gaps\n', 'run.log': 'output\n', 'metrics.json': '{}' },
  },
  { id: 'node_aaaa0003', parent_id: ROOT_ID, label: 'debug', status: 'failed', has_real_data: false, artifacts: [{ type: 'code', tool: 'write_code', content: 'x', step: 1 }] },
  { id: 'node_aaaa0004', parent_id: ROOT_ID, label: 'ablation', status: 'success', has_real_data: true, results: '{"params": {"algorithm": "shell"}, "measurements": {"comparisons": 7' },
  { id: 'node_aaaa0005', parent_id: ROOT_ID, label: 'validation', status: 'success', has_real_data: true },
];

/**
 * A checkpoint under `<root>/workspace/checkpoints/<run>` with tree.json, nodes_tree.json (the
 * search's plain view), experiment.md, idea.json, metric_contract.json, and each node's work
 * directory under `<root>/workspace/experiments/<run>/`.
 */
export function writeScienceCheckpoint(root: string, nodes: FixtureNode[] = SORTING_NODES, opts: { contract?: boolean } = {}): string {
  const dir = join(root, 'workspace', 'checkpoints', RUN_ID);
  const experiments = join(root, 'workspace', 'experiments', RUN_ID);
  mkdirSync(dir, { recursive: true });
  const records = nodes.map((n) => {
    const work = join(experiments, n.id);
    mkdirSync(work, { recursive: true });
    if (n.results !== undefined) writeFileSync(join(work, 'results.json'), n.results);
    for (const [rel, text] of Object.entries(n.code ?? {})) {
      mkdirSync(join(work, rel, '..'), { recursive: true });
      writeFileSync(join(work, rel), text);
    }
    const measured = measurementsOf(n.results);
    const metrics = n.metrics ?? (n.has_real_data ? { ...Object.fromEntries(Object.entries(measured).filter(([, v]) => typeof v === 'number')), _scientific_score: 0.5 } : {});
    return {
      id: n.id,
      parent_id: n.parent_id,
      depth: n.parent_id ? 1 : 0,
      status: n.status,
      retry_count: 0,
      children: n.parent_id ? [] : nodes.filter((c) => c.parent_id === n.id).map((c) => c.id),
      created_at: '2026-03-01T12:00:00Z',
      completed_at: '2026-03-01T12:01:00Z',
      artifacts: n.artifacts ?? (n.results ? [{ type: 'result', stdout: 'ok' }] : []),
      metrics,
      has_real_data: n.has_real_data,
      eval_summary: `summary of ${n.id}`,
      label: n.label,
      raw_label: n.raw_label ?? n.label,
      name: `${n.label}: a variant`,
      error_log: null,
      ancestor_ids: n.parent_id ? [n.parent_id] : [],
      trace_log: [],
      original_direction: null,
      node_report_path: null,
    };
  });
  writeFileSync(join(dir, 'tree.json'), JSON.stringify({ run_id: RUN_ID, experiment_file: join(dir, 'experiment.md'), created_at: '2026-03-01T12:00:00Z', nodes: records }, null, 2));
  writeFileSync(join(dir, 'nodes_tree.json'), JSON.stringify({ experiment_goal: '# Sorting', nodes: records }, null, 2));
  writeFileSync(join(dir, 'experiment.md'), '# Fewer comparisons\n\n## Research Goal\nSort 2,000 integers with as few comparisons as possible.\n\nMetric: comparisons (lower is better)\n');
  writeFileSync(join(dir, 'idea.json'), JSON.stringify({ ideas: [{ title: 'Geometric gaps', description: 'Shell sort with a constant gap ratio.' }], primary_metric: 'comparisons', higher_is_better: false }));
  if (opts.contract !== false) writeFileSync(join(dir, 'metric_contract.json'), JSON.stringify({ key: 'comparisons', metric_keyword: 'comparisons', higher_is_better: false }));
  return dir;
}

/** The measurements a results.json text holds; none when it is missing or damaged. */
function measurementsOf(text: string | undefined): Record<string, unknown> {
  try {
    return (JSON.parse(text ?? '') as { measurements?: Record<string, unknown> }).measurements ?? {};
  } catch {
    return {};
  }
}
