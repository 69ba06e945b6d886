import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { experimentLine } from '../core/config/experiment-md.ts';
import { isMapping } from '../core/values.ts';
import type { ToolOutcome } from '../mcp/pool.ts';
import type { RunContext } from '../search/contract.ts';

export const IDEA_FILE = 'idea.json';

/** How many papers the survey asks for, and how much of the goal it searches with. */
const SURVEY_PAPERS = 8;
const TOPIC_CHARS = 300;

/**
 * Ideas, once per run: a literature survey, then the idea skill's discussion loop; the result is
 * idea.json, verbatim. A checkpoint that already has idea.json (a resumed run, a child run seeded
 * with its parent's idea) keeps it. Without ideas the search starts from the goal alone, and the
 * log says why.
 */
export async function ensureIdeas(ctx: RunContext, signal: AbortSignal): Promise<void> {
  const file = join(ctx.checkpointDir, IDEA_FILE);
  if (existsSync(file)) return;
  const stage = ctx.workflow.bfts_pipeline.find((s) => s.stage === 'generate_idea');
  if (stage?.enabled === false) {
    ctx.log('ideas: the generate_idea stage is off in the workflow; the search starts from the goal');
    return;
  }
  const available = new Set((await ctx.pool.tools('bfts')).map((t) => t.name));
  if (!available.has('generate_ideas')) {
    ctx.log('ideas: no generate_ideas tool (idea-skill off or disabled); the search starts from the goal');
    return;
  }
  const topic = topicOf(ctx.goal);
  let papers: unknown[] = [];
  if (available.has('survey')) {
    const survey = await ctx.pool.call('survey', { topic, max_papers: SURVEY_PAPERS }, { signal });
    if (signal.aborted) return;
    const value = resultOf(survey);
    papers = isMapping(value) && Array.isArray(value.papers) ? value.papers : [];
    const note = isMapping(value) && typeof value.note === 'string' ? ` (${value.note})` : '';
    ctx.log('error' in survey ? `survey failed: ${survey.error}; ideas come from the goal alone` : `survey: ${papers.length} paper${papers.length === 1 ? '' : 's'}${note}`);
  } else {
    ctx.log('survey: off (disabled_tools); ideas come from the goal alone');
  }
  ctx.log('ideas: generating');
  const generated = await ctx.pool.call('generate_ideas', { topic, papers, experiment_context: ctx.goal }, { signal });
  // a stopped run makes no ideas: a resume makes them
  if (signal.aborted) return;
  const idea = resultOf(generated);
  if ('error' in generated || !isMapping(idea) || !Array.isArray(idea.ideas)) {
    ctx.log(`ideas failed: ${'error' in generated ? generated.error : 'the idea skill returned no ideas'}; the search starts from the goal`);
    return;
  }
  writeJsonAtomic(file, idea);
  ctx.log(`ideas: ${idea.ideas.length}, first: ${titleOf(idea.ideas[0])}${engineNote(idea)}`);
}

/** Which idea engine made the ideas, when the multi-agent one was asked for. */
function engineNote(idea: Record<string, unknown>): string {
  const status = String(idea.ma_integration_status ?? '');
  if (status === 'real_wrap') return ` (multi-agent engine: teams of ${idea.n_agents}, ${idea.discussion_rounds} rounds, ${idea.papers_analyzed} papers; idea_teams.json)`;
  return status.startsWith('reimpl: ') ? ' (the built-in loop: the multi-agent engine did not run, idea.json says why)' : '';
}

/**
 * evaluation_criteria.json (the primary metric and its direction), from idea.json or else the
 * experiment's `Metric:` line, and the metric contract from the evaluator skill; written once.
 */
export async function ensureMetricContract(ctx: RunContext, signal: AbortSignal): Promise<void> {
  const criteriaFile = join(ctx.checkpointDir, 'evaluation_criteria.json');
  if (!existsSync(criteriaFile)) {
    const idea = ctx.idea();
    const metric = idea?.primary_metric || experimentLine(ctx.goal, 'metric') || null;
    if (metric) {
      const lower = /lower is better|minimi[sz]e/i.test(ctx.goal);
      writeJsonAtomic(criteriaFile, {
        primary_metric: metric,
        higher_is_better: idea?.higher_is_better ?? !lower,
        metric_rationale: idea?.metric_rationale ?? 'from the experiment description',
      });
    }
  }
  if (existsSync(join(ctx.checkpointDir, 'metric_contract.json'))) return;
  const tools = new Set((await ctx.pool.tools('bfts')).map((t) => t.name));
  if (!tools.has('make_metric_spec')) return;
  if (signal.aborted) return;
  const spec = await ctx.pool.call('make_metric_spec', { experiment_text: ctx.goal }, { signal });
  if (signal.aborted) return;
  ctx.log('error' in spec ? `metric contract: ${spec.error}` : `metric contract: ${summarize(resultOf(spec))}`);
}

/** A tool's result, parsed when it came as JSON text. */
export function resultOf(outcome: ToolOutcome): unknown {
  if (!('result' in outcome)) return null;
  const r = outcome.result;
  if (typeof r !== 'string') return r;
  try {
    return JSON.parse(r);
  } catch {
    return r;
  }
}

function topicOf(goal: string): string {
  const text = goal.replace(/<!--[\s\S]*?-->/g, '').replace(/^#+\s*/gm, '').replace(/\s+/g, ' ').trim();
  return text.slice(0, TOPIC_CHARS);
}

function titleOf(idea: unknown): string {
  return isMapping(idea) && typeof idea.title === 'string' ? idea.title : '(untitled)';
}

function summarize(v: unknown): string {
  if (isMapping(v) && typeof v.metric_keyword === 'string') return `${v.metric_keyword}${typeof v.min_expected_metric === 'number' ? `, at least ${v.min_expected_metric}` : ''}`;
  return 'written';
}
