import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';

/** The runs of the generated workspace, oldest first; each has its own goal and node count. */
export const RUNS = {
  baseline: '20261101100000_baseline',
  vectorised: '20261102100000_vectorised',
  child: '20261103100000_vectorised_child',
  live: '20261104100000_live',
} as const;

/**
 * Four checkpoints: a baseline; a reviewed and reproduced run; a sub-experiment of it; a run
 * whose recorded PID is this test process, so it is listed as running.
 */
export function fillWorkspace(root: string): void {
  const make = (runId: string, nodes: number, goal: string, pid?: number) => {
    const dir = writeCheckpoint(root, { runId, nodes, ...(pid === undefined ? {} : { pid }) });
    writeFileSync(join(dir, 'experiment.md'), `# ${runId}\n\n## Research Goal\n${goal}\n`);
    return dir;
  };
  make(RUNS.baseline, 3, 'Measure the baseline sorting kernel.');
  const vectorised = make(RUNS.vectorised, 12, 'Vectorise the sorting kernel.');
  writeFileSync(join(vectorised, 'review_report.json'), JSON.stringify({ overall_score: 7.5 }));
  writeFileSync(join(vectorised, 'reproducibility_report.json'), JSON.stringify({ ors_score: 0.8, n_runs: 3, degraded: false }));
  const child = make(RUNS.child, 5, 'Vectorise the merge step too.');
  writeFileSync(join(child, 'meta.json'), JSON.stringify({ run_id: RUNS.child, parent_run_id: RUNS.vectorised, recursion_depth: 1 }));
  const live = make(RUNS.live, 7, 'Tune the block size while it runs.', process.pid);
  writeFileSync(join(live, 'svc_run_1793000000.log'), `${LIVE_LOG}\n`);
  writeMemory(live);
}

/** The line the live run has written to its log so far. */
export const LIVE_LOG = 'step 3: block size 64, throughput 212 GB/s';

/** Memory entries of two nodes of the run (its backup file, as a run leaves it) and their access events. */
function writeMemory(dir: string): void {
  const entries = MEMORY.map((m, i) => ({ kind: 'react_step', node_id: m.node, text: m.text, metadata: {}, ts: 1_793_000_000 + i * 60, entry_id: `e${i}` }));
  writeFileSync(join(dir, 'memory_backup.jsonl.gz'), Bun.gzipSync(new TextEncoder().encode(entries.map((e) => JSON.stringify(e)).join('\n') + '\n')));
  const events = entries.map((e) => JSON.stringify({ ts: e.ts, node_id: e.node_id, op: 'write', collection: 'steps', entry_id: e.entry_id }));
  writeFileSync(join(dir, 'memory_access.jsonl'), `${events.join('\n')}\n`);
}

/** What the live run's memory holds. */
export const MEMORY = [
  { node: 'node_00000001', text: 'Block size 64 doubles the throughput.' },
  { node: 'node_00000002', text: 'Block size 128 spills registers.' },
];
