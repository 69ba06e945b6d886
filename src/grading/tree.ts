import type { RubricNode } from '../schema/ors-rubric.ts';

const CODE_DEVELOPMENT = 'code development';

export function isCodeDevelopment(leaf: RubricNode): boolean {
  return (leaf.task_category ?? '').trim().toLowerCase() === CODE_DEVELOPMENT;
}

/**
 * The tree with only its Code Development leaves (bridge rule 9): without a run there is nothing
 * to execute or analyse, so those leaves would fail for want of a log, not of the code. Inner
 * nodes left with no leaf go too; null when no leaf is left at all.
 */
export function pruneToCodeDevelopment(node: RubricNode): RubricNode | null {
  if (node.sub_tasks.length === 0) return isCodeDevelopment(node) ? node : null;
  const kept = node.sub_tasks.map(pruneToCodeDevelopment).filter((n): n is RubricNode => n !== null);
  return kept.length ? { ...node, sub_tasks: kept } : null;
}

/**
 * The node's score: a leaf's own, an inner node's the weighted mean of its children's
 * (sum(weight * score) / sum(weight)), as PaperBench aggregates. Leaves are looked up by object,
 * not id, so a rubric that repeats an id still scores each leaf once.
 */
export function weightedScore(node: RubricNode, leafScore: (leaf: RubricNode) => number): number {
  if (node.sub_tasks.length === 0) return leafScore(node);
  let weights = 0;
  let sum = 0;
  for (const child of node.sub_tasks) {
    weights += child.weight;
    sum += child.weight * weightedScore(child, leafScore);
  }
  return weights > 0 ? sum / weights : 0;
}
