import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type FakeCheckpoint = {
  nodes?: number;
  runId?: string;
  pid?: number;
  extra?: Record<string, unknown>;
  /** rough size of each node's trace and code artifact, like a real ReAct run leaves */
  payloadBytes?: number;
};

/**
 * Writes a checkpoint the way a finished run leaves it (tree.json in the reference layout,
 * experiment.md, idea.json, cost_summary.json). Node scores are deterministic, so the best node is
 * known: the last one has the highest score.
 */
export function writeCheckpoint(root: string, opts: FakeCheckpoint = {}): string {
  const runId = opts.runId ?? '20261101120000_generated_run';
  const dir = join(root, runId);
  mkdirSync(dir, { recursive: true });
  const n = opts.nodes ?? 10;
  const rootId = `node_${runId}_root`;
  const ids = Array.from({ length: n }, (_, i) => (i === 0 ? rootId : `node_${i.toString(16).padStart(8, '0')}`));
  const payload = opts.payloadBytes ?? 200;
  const step = Math.max(1, Math.floor(payload / 8));
  const nodes = ids.map((id, i) => {
    // each node hangs under one of the four nodes before it: a bushy tree of growing depth
    const parent = i === 0 ? null : (ids[Math.max(0, i - 1 - (i % 4))] ?? null);
    return {
      id,
      parent_id: parent,
      depth: 0,
      status: i % 7 === 3 ? 'failed' : 'success',
      retry_count: 0,
      children: [] as string[],
      created_at: '2026-11-01T12:00:00Z',
      completed_at: '2026-11-01T12:05:00Z',
      artifacts: [
        { type: 'code', tool: 'write_code', content: `// kernel ${i}\n${'a[i] += b[i] * c;\n'.repeat(Math.ceil(payload / 2 / 18))}`, step: 3 },
        { type: 'result', stdout: 'elapsed 1.23 s\n'.repeat(Math.ceil(payload / 4 / 15)) },
      ],
      metrics: i % 7 === 3 ? {} : { throughput: 100 + i, _scientific_score: Number((0.2 + (0.7 * i) / Math.max(1, n - 1)).toFixed(4)) },
      has_real_data: i % 7 !== 3,
      eval_summary: `node ${i}`,
      label: i === 0 ? 'draft' : 'improve',
      raw_label: '',
      name: `improve: variant ${i}`,
      error_log: null,
      ancestor_ids: [] as string[],
      trace_log: Array.from({ length: 4 }, (_, k) => (k % 2 === 0 ? `→ run_bash({"command":"make run-${k}"${' '.repeat(step)}})` : `  ← ok ${'.'.repeat(step)}`)),
    };
  });
  const byId = new Map(nodes.map((x) => [x.id, x]));
  for (const x of nodes) {
    if (!x.parent_id) continue;
    const p = byId.get(x.parent_id);
    if (!p) continue;
    p.children.push(x.id);
    x.depth = p.depth + 1;
    x.ancestor_ids = [...p.ancestor_ids, p.id];
  }
  const tree = { run_id: runId, experiment_file: 'experiment.md', created_at: '2026-11-01T12:00:00Z', nodes, ...opts.extra };
  writeFileSync(join(dir, 'tree.json'), JSON.stringify(tree, null, 2));
  writeFileSync(join(dir, 'experiment.md'), '# Generated\n\n## Research Goal\nMaximise throughput of the generated kernel.\n');
  writeFileSync(join(dir, 'idea.json'), JSON.stringify({ ideas: [{ title: 'Generated idea', overall_score: 0.6 }], primary_metric: 'throughput' }));
  writeFileSync(join(dir, 'cost_summary.json'), JSON.stringify({ total_cost_usd: 1.25, total_tokens: 5000, call_count: 12, by_phase: {}, by_model: {} }));
  if (opts.pid !== undefined) writeFileSync(join(dir, '.svc_pid'), `${opts.pid}\n`);
  return dir;
}

/**
 * A checkpoint whose search has run (an empty tree.json) with `files` under its ear/, paths
 * relative to ear/ (publish.yaml among them when given): what the bundle commands work on.
 */
export function writeEarCheckpoint(dir: string, files: Record<string, string | Uint8Array>): string {
  mkdirSync(join(dir, 'ear'), { recursive: true });
  writeFileSync(join(dir, 'tree.json'), '{"nodes":[]}');
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'ear', rel)), { recursive: true });
    writeFileSync(join(dir, 'ear', rel), body);
  }
  return dir;
}
