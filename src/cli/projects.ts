import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { listCheckpointDirs } from '../core/checkpoint/locate.ts';
import { summarizeCheckpoint } from '../core/checkpoint/summary.ts';
import { InputError } from '../core/errors.ts';
import { checkpointsRoot } from '../core/workspace.ts';
import { fmtCost, fmtScore, fmtTime, print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'List checkpoints: id, status, nodes, best score, cost, modified' },
  args: {
    checkpoints: { type: 'string', description: 'checkpoints directory (default: ./workspace/checkpoints, or the parent of SVC_CHECKPOINT_DIR)' },
    json: { type: 'boolean', description: 'print the list as JSON' },
  },
  run({ args }) {
    const root = args.checkpoints ? resolve(args.checkpoints) : checkpointsRoot(process.env);
    if (args.checkpoints && !existsSync(root)) throw new InputError(`checkpoints directory ${root} does not exist`);
    const rows = listCheckpointDirs(root).map((dir) => {
      const { tree: _tree, ...s } = summarizeCheckpoint(dir);
      return s;
    });
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
