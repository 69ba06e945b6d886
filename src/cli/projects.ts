import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { defineCommand } from 'citty';
import { checkpointsDir } from '../core/config/environment.ts';
import { listCheckpointDirs } from '../core/checkpoint/locate.ts';
import { type CheckpointSummary, summarizeCheckpoint } from '../core/checkpoint/summary.ts';
import { readTreeOutline } from '../core/checkpoint/tree.ts';
import { InputError } from '../core/errors.ts';
import { fmtCost, fmtScore, fmtTime, print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'List checkpoints: id, status, nodes, best score, cost, modified' },
  args: {
    checkpoints: { type: 'string', description: 'checkpoints directory (default: ./workspace/checkpoints, or the parent of SVC_CHECKPOINT_DIR)' },
    json: { type: 'boolean', description: 'print the list as JSON' },
  },
  run({ args }) {
    const root = checkpointsDir(args.checkpoints);
    if (args.checkpoints && !existsSync(root)) throw new InputError(`checkpoints directory ${root} does not exist`);
    const rows = listCheckpointDirs(root).map(summaryRow);
    if (args.json) {
      printJson(rows);
      return;
    }
    if (rows.length === 0) {
      print(`no checkpoints in ${root}`);
      return;
    }
    print(
      table(
        ['ID', 'STATUS', 'NODES', 'BEST', 'COST', 'MODIFIED'],
        rows.map((s) => [s.id, s.problems.length > 0 ? `${s.status}!` : s.status, s.nodes.total, fmtScore(s.best?.score), fmtCost(s.cost?.usd), fmtTime(s.modified)]),
      ),
    );
    if (rows.some((s) => s.problems.length > 0)) print('\n! damaged files: see svc status <id>');
  },
});

/** One checkpoint's row; a checkpoint that cannot be read at all still gets one, saying why. */
function summaryRow(dir: string): CheckpointSummary {
  try {
    const { tree: _tree, ...s } = summarizeCheckpoint(dir, readTreeOutline);
    return s;
  } catch (err) {
    const nodes = { total: 0, pending: 0, running: 0, success: 0, failed: 0, other: 0 };
    const problem = `${dir}: cannot be read (${(err as Error).message})`;
    return { id: basename(dir), run_id: null, path: dir, status: 'unreadable', pid: null, goal: null, ideas: [], nodes, best: null, cost: null, review_score: null, claim_gate: null, reproduction: null, modified: new Date(0).toISOString(), tree_file: null, problems: [problem] };
  }
}
