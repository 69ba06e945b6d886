import type { NodeLabel, RunSettings, SearchNode } from './contract.ts';
import { scoreOf } from './contract.ts';

/** What the fallback formulas read besides the node. */
export type ScoreInputs = {
  settings: Pick<RunSettings, 'frontierScore' | 'depthPenaltyLambda' | 'ucbC'>;
  /** labels of executed nodes, oldest first */
  labelHistory: readonly NodeLabel[];
  expansions: Readonly<Record<string, number>>;
  frontierSize: number;
};

const DIVERSITY_WINDOW = 20;
const DIVERSITY_BONUS = 0.05;

/** +0.05 when the label ran at most half as often as the most frequent label of the last 20 executed nodes. */
export function diversityBonus(label: NodeLabel, history: readonly NodeLabel[]): number {
  const counts = labelCounts(history);
  return (counts.get(label) ?? 0) * 2 <= (counts.get(MAX) ?? 0) ? DIVERSITY_BONUS : 0;
}

const MAX = 'max' as NodeLabel;
let memo: { history: readonly NodeLabel[]; length: number; counts: Map<NodeLabel, number> } | null = null;

/** Label counts of the window (and their maximum under MAX), kept while the history is unchanged: a selection scores every frontier node against the same history. */
function labelCounts(history: readonly NodeLabel[]): Map<NodeLabel, number> {
  if (memo?.history === history && memo.length === history.length) return memo.counts;
  const counts = new Map<NodeLabel, number>();
  for (const l of history.slice(-DIVERSITY_WINDOW)) counts.set(l, (counts.get(l) ?? 0) + 1);
  counts.set(MAX, Math.max(0, ...counts.values()));
  memo = { history, length: history.length, counts };
  return counts;
}

/**
 * The spec's fallback frontier score. depth_penalized with lambda 0 and ucb_like with c 0 are the
 * default formula (scientific_plus_diversity).
 */
export function fallbackScore(node: SearchNode, inp: ScoreInputs): number {
  const sci = scoreOf(node);
  const { frontierScore, depthPenaltyLambda: lambda, ucbC: c } = inp.settings;
  if (frontierScore === 'scientific_only') return sci;
  const bonus = diversityBonus(node.label, inp.labelHistory);
  if (frontierScore === 'depth_penalized' && lambda !== 0) return sci + bonus - lambda * node.depth;
  if (frontierScore === 'ucb_like' && c !== 0) {
    const visits = (inp.expansions[node.id] ?? 0) + 1;
    const total = Object.values(inp.expansions).reduce((a, b) => a + b, 0);
    const n = Math.max(1, total + inp.frontierSize);
    return sci + bonus + c * Math.sqrt(Math.log(n) / visits);
  }
  return sci + bonus;
}

/** The formula actually applied (zero lambda or c fall back to the default). */
export function formulaName(s: ScoreInputs['settings']): string {
  if (s.frontierScore === 'depth_penalized' && s.depthPenaltyLambda === 0) return 'scientific_plus_diversity';
  if (s.frontierScore === 'ucb_like' && s.ucbC === 0) return 'scientific_plus_diversity';
  return s.frontierScore;
}

/** The deterministic choice: highest fallback score among nodes with real data if any have it; the earliest on ties. */
export function fallbackPick(nodes: readonly SearchNode[], inp: ScoreInputs): SearchNode {
  const real = nodes.filter((n) => n.has_real_data);
  const pool = real.length ? real : nodes;
  let best = pool[0] as SearchNode;
  let bestScore = fallbackScore(best, inp);
  for (const n of pool.slice(1)) {
    const s = fallbackScore(n, inp);
    if (s > bestScore) [best, bestScore] = [n, s];
  }
  return best;
}
