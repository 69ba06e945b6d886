import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { NodeRecord, TreeFile } from '../../schema/checkpoint.ts';
import { type CheckpointStatus, checkpointStatus, countNodes, type NodeCounts } from './status.ts';
import { readTree } from './tree.ts';

export type BestNode = { id: string; score: number; label: string | null; metric: string | null; value: number | null };
export type Cost = { usd: number; tokens: number; calls: number };

export type CheckpointSummary = {
  id: string;
  path: string;
  status: CheckpointStatus;
  pid: number | null;
  goal: string | null;
  nodes: NodeCounts;
  best: BestNode | null;
  cost: Cost | null;
  review_score: number | null;
  modified: string;
  /** the file the nodes were read from */
  tree_file: string | null;
  problems: string[];
};

export function summarizeCheckpoint(dir: string): CheckpointSummary & { tree: TreeFile | null } {
  const { tree, file, problems } = readTree(dir);
  const { status, pid } = checkpointStatus(dir, tree);
  const metric = primaryMetric(dir, problems);
  return {
    id: basename(dir),
    path: dir,
    status,
    pid,
    goal: goalOf(dir) ?? firstLine(tree?.experiment_goal),
    nodes: countNodes(tree),
    best: bestNode(tree?.nodes ?? [], metric),
    cost: costOf(dir, problems),
    review_score: reviewScore(dir, problems),
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
    best = { id: n.id, score, label: n.label ?? null, metric, value: typeof value === 'number' ? value : null };
  }
  return best;
}

function readJson(dir: string, name: string, problems: string[]): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(join(dir, name), 'utf8');
  } catch {
    return null;
  }
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch (err) {
    problems.push(`${join(dir, name)}: is not valid JSON (${(err as Error).message})`);
    return null;
  }
}

function primaryMetric(dir: string, problems: string[]): string | null {
  for (const name of ['evaluation_criteria.json', 'idea.json']) {
    const m = readJson(dir, name, problems)?.primary_metric;
    if (typeof m === 'string' && m !== '') return m;
  }
  return null;
}

function costOf(dir: string, problems: string[]): Cost | null {
  const s = readJson(dir, 'cost_summary.json', problems);
  if (s && typeof s.total_cost_usd === 'number') {
    return { usd: s.total_cost_usd, tokens: Number(s.total_tokens) || 0, calls: Number(s.call_count) || 0 };
  }
  let text: string;
  try {
    text = readFileSync(join(dir, 'cost_trace.jsonl'), 'utf8');
  } catch {
    return null;
  }
  const cost: Cost = { usd: 0, tokens: 0, calls: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as { estimated_cost_usd?: number; total_tokens?: number };
      cost.usd += Number(r.estimated_cost_usd) || 0;
      cost.tokens += Number(r.total_tokens) || 0;
      cost.calls++;
    } catch {
      // a line cut off by a crash; the others still count
    }
  }
  return cost;
}

function reviewScore(dir: string, problems: string[]): number | null {
  const r = readJson(dir, 'review_report.json', problems);
  const s = r?.overall_score ?? r?.score;
  return typeof s === 'number' ? s : null;
}

/** The first paragraph under `## Research Goal` or `## Goal`, else the first one that is not a heading. */
function goalOf(dir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dir, 'experiment.md'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const heading = lines.findIndex((l) => /^#{1,6}\s*(research\s+)?goal\s*$/i.test(l));
  const after = heading >= 0 ? lines.slice(heading + 1) : lines;
  const start = after.findIndex((l) => l !== '' && !l.startsWith('#'));
  if (start < 0) return null;
  const end = after.findIndex((l, i) => i > start && (l === '' || l.startsWith('#')));
  const paragraph = after.slice(start, end < 0 ? undefined : end).join(' ');
  return paragraph.length > 240 ? `${paragraph.slice(0, 237)}...` : paragraph;
}

function firstLine(s: string | undefined): string | null {
  return s?.split('\n').find((l) => l.trim() !== '')?.trim() ?? null;
}

function modifiedAt(dir: string, treeFile: string | null): string {
  const times = [dir, treeFile].flatMap((p) => {
    try {
      return p ? [statSync(p).mtimeMs] : [];
    } catch {
      return [];
    }
  });
  return new Date(Math.max(...times, 0)).toISOString();
}
