import { oneLine } from '../core/errors.ts';
import { readScienceData } from '../science/build.ts';
import { type SearchNode, scoreOf } from '../search/contract.ts';

/** How many of the best nodes the context describes. */
const BEST_NODES = 3;

export type PaperContextParts = {
  /** the workflow's own `paper_context`, when it sets one */
  workflowContext: string | null;
  goal: string;
  idea: string | null;
  nodes: readonly SearchNode[];
};

/**
 * `{{paper_context}}`: what the paper stages are told the run is about. The workflow's
 * paper_context, the idea, the experiment as science_data.json states it once transform_data has
 * built it (its goal and method summary; the goal of experiment.md before), and the best nodes'
 * summaries as the evaluator wrote them.
 */
export function paperContext(checkpointDir: string, parts: PaperContextParts): string {
  const out: string[] = [];
  if (parts.workflowContext?.trim()) out.push(parts.workflowContext.trim());
  if (parts.idea) out.push(`## Idea\n${parts.idea}`);
  let science = null;
  try {
    science = readScienceData(checkpointDir);
  } catch (err) {
    out.push(`(science_data.json is not usable: ${oneLine(err)})`);
  }
  if (science) out.push(`## Experiment\n${science.experiment_context.goal}\n\n## Method\n${science.experiment_context.method_summary}`);
  else if (parts.goal) out.push(`## Experiment\n${parts.goal}`);
  const best = parts.nodes
    .filter((n) => n.status === 'success' && n.has_real_data)
    .sort((a, b) => scoreOf(b) - scoreOf(a))
    .slice(0, BEST_NODES);
  if (best.length > 0) out.push(`## Best nodes\n${best.map((n) => `- ${n.name || n.label} (${n.id}, score ${scoreOf(n).toFixed(3)}): ${n.eval_summary ?? 'no summary'}`).join('\n')}`);
  return out.join('\n\n');
}
