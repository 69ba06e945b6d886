/** A run checkpoint with science data, node results and a LaTeX paper, for the claim gate and the claim linking. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type GateNode = { id: string; status?: string; params?: Record<string, number | string>; measurements: Record<string, number | number[]>; host?: string; results?: boolean };

/** An insertion-sort baseline and the best Shell sort: 1000 against 50 comparisons. */
export const GATE_NODES: GateNode[] = [
  { id: 'node_base', params: { algorithm: 'insertion', seed: 42 }, measurements: { comparisons: 1000, time_s: 2.0 } },
  { id: 'node_best', params: { algorithm: 'shell', gap_ratio: 2.2, seed: 42 }, measurements: { comparisons: [49, 51], time_s: 0.5 } },
];

export type GateRun = { base: string; ckpt: string; experiments: string };

/**
 * `<base>/workspace/checkpoints/run1` with tree.json, science_data.json (the nodes' values under
 * `<node>.<metric>`, best, baseline, improvement and the count) and each node's results.json (and
 * node_report.json naming its host when `host` is given) under the experiments directory.
 */
export function writeGateRun(base: string, nodes: GateNode[] = GATE_NODES, extraValues: Record<string, { value: number; metric: string; node_id: string | null; what: string }> = {}): GateRun {
  const ckpt = join(base, 'workspace', 'checkpoints', 'run1');
  const experiments = join(base, 'workspace', 'experiments', 'run1');
  mkdirSync(ckpt, { recursive: true });
  const mean = (v: number | number[]) => (Array.isArray(v) ? v.reduce((s, x) => s + x, 0) / v.length : v);
  for (const n of nodes) {
    const dir = join(experiments, n.id);
    mkdirSync(dir, { recursive: true });
    if (n.results !== false) writeFileSync(join(dir, 'results.json'), JSON.stringify({ params: n.params ?? {}, measurements: n.measurements }));
    if (n.host) writeFileSync(join(dir, 'node_report.json'), JSON.stringify({ schema_version: 1, node_id: n.id, executor: 'local', hostname: n.host, slurm_partition: null, cpu_info: { model: 'EPYC' } }));
  }
  const tree = nodes.map((n) => ({ id: n.id, parent_id: null, depth: 0, status: n.status ?? 'success', children: [], metrics: { ...Object.fromEntries(Object.entries(n.measurements).map(([k, v]) => [k, mean(v)])), _scientific_score: 0.5 }, has_real_data: true }));
  writeFileSync(join(ckpt, 'tree.json'), JSON.stringify({ run_id: 'run1', nodes: tree }));
  const configurations = nodes.map((n) => ({
    node_id: n.id,
    label: 'draft',
    name: `configuration ${n.id}`,
    depth: 0,
    parent_id: null,
    params: n.params ?? {},
    metrics: Object.fromEntries(Object.entries(n.measurements).map(([k, v]) => [k, mean(v)])),
    results_path: join(experiments, n.id, 'results.json'),
  }));
  const values: Record<string, { value: number; metric: string; node_id: string | null; what: string }> = {};
  for (const c of configurations) for (const [m, v] of Object.entries(c.metrics)) values[`${c.node_id}.${m}`] = { value: v, metric: m, node_id: c.node_id, what: `${m} of ${c.node_id}` };
  const base0 = configurations[0];
  const best = configurations[configurations.length - 1];
  if (base0 && best) {
    const b = base0.metrics.comparisons as number;
    const x = best.metrics.comparisons as number;
    Object.assign(values, {
      'best.comparisons': { value: x, metric: 'comparisons', node_id: best.node_id, what: 'comparisons of the best' },
      'baseline.comparisons': { value: b, metric: 'comparisons', node_id: base0.node_id, what: 'comparisons of the baseline' },
      'improvement.comparisons.ratio': { value: b / x, metric: 'comparisons', node_id: null, what: 'times fewer comparisons' },
      'improvement.comparisons.percent': { value: (100 * (b - x)) / b, metric: 'comparisons', node_id: null, what: 'percent fewer comparisons' },
      'count.configurations': { value: configurations.length, metric: 'configurations', node_id: null, what: 'configurations measured' },
    });
  }
  Object.assign(values, extraValues);
  const science = {
    schema_version: 1,
    primary_metric: { name: 'comparisons', higher_is_better: false, unit: null },
    experiment_context: { goal: 'Sort with fewer comparisons.', idea: null, method_summary: 'Shell sort against insertion sort.' },
    configurations,
    best: best ? { node_id: best.node_id, value: best.metrics.comparisons } : null,
    baseline: base0 ? { node_id: base0.node_id, value: base0.metrics.comparisons } : null,
    values,
  };
  writeFileSync(join(ckpt, 'science_data.json'), JSON.stringify(science, null, 2));
  return { base, ckpt, experiments };
}

/** A paper in sections; `abstract` and `results` add sentences to the abstract and the experiments. */
export function gatePaper(opts: { abstract?: string; results?: string; extra?: string } = {}): string {
  return `\\documentclass{article}
\\newcommand{\\svcclaim}[2]{#2}
\\title{Sorting with Fewer Comparisons}
\\begin{document}
\\maketitle
\\begin{abstract}
Shell sort needs \\svcclaim{best.comparisons}{50} comparisons, \\svcclaim{improvement.comparisons.ratio}{20} times fewer than insertion sort. ${opts.abstract ?? ''}
\\end{abstract}
\\section{Introduction}
Sorting by comparisons is an old problem; we try a geometric gap sequence.
\\section{Method}
Shell sort runs with a gap ratio of 2.2 and seed 42 on the same input.
\\section{Experiments}
The baseline needs \\svcclaim{baseline.comparisons}{1{,}000} comparisons (Table~1). ${opts.results ?? ''}
${opts.extra ?? ''}
\\section{Related Work}
Earlier gap sequences needed 12345 comparisons on larger inputs.
\\begin{equation}
c = 0.29 n^{1.5}
\\end{equation}
\\section{Conclusion}
Geometric gaps cut \\svcclaim{improvement.comparisons.percent}{95\\%} of the comparisons.
\\end{document}
`;
}
