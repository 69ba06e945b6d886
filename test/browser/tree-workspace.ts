import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';

/** The line of main.py each node changes: its block size. */
export const blockLine = (i: number): string => `BLOCK = ${16 + i}`;

/** The memory entry the run wrote for node `i`. */
export const memoryText = (i: number): string => `Block size ${16 + i} measured on node ${i}.`;

/** What node `i` says it did, in its report. */
export const whatWasDone = (i: number): string => `Set the block size to ${16 + i} and measured the throughput.`;

const HELPER = 'def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n';

function mainPy(i: number): string {
  return ['import helper', '', '# the kernel the search tunes', blockLine(i), '', 'def run(data):', '    return [helper.clamp(x * BLOCK, 0, 1 << 20) for x in data]', ''].join('\n');
}

/**
 * A finished run of `nodes` nodes as the search leaves it (writeCheckpoint's tree.json, ids
 * node_<run>_root then node_00000001...), with each node's work directory under
 * `<workspace>/experiments/<run>/<node>/`: main.py (its block size line changed from its
 * parent's), helper.py (inherited unchanged), result.json (its own), node_report.json; and the
 * run's memory backup with one entry per node. Returns the checkpoint directory.
 */
export function fillTree(checkpointsDir: string, runId: string, nodes: number): string {
  const dir = writeCheckpoint(checkpointsDir, { runId, nodes });
  const tree = JSON.parse(readFileSync(join(dir, 'tree.json'), 'utf8')) as {
    nodes: { id: string; parent_id: string | null; status: string; metrics: Record<string, unknown> }[];
  };
  const experiments = join(dirname(checkpointsDir), 'experiments', runId);
  tree.nodes.forEach((n, i) => {
    const work = join(experiments, n.id);
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'main.py'), mainPy(i));
    writeFileSync(join(work, 'helper.py'), HELPER);
    writeFileSync(join(work, 'result.json'), `${JSON.stringify(n.metrics)}\n`);
    const root = n.parent_id === null;
    const report = {
      schema_version: 1,
      node_id: n.id,
      parent_id: n.parent_id,
      status: n.status,
      started_at: '2026-11-01T12:00:00Z',
      completed_at: '2026-11-01T12:05:00Z',
      files_changed: {
        added: (root ? ['helper.py', 'main.py', 'result.json'] : ['result.json']).map((path) => ({ path, sha256: '0'.repeat(64) })),
        modified: root ? [] : [{ path: 'main.py', sha256_before: '0'.repeat(64), sha256_after: '1'.repeat(64) }],
        deleted: [],
        inherited_unchanged: root ? [] : [{ path: 'helper.py', sha256: '2'.repeat(64) }],
      },
      what_was_done: whatWasDone(i),
      delta_vs_parent: root ? 'root node: no parent to compare with' : '1 file(s) added, 1 modified, 0 deleted vs the parent',
      metrics: n.metrics,
      run_command: 'python main.py',
      executor: 'local',
    };
    writeFileSync(join(work, 'node_report.json'), JSON.stringify(report));
  });
  const entries = tree.nodes.map((n, i) => JSON.stringify({ kind: 'react_step', node_id: n.id, text: memoryText(i), metadata: {}, ts: 1_793_000_000 + i, entry_id: `e${i}` }));
  writeFileSync(join(dir, 'memory_backup.jsonl.gz'), Bun.gzipSync(new TextEncoder().encode(`${entries.join('\n')}\n`)));
  return dir;
}
