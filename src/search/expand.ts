import { readFileSync } from 'node:fs';
import { modelCallFailure, oneLine } from '../core/errors.ts';
import type { RunContext, SearchNode } from './contract.ts';
import { scoreOf } from './contract.ts';
import { type Expansion, parseExpansion } from './parse-expansion.ts';
import { fillPrompt } from '../prompts/templates.ts';
import BFTS_EXPAND_PROMPT from '../prompts/orchestrator/bfts_expand.md' with { type: 'text' };

/** Labels a parent has used this often are called saturated in the prompt. */
const SATURATION = 2;

/**
 * The one child to add under `parent`, asked of the bfts model with orchestrator/bfts_expand.
 * A failed call or an unusable answer degrades to a debug child of a failed parent, else an
 * improve child (logged in one line).
 */
export async function proposeChild(ctx: RunContext, parent: SearchNode, nodes: ReadonlyMap<string, SearchNode>, signal: AbortSignal): Promise<Expansion> {
  const prompt = fillPrompt(BFTS_EXPAND_PROMPT, expandValues(ctx, parent, nodes));
  let why: string;
  try {
    const answer = await ctx.model.complete({
      role: 'bfts',
      messages: [
        { role: 'system', content: prompt },
        { role: 'user', content: 'Propose the one child experiment now, as the JSON array described.' },
      ],
      meta: { phase: 'bfts', component: 'bfts', op: 'expand', node_id: parent.id },
      signal,
    });
    const e = parseExpansion(answer.text, parent.status === 'success' && parent.has_real_data);
    if (e) return e;
    why = 'the answer was empty';
  } catch (err) {
    why = modelCallFailure(err);
  }
  const e = fallbackExpansion(parent);
  ctx.log(`bfts expand ${parent.id}: ${why}; adding a ${e.label} child`);
  return e;
}

export function fallbackExpansion(parent: SearchNode): Expansion {
  if (parent.status === 'failed') {
    return { label: 'debug', rawLabel: 'debug', direction: `Fix what made the parent fail and run it again: ${(parent.error_log ?? 'no error recorded').slice(0, 300)}` };
  }
  return { label: 'improve', rawLabel: 'improve', direction: `Improve on the parent's result: ${(parent.eval_summary ?? parent.name).slice(0, 300)}` };
}

function expandValues(ctx: RunContext, parent: SearchNode, nodes: ReadonlyMap<string, SearchNode>): Record<string, string> {
  const children = parent.children.map((id) => nodes.get(id)).filter((n): n is SearchNode => !!n);
  const counts = new Map<string, number>();
  for (const c of children) counts.set(c.label, (counts.get(c.label) ?? 0) + 1);
  const saturated = [...counts].filter(([, n]) => n >= SATURATION).map(([l]) => l);
  const ancestors = parent.ancestor_ids.map((id) => nodes.get(id)).filter((n): n is SearchNode => !!n);
  return {
    experiment_goal: ctx.goal.slice(0, 3000),
    idea_context: ideaContext(ctx),
    parent: parentText(parent, ctx.log),
    child_depth: String(parent.depth + 1),
    max_depth: String(ctx.settings.maxDepth),
    budget_left: String(Math.max(0, ctx.settings.maxNodes - nodes.size)),
    ancestors: ancestors.length ? ancestors.map((a) => `${a.label} ${scoreOf(a).toFixed(3)}`).join(' → ') : '(none: the parent is the root)',
    children: children.length ? children.map((c) => `${c.label}: ${(c.original_direction ?? c.name).slice(0, 300)} (${c.status}, score ${scoreOf(c).toFixed(3)})`).join('; ') : '(none yet)',
    saturated: saturated.length ? saturated.join(', ') : '(none)',
  };
}

function parentText(p: SearchNode, log: (msg: string) => void): string {
  const lines = [
    `Name: ${p.name}`,
    `Status: ${p.status}; label ${p.label}; depth ${p.depth}; has real data: ${p.has_real_data}; score ${scoreOf(p).toFixed(3)}`,
    `Metrics: ${JSON.stringify(p.metrics).slice(0, 1000)}`,
    `Summary: ${(p.eval_summary ?? '(none)').slice(0, 800)}`,
  ];
  if (p.error_log) lines.push(`Error: ${p.error_log.slice(0, 800)}`);
  const report = reportText(p.node_report_path, log);
  if (report) lines.push(`Node report: ${report}`);
  return lines.join('\n');
}

/** The parts of the parent's node_report.json that say what to do next; nothing (said in the log) when it cannot be read. */
function reportText(path: string | null, log: (msg: string) => void): string {
  if (!path) return '';
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const self = (r.self_assessment ?? {}) as Record<string, unknown>;
    const files = (r.files_changed ?? {}) as Record<string, unknown[]>;
    const names = (list: unknown) => (Array.isArray(list) ? list.map((f) => (typeof f === 'string' ? f : String((f as { path?: unknown }).path))).slice(0, 20) : []);
    return JSON.stringify({
      delta_vs_parent: r.delta_vs_parent,
      files_added: names(files.added),
      files_modified: names(files.modified),
      concerns: self.concerns,
      next_steps_hints: r.next_steps_hints,
    }).slice(0, 1500);
  } catch (err) {
    log(`bfts expand: the parent's node report is left out: ${oneLine(err)}`);
    return '';
  }
}

function ideaContext(ctx: RunContext): string {
  const idea = ctx.idea();
  const first = idea?.ideas[0];
  if (!first) return '(no idea generated)';
  const plan = typeof first.experiment_plan === 'string' ? first.experiment_plan : JSON.stringify(first.experiment_plan ?? '');
  return [`Gap: ${(idea.gap_analysis ?? '').slice(0, 500)}`, `Idea: ${first.title}`, (first.description ?? '').slice(0, 800), `Plan: ${plan.slice(0, 1500)}`].join('\n');
}
