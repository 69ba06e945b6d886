import { defineCommand } from 'citty';
import { checkpointsDir } from '../core/config/environment.ts';
import { notableFiles, runOrigin } from '../core/checkpoint/inventory.ts';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { summarizeCheckpoint } from '../core/checkpoint/summary.ts';
import { readTreeOutline } from '../core/checkpoint/tree.ts';
import { experimentsDirOf } from '../core/workspace.ts';
import { fmtScore, print, printJson, table, warn } from './output.ts';
import { printSummary, printTree } from './status.ts';

export default defineCommand({
  meta: { description: 'Show one checkpoint in detail: summary, ideas, and the files it holds' },
  args: {
    checkpoint: { type: 'positional', required: true, description: 'checkpoint id or directory' },
    'checkpoints-dir': { type: 'string', description: 'where to look the id up (default: ./workspace/checkpoints)' },
    json: { type: 'boolean', description: 'print as JSON' },
  },
  run({ args }) {
    const root = checkpointsDir(args['checkpoints-dir']);
    const dir = findCheckpoint(args.checkpoint, root);
    const { tree, ...summary } = summarizeCheckpoint(dir, readTreeOutline);
    const detail = { ...summary, experiments_dir: experimentsDirOf(dir), origin: runOrigin(dir, summary.problems), files: notableFiles(dir) };
    if (args.json) printJson(detail);
    else {
      printSummary(summary);
      print(`path: ${dir}`);
      print(`experiments: ${detail.experiments_dir}`);
      const o = detail.origin;
      if (o.model) print(`launched with: ${o.provider ? `${o.provider}/` : ''}${o.model}${o.profile ? `, profile ${o.profile}` : ''}`);
      if (o.parent_run_id) print(`sub-experiment of: ${o.parent_run_id}`);
      if (detail.ideas.length > 0) {
        print('\nideas:');
        detail.ideas.forEach((idea, i) => print(`  ${i === 0 ? '*' : ' '} ${idea.title} (${fmtScore(idea.overall_score)})`));
      }
      if (detail.files.length > 0) {
        print('\nfiles:');
        print(table(['PATH', 'SIZE'], detail.files.map((f) => [`  ${f.path}${f.kind === 'dir' ? '/' : ''}`, f.kind === 'dir' ? '-' : f.size])));
      }
      printTree(tree, summary);
    }
    for (const p of detail.problems) warn(p);
    return detail.problems.length > 0 ? 1 : 0;
  },
});
