import { join } from 'node:path';
import { readCheckpointText, readRecord } from '../core/checkpoint/records.ts';
import { bestNode, EvaluationCriteria } from '../core/checkpoint/summary.ts';
import { readTree } from '../core/checkpoint/tree.ts';
import { IdeaFile } from '../schema/checkpoint.ts';

/** How much of the experiment text the context carries: the goal and plan, not pages of notes. */
const MAX_EXPERIMENT_CHARS = 6000;

/**
 * The template variables the post-search stages share, made from the checkpoint: `paper_context`,
 * what the paper is about (the experiment, the idea the search followed, its best result), and
 * `keywords`, search phrases for its related work (the idea's title, the experiment's title). A
 * file the checkpoint lacks leaves its part out.
 */
export function paperContextVars(checkpointDir: string): { paper_context: string; keywords: string } {
  const problems: string[] = [];
  const experiment = (readCheckpointText(join(checkpointDir, 'experiment.md'), problems) ?? '').trim();
  const idea = readRecord(checkpointDir, 'idea.json', IdeaFile, problems);
  const chosen = idea?.ideas[0];
  const metric = readRecord(checkpointDir, 'evaluation_criteria.json', EvaluationCriteria, problems)?.primary_metric || idea?.primary_metric || null;
  const nodes = readTree(checkpointDir).tree?.nodes ?? [];
  const best = bestNode(nodes, metric);
  const parts: string[] = [];
  if (experiment) parts.push(`# Experiment\n${experiment.length > MAX_EXPERIMENT_CHARS ? `${experiment.slice(0, MAX_EXPERIMENT_CHARS)}…` : experiment}`);
  if (chosen) parts.push(`# Idea\n${chosen.title}${chosen.description ? `\n${chosen.description}` : ''}`);
  if (best) {
    const node = nodes.find((n) => n.id === best.id);
    const measured = node?.metrics?._measurements_dict;
    const numbers = measured && typeof measured === 'object' ? Object.entries(measured as Record<string, unknown>).filter(([, v]) => typeof v === 'number') : [];
    parts.push(`# Best result\nnode ${best.id} (score ${best.score})${numbers.length ? `: ${numbers.map(([k, v]) => `${k} = ${v}`).join(', ')}` : ''}`);
  }
  const title = /^#\s+(.+)$/m.exec(experiment)?.[1]?.trim();
  const keywords = [...new Set([chosen?.title?.trim(), title].filter((k): k is string => !!k))].map((k) => k.replace(/\s*[,;\n]+\s*/g, ' '));
  return { paper_context: parts.join('\n\n'), keywords: keywords.join(', ') };
}
