import { join } from 'node:path';
import { oneLine } from '../core/errors.ts';
import type { RunContext, SearchNode } from './contract.ts';
import { scoreOf } from './contract.ts';
import { mergeJsonFile, readJsonObject } from '../core/json-object.ts';
import { appendDecision, decisionTimes } from './decision-log.ts';
import { fillPrompt } from '../prompts/templates.ts';
import LINEAGE_DECISION_PROMPT from '../prompts/orchestrator/lineage_decision.md' with { type: 'text' };

export const LINEAGE_ACTIONS = ['continue', 'switch_to_idea', 'fanout', 'terminate'] as const;
export type LineageAction = (typeof LINEAGE_ACTIONS)[number];

export type LineageDecision = {
  action: LineageAction;
  /** an index of idea.json's ideas (one of the alternatives) for switch_to_idea and fanout, else null */
  target_idea_index: number | null;
  disable_generate_ideas: boolean;
  rationale: string;
};

export type LineageTrigger = 'stagnation_rule' | 'every_node';

/** What the lineage check reads of the search. */
export type LineageView = {
  nodes: readonly SearchNode[];
  /** finished nodes in the order they finished */
  executed: readonly SearchNode[];
  best: SearchNode | null;
  /** decisions fired so far in this run (resumes included) */
  fired: number;
};

/**
 * Whether a lineage decision fires after the latest node: never when off, past the rate limit or
 * before the minimum number of nodes; every_node fires each time; stagnation_rule when the
 * composite scores of the last `window` nodes span less than the threshold.
 */
export function lineageTrigger(ctx: RunContext, v: LineageView): LineageTrigger | null {
  const c = ctx.workflow.lineage_decision;
  if (c.mode === 'off' || v.fired >= c.rate_limit_per_run || v.executed.length < c.min_nodes_before_decision) return null;
  if (c.mode === 'every_node') return 'every_node';
  const window = v.executed.slice(-c.stagnation_window).map(scoreOf);
  if (window.length < c.stagnation_window) return null;
  return Math.max(...window) - Math.min(...window) < c.stagnation_threshold ? 'stagnation_rule' : null;
}

export type LineageHooks = {
  signal: AbortSignal;
  /** starts the sub-experiment of a switch_to_idea or fanout decision */
  onLineage?: (d: LineageDecision) => Promise<void>;
};

/**
 * Asks the lineage judge and carries out its decision: switch and fanout go to onLineage,
 * terminate marks meta.json. Any failure of the judge degrades to continue. The decision is
 * appended to lineage_decisions.jsonl whatever it is.
 */
export async function decideLineage(ctx: RunContext, v: LineageView, trigger: LineageTrigger, hooks: LineageHooks): Promise<LineageDecision> {
  const c = ctx.workflow.lineage_decision;
  const state = lineageState(ctx, v);
  const pool = new Set(state.alternatives.map((a) => a.index));
  let decision: LineageDecision;
  try {
    const raw = await ctx.model.completeJson<Record<string, unknown>>(
      {
        role: 'lineage',
        messages: [
          { role: 'system', content: fillPrompt(LINEAGE_DECISION_PROMPT, { experiment_goal: ctx.goal.slice(0, 3000), trigger: triggerText(trigger, c.stagnation_window, c.stagnation_threshold), state: JSON.stringify(state, null, 2) }) },
          { role: 'user', content: 'Decide now, as the JSON object described.' },
        ],
        meta: { phase: 'bfts', component: 'lineage', op: 'lineage_decision', node_id: v.executed.at(-1)?.id },
        signal: hooks.signal,
      },
      (x) => decisionProblem(x, pool),
    );
    decision = decisionOf(raw);
  } catch (err) {
    decision = { action: 'continue', target_idea_index: null, disable_generate_ideas: false, rationale: `the lineage judge gave no usable decision: ${oneLine(err)}` };
    ctx.log(`lineage: ${decision.rationale}; continuing`);
  }
  let executed = false;
  if (decision.action === 'switch_to_idea' || decision.action === 'fanout') {
    if (hooks.onLineage) {
      try {
        await hooks.onLineage(decision);
        executed = true;
      } catch (err) {
        ctx.log(`lineage: the ${decision.action} to idea ${decision.target_idea_index} could not start: ${oneLine(err)}`);
      }
    } else ctx.log(`lineage: ${decision.action} to idea ${decision.target_idea_index} decided, but this run cannot start sub-experiments`);
  } else if (decision.action === 'terminate') {
    mergeJsonFile(join(ctx.checkpointDir, 'meta.json'), { parent_terminated: true, parent_terminated_rationale: decision.rationale });
    executed = true;
  }
  appendDecision(ctx.checkpointDir, {
    ...decisionTimes(),
    trigger,
    executed,
    state,
    decision,
    extra: { stop_requested: decision.action === 'terminate', actions_taken_so_far: v.fired + 1, rate_limit: c.rate_limit_per_run },
  });
  return decision;
}

function triggerText(t: LineageTrigger, window: number, threshold: number): string {
  return t === 'every_node' ? 'A decision is asked after every node.' : `The composite scores of the last ${window} nodes vary by less than ${threshold}: the search has stagnated.`;
}

/** What is wrong with a judge's answer, or null: one of the four actions, a target from the alternatives pool for switch and fanout. */
export function decisionProblem(x: unknown, pool: ReadonlySet<number>): string | null {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return 'the answer is not a JSON object';
  const o = x as Record<string, unknown>;
  if (!(LINEAGE_ACTIONS as readonly unknown[]).includes(o.action)) return `action must be one of ${LINEAGE_ACTIONS.join(', ')}`;
  if (o.action === 'switch_to_idea' || o.action === 'fanout') {
    if (!Number.isInteger(o.target_idea_index) || !pool.has(o.target_idea_index as number)) return `target_idea_index must be one of the alternatives: ${[...pool].join(', ') || 'there are none'}`;
  }
  return null;
}

function decisionOf(o: Record<string, unknown>): LineageDecision {
  const action = o.action as LineageAction;
  const moves = action === 'switch_to_idea' || action === 'fanout';
  return {
    action,
    target_idea_index: moves ? (o.target_idea_index as number) : null,
    disable_generate_ideas: o.disable_generate_ideas === true,
    rationale: typeof o.rationale === 'string' ? o.rationale.slice(0, 1000) : '',
  };
}

/** The state the judge sees and the record keeps: content of the run only. */
export function lineageState(ctx: RunContext, v: LineageView) {
  const ideas = ctx.idea()?.ideas ?? [];
  const c = ctx.workflow.lineage_decision;
  let meta: Record<string, unknown> | null = null;
  try {
    meta = readJsonObject(join(ctx.checkpointDir, 'meta.json'));
  } catch (err) {
    ctx.log(`lineage: ${oneLine(err)}`);
  }
  return {
    active_idea_title: ideas[0]?.title ?? null,
    active_idea_index: ideas.length ? 0 : null,
    nodes_explored: v.executed.length,
    budget_remaining: Math.max(0, ctx.settings.maxNodes - v.nodes.length),
    best_axis_scores: (v.best?.metrics._axis_scores as Record<string, unknown> | undefined) ?? {},
    recent_composite_scores: v.executed.slice(-c.stagnation_window).map((n) => Math.round(scoreOf(n) * 1e4) / 1e4),
    alternatives: ideas.map((idea, index) => ({ index, title: idea.title, overall_score: idea.overall_score ?? null })).filter((a) => a.index !== 0),
    venue_constraints_present: false,
    ancestor_thread_present: typeof meta?.parent_run_id === 'string' && meta.parent_run_id !== '',
  };
}
