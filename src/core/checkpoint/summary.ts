import { basename, join } from 'node:path';
import { CostSummary, type CostTraceRecord, EvaluationCriteria, IdeaFile, type NodeRecord, ReviewScore, type TreeFile } from '../../schema/checkpoint.ts';
import { recordCheckCode } from '../../schema/record-check.ts' with { type: 'macro' };
import { type ClaimGateStatus, claimGateStatus } from './claim-gate-status.ts';
import { type ReproductionStatus, reproductionStatus } from './reproduction-status.ts';
import { compiledCheck, readCheckpointText, readRecord } from './records.ts';
import { type CheckpointStatus, checkpointStatus, countNodes, type NodeCounts } from './status.ts';
import { readTree, type TreeRead } from './tree.ts';
import { statOrNull } from '../paths.ts';
import { experimentGoal } from '../config/experiment-detail.ts';

// the records a summary reads are checked by TypeBox's compiled checks, written when svc is built:
// a valid record costs neither the compiler nor TypeBox's value module
const isIdeaFile = compiledCheck(recordCheckCode('IdeaFile'));
const isEvaluationCriteria = compiledCheck(recordCheckCode('EvaluationCriteria'));
const isCostSummary = compiledCheck(recordCheckCode('CostSummary'));
const isReviewScore = compiledCheck(recordCheckCode('ReviewScore'));

export type BestNode = { id: string; score: number; label: string | null; metric: string | null; value: number | null };
export type Cost = { usd: number; tokens: number; calls: number };

export type CheckpointSummary = {
  id: string;
  /** the run id the tree records (the reference's names can differ from the directory's) */
  run_id: string | null;
  path: string;
  status: CheckpointStatus;
  pid: number | null;
  goal: string | null;
  /** ideas of idea.json in order; the first is the root idea */
  ideas: { title: string; overall_score: number | null }[];
  nodes: NodeCounts;
  best: BestNode | null;
  cost: Cost | null;
  review_score: number | null;
  /** the claim gate's final report, else its draft's; null when the gate has not run */
  claim_gate: ClaimGateStatus | null;
  /** the graded reproduction (reproducibility_report.json) */
  reproduction: ReproductionStatus | null;
  modified: string;
  /** the file the nodes were read from */
  tree_file: string | null;
  problems: string[];
};

/**
 * The summary of a checkpoint and the tree it was made from: the full node records by default,
 * readTreeOutline's when the caller shows no more than the summary and the node tree.
 */
export function summarizeCheckpoint(dir: string, read: (dir: string) => TreeRead = readTree): CheckpointSummary & { tree: TreeFile | null } {
  const { tree, file, problems } = read(dir);
  const { status, pid } = checkpointStatus(dir, tree);
  const idea = readRecord(dir, 'idea.json', IdeaFile, problems, isIdeaFile);
  const metric = readRecord(dir, 'evaluation_criteria.json', EvaluationCriteria, problems, isEvaluationCriteria)?.primary_metric || idea?.primary_metric || null;
  return {
    id: basename(dir),
    run_id: typeof tree?.run_id === 'string' && tree.run_id !== '' ? tree.run_id : null,
    path: dir,
    status,
    pid,
    goal: goalOf(dir, problems) ?? firstLine(tree?.experiment_goal),
    ideas: (idea?.ideas ?? []).map((i) => ({ title: i.title, overall_score: i.overall_score ?? null })),
    nodes: countNodes(tree),
    best: bestNode(tree?.nodes ?? [], metric),
    cost: costOf(dir, problems),
    review_score: reviewScore(dir, problems),
    claim_gate: claimGateStatus(dir, problems),
    reproduction: reproductionStatus(dir, problems),
    modified: modifiedAt(dir, file),
    tree_file: file,
    problems,
    tree,
  };
}

/** The node with the highest _scientific_score (the evaluator's composite). */
export function bestNode(nodes: NodeRecord[], metric: string | null): BestNode | null {
  let best: BestNode | null = null;
  for (const n of nodes) {
    const score = n.metrics?._scientific_score;
    if (typeof score !== 'number' || !Number.isFinite(score)) continue;
    if (best && score <= best.score) continue;
    const value = metric ? n.metrics?.[metric] : undefined;
    best = { id: n.id, score, label: typeof n.label === 'string' ? n.label : null, metric, value: typeof value === 'number' ? value : null };
  }
  return best;
}

export function costOf(dir: string, problems: string[]): Cost | null {
  const s = readRecord(dir, 'cost_summary.json', CostSummary, problems, isCostSummary);
  if (s) return { usd: s.total_cost_usd, tokens: s.total_tokens, calls: s.call_count };
  const text = readCheckpointText(join(dir, 'cost_trace.jsonl'), problems);
  if (text === null) return null;
  const cost: Cost = { usd: 0, tokens: 0, calls: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let r: CostTraceRecord | null;
    try {
      r = JSON.parse(line) as CostTraceRecord | null;
    } catch {
      continue; // a line cut off by a crash; the others still count
    }
    if (r === null || typeof r !== 'object') continue;
    cost.usd += Number(r.estimated_cost_usd) || 0;
    cost.tokens += Number(r.total_tokens) || 0;
    cost.calls++;
  }
  return cost;
}

function reviewScore(dir: string, problems: string[]): number | null {
  const r = readRecord(dir, 'review_report.json', ReviewScore, problems, isReviewScore);
  return r?.overall_score ?? r?.score ?? null;
}

/** The first paragraph under `## Research Goal` or `## Goal`, else the first one that is not a heading. */
function goalOf(dir: string, problems: string[]): string | null {
  const text = readCheckpointText(join(dir, 'experiment.md'), problems);
  // the summary's heading takes no colon
  const paragraph = text === null ? null : experimentGoal(text, /^#{1,6}\s*(research\s+)?goal\s*$/i);
  return paragraph !== null && paragraph.length > 240 ? `${paragraph.slice(0, 237)}...` : paragraph;
}

function firstLine(s: unknown): string | null {
  return typeof s === 'string' ? (s.split('\n').find((l) => l.trim() !== '')?.trim() ?? null) : null;
}

function modifiedAt(dir: string, treeFile: string | null): string {
  const times = [dir, treeFile].flatMap((p) => {
    const st = p ? statOrNull(p) : null;
    return st ? [st.mtimeMs] : [];
  });
  return new Date(Math.max(...times, 0)).toISOString();
}
