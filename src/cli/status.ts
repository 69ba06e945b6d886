import { defineCommand } from 'citty';
import { checkpointsDir } from '../core/config/environment.ts';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { type CheckpointSummary, summarizeCheckpoint } from '../core/checkpoint/summary.ts';
import { nodePlacements, type Placement } from '../core/checkpoint/placement.ts';
import { readTree, readTreeOutline } from '../core/checkpoint/tree.ts';
import { fmtCost, fmtScore, print, printJson, warn } from './output.ts';
import { renderTree } from './tree-text.ts';
import type { TreeFile } from '../schema/checkpoint.ts';

export default defineCommand({
  meta: { description: 'Show a checkpoint: its node tree, counts by status, the best node and cost' },
  args: {
    checkpoint_dir: { type: 'positional', required: true, description: 'checkpoint directory (or its id in the checkpoints directory)' },
    json: { type: 'boolean', description: 'print the summary and nodes as JSON' },
  },
  run({ args }) {
    const dir = findCheckpoint(args.checkpoint_dir, checkpointsDir());
    // the JSON lists the node records whole; the text shows only what the outline keeps
    const { tree, ...summary } = summarizeCheckpoint(dir, args.json ? readTree : readTreeOutline);
    const placements = nodePlacements(dir, tree?.nodes ?? []);
    if (args.json) {
      printJson({ ...summary, nodes_list: tree?.nodes ?? [], placements });
    } else {
      printSummary(summary);
      printTree(tree, summary, placements);
    }
    for (const p of summary.problems) warn(p);
    return summary.problems.length > 0 ? 1 : 0;
  },
});

export function printSummary(s: CheckpointSummary): void {
  const c = s.nodes;
  print(`${s.id}${s.run_id && s.run_id !== s.id ? ` (run ${s.run_id})` : ''}  ${s.status}${s.pid ? ` (pid ${s.pid})` : ''}`);
  if (s.goal) print(`goal: ${s.goal}`);
  print(`nodes: ${c.total} total, ${c.success} success, ${c.failed} failed, ${c.running} running, ${c.pending} pending${c.other ? `, ${c.other} other` : ''}`);
  if (s.best) {
    const metric = s.best.metric && s.best.value !== null ? `, ${s.best.metric} = ${s.best.value}` : '';
    print(`best: ${s.best.id} (score ${fmtScore(s.best.score)}${metric})`);
  } else print('best: -');
  if (s.cost) print(`cost: ${fmtCost(s.cost.usd)} over ${s.cost.calls} calls, ${s.cost.tokens} tokens`);
  if (s.review_score !== null) print(`review score: ${s.review_score}`);
  if (s.claim_gate) print(claimGateLine(s.claim_gate));
  if (s.reproduction) print(reproductionLine(s.reproduction));
}

/** e.g. `reproduction: ORS 0.91 over 3 runs (spread 0.02), negative controls passed` */
export function reproductionLine(r: NonNullable<CheckpointSummary['reproduction']>): string {
  const runs = `over ${r.n_runs} run${r.n_runs === 1 ? '' : 's'}${r.spread !== null ? ` (spread ${fmtScore(r.spread)})` : ''}`;
  const controls = r.negative_control_passed === null ? '' : `, negative controls ${r.negative_control_passed ? 'passed' : 'failed'}`;
  const stopped = r.run_timed_out ? '; the run was stopped at its time limit' : '';
  return `reproduction: ORS ${fmtScore(r.ors_score)} ${runs}${controls}${stopped}${r.degraded ? `; degraded: ${r.degraded_reason ?? 'see reproducibility_report.json'}` : ''}`;
}

/** e.g. `claim gate (final, warn mode): pass, 0 errors, 1 warning` */
export function claimGateLine(g: NonNullable<CheckpointSummary['claim_gate']>): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return `claim gate (${g.phase}, ${g.mode} mode): ${g.status}, ${count(g.errors, 'error')}, ${count(g.warnings, 'warning')}${g.should_block ? ', blocks the final paper' : ''}`;
}

/** Characters of the node tree written at once. */
const TREE_BLOCK = 1 << 16;

/** The node tree under the summary, the best node marked. */
export function printTree(tree: TreeFile | null, s: CheckpointSummary, placements: Record<string, Placement> = {}): void {
  if (!tree || tree.nodes.length === 0) return;
  // a block at a time: a write a line costs a syscall per node, one write of the whole holds the
  // whole text (deep trees draw long lines) several times over
  let block = '';
  renderTree(tree.nodes, s.best?.id ?? null, placements, (line) => {
    block += `\n${line}`;
    if (block.length < TREE_BLOCK) return;
    process.stdout.write(block);
    block = '';
  });
  print(block);
}
