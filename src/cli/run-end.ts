import { isFileAt } from '../core/paths.ts';
import type { RunEnd } from '../run/execute.ts';
import { scoreOf } from '../search/contract.ts';
import { print } from './output.ts';
import { type PipelineResult, pipelineSummary } from '../pipeline/run.ts';
import { finalPaper, reviewLine } from '../paper/outcome.ts';
import { reproductionStatus } from '../core/checkpoint/reproduction-status.ts';
import { reproductionLine } from './status.ts';

/** What a run prints when it ends, on stdout; exit code 0 unless it was stopped before the end or its pipeline failed. */
export function printRunEnd(end: RunEnd): number {
  const n = (s: string) => end.nodes.filter((x) => x.status === s).length;
  if (end.ended === 'finished') {
    print(`nothing to resume: run ${end.runId} is finished (${end.nodes.length} nodes, none pending or failed)`);
    print(`checkpoint: ${end.checkpointDir}`);
    if (end.best) print(`best: ${end.best.id} (score ${scoreOf(end.best).toFixed(3)})`);
    print(`the paper stages run again with: svc paper ${end.checkpointDir}`);
    return 0;
  }
  print(`checkpoint: ${end.checkpointDir}`);
  print(`nodes: ${end.nodes.length} (${n('success')} success, ${n('failed')} failed${n('pending') + n('running') ? `, ${n('pending') + n('running')} not run` : ''})`);
  if (end.best) {
    const measured = Object.entries(end.best.metrics).filter(([k, v]) => !k.startsWith('_') && typeof v === 'number');
    const shown = measured.slice(0, 3).map(([k, v]) => `${k} = ${v}`).join(', ');
    print(`best: ${end.best.id} (score ${scoreOf(end.best).toFixed(3)}${shown ? `; ${shown}` : ''})`);
  } else print('best: - (no node succeeded)');
  if (end.ended === 'stopped') {
    print(`stopped before the end; continue with: svc resume ${end.checkpointDir}`);
    return 1;
  }
  if (end.ended === 'terminated') print('the lineage judge ended the search');
  if (end.pipeline) printPipelineEnd(end.checkpointDir, end.pipeline);
  const failed = end.nodes.filter((x) => x.status === 'failed');
  if (end.nodes.length > 0 && failed.length === end.nodes.length) {
    print(`every node failed: ${commonReason(failed)}`);
    return 1;
  }
  return end.pipeline?.failure ? 1 : 0;
}

/** The end of a post-search pipeline: how its stages ended, the review's scores, the reproduction's, and the paper, final or why not. */
export function printPipelineEnd(checkpointDir: string, pipeline: PipelineResult): void {
  print(pipelineSummary(pipeline));
  const review = reviewLine(checkpointDir);
  if (review) print(review);
  const reproduction = reproductionStatus(checkpointDir, []);
  if (reproduction) print(reproductionLine(reproduction));
  const final = finalPaper(checkpointDir);
  const paper = compiledPaper(pipeline);
  if (final?.final) print(`paper: ${final.pdf} (final)`);
  else if (final) print(`paper: ${paper ?? 'none'} (not final: ${final.reason})`);
  else if (paper) print(`paper: ${paper}`);
}

/** Why the nodes failed: the reason most of them give, with how many gave it. */
function commonReason(failed: RunEnd['nodes']): string {
  const counts = new Map<string, number>();
  for (const n of failed) {
    const why = (n.error_log ?? n.eval_summary ?? 'no reason recorded').split('\n')[0]?.slice(0, 300) ?? '';
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const [why, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['no reason recorded', 0];
  return count === failed.length ? why : `${why} (${count} of ${failed.length} nodes; svc status shows the others)`;
}

/** The PDF of the last paper a stage wrote (its .tex or .pdf output, compiled beside it), if there is one: the refined paper over the draft. */
function compiledPaper(p: PipelineResult): string | null {
  for (const s of [...p.stages].reverse()) {
    if (s.output?.endsWith('.pdf') && isFileAt(s.output)) return s.output;
    const pdf = s.output?.endsWith('.tex') ? s.output.replace(/\.tex$/, '.pdf') : null;
    if (pdf && isFileAt(pdf)) return pdf;
  }
  return null;
}
