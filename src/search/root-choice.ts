import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { oneLine } from '../core/errors.ts';
import type { RunContext } from './contract.ts';
import { readJsonObject } from '../core/json-object.ts';
import { appendDecision, decisionTimes } from './decision-log.ts';
import { fillPrompt } from '../prompts/templates.ts';
import ROOT_IDEA_SELECTOR_PROMPT from '../prompts/orchestrator/root_idea_selector.md' with { type: 'text' };
import { parseIndex } from './select.ts';

export type RootChoice = {
  ts: number;
  ts_iso: string;
  trigger: 'root_idea_selection';
  action: 'root_swap' | 'root_keep';
  selected_index: number;
  selected_title: string;
  previous_title: string;
  n_candidates: number;
  reason: string;
};

type Idea = Record<string, unknown> & { title?: unknown };

/**
 * Lets the root_select judge choose which idea the search starts from, once: when the workflow
 * enables it and idea.json has several ideas that were not inherited from a parent run. A swap
 * moves the chosen idea to ideas[0]. The choice is stored as `_root_choice` in idea.json (which
 * makes a second call do nothing) and appended to lineage_decisions.jsonl. Null when nothing was
 * decided. A failed call or an index out of range keeps the first idea.
 */
export async function chooseRootIdea(ctx: RunContext, signal?: AbortSignal): Promise<RootChoice | null> {
  if (!ctx.workflow.root_idea_selection.enabled) return null;
  const path = join(ctx.checkpointDir, 'idea.json');
  const file = readJsonObject(path);
  if (!file || !Array.isArray(file.ideas) || file.ideas.length < 2 || file._inherited_from || file._root_choice) return null;
  const ideas = file.ideas as Idea[];
  let index = 0;
  let reason: string;
  try {
    const answer = await ctx.model.complete({
      role: 'root_select',
      messages: [
        { role: 'system', content: fillPrompt(ROOT_IDEA_SELECTOR_PROMPT, { experiment_goal: ctx.goal.slice(0, 3000), ideas: ideaLines(ideas) }) },
        { role: 'user', content: `Choose one of the ${ideas.length} ideas. Reply with one zero-based index.` },
      ],
      meta: { phase: 'idea', component: 'root_select', op: 'root_idea_selection' },
      signal,
    });
    const i = parseIndex(answer.text, ideas.length);
    if (i === null) reason = `the answer '${answer.text.replace(/\s+/g, ' ').trim().slice(0, 60)}' is not an index from 0 to ${ideas.length - 1}; keeping the first idea`;
    else {
      index = i;
      reason = 'chosen by the root_select judge';
    }
  } catch (err) {
    reason = `the root_select judge failed: ${oneLine(err)}; keeping the first idea`;
  }
  if (index === 0 && reason !== 'chosen by the root_select judge') ctx.log(`root idea: ${reason}`);
  const title = (i: number) => String(ideas[i]?.title ?? '');
  const choice: RootChoice = {
    ...decisionTimes(),
    trigger: 'root_idea_selection',
    action: index === 0 ? 'root_keep' : 'root_swap',
    selected_index: index,
    selected_title: title(index),
    previous_title: title(0),
    n_candidates: ideas.length,
    reason,
  };
  const reordered = index === 0 ? ideas : [ideas[index] as Idea, ...ideas.filter((_, i) => i !== index)];
  // idea.json first: once it holds the choice a second call does nothing, so a crash between the two writes never judges twice
  writeJsonAtomic(path, { ...file, ideas: reordered, _root_choice: choice });
  appendDecision(ctx.checkpointDir, choice);
  return choice;
}

function ideaLines(ideas: Idea[]): string {
  return ideas
    .map((idea, i) => {
      const score = typeof idea.overall_score === 'number' ? idea.overall_score : 'n/a';
      const desc = typeof idea.description === 'string' ? idea.description.replace(/\s+/g, ' ').slice(0, 400) : '';
      return `[${i}] ${String(idea.title ?? '(untitled)')} (overall score ${score}): ${desc}`;
    })
    .join('\n');
}
