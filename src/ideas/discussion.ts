import { InputError } from '../core/errors.ts';
import type { ModelClient } from '../llm/client.ts';
import { askIdea, ideaCallMeta } from './ask-json.ts';
import { briefing, critiquesBlock, PROMPT_PAPERS, proposalsBlock } from './idea-context.ts';
import { type DraftIdea, draftIdeasProblem, draftOf, type IdeaFile, scoredIdeas, synthesisProblem } from './idea-file.ts';
import type { Paper } from './papers.ts';
import { MAX_AGENTS, persona } from './personas.ts';
import { ideaPrompt } from './prompt-template.ts';

export type GenerateParams = {
  topic: string;
  papers: Paper[];
  experimentContext: string;
  nIdeas: number;
  nAgents: number;
  maxDiscussionRounds: number;
  maxRecursionDepth: number;
};

export type LoopDeps = {
  client: Pick<ModelClient, 'complete'>;
  /** written into idea.json: `reimpl`, or `reimpl: <why the real engine did not run>` */
  maIntegrationStatus: string;
  /** the node the call belongs to in the cost ledger, when a node asked */
  nodeId?: string | null;
  signal?: AbortSignal;
};

export const LIMITS = { nIdeas: 10, nAgents: MAX_AGENTS, rounds: 5, recursion: 3 } as const;

/**
 * The built-in multi-agent discussion: every agent proposes, then for each round every agent
 * critiques the others and revises its own ideas, then a synthesis writes the idea file. Calls
 * run one after another so that the requests, and a replayed run, come in a fixed order:
 * n_agents + rounds·n_agents + 1 model calls (plus one per corrected answer).
 */
export async function generateIdeas(p: GenerateParams, deps: LoopDeps): Promise<IdeaFile> {
  checkGenerateParams(p);
  const perAgent = Math.ceil(p.nIdeas / p.nAgents);
  const brief = briefing(p.topic, p.experimentContext, p.papers);
  const ask = (system: string, user: string, op: string, check: (v: unknown) => string | null, what: string) => askIdea(deps.client, { system, user, meta: ideaCallMeta(op, deps.nodeId), signal: deps.signal }, check, what);
  const draftsCheck = (v: unknown) => (v && typeof v === 'object' ? draftIdeasProblem((v as Record<string, unknown>).ideas, perAgent) : 'the answer must be a JSON object');
  const agentValues = (a: number) => ({ agent_number: a + 1, n_agents: p.nAgents, persona: persona(a), per_agent: perAgent });

  const proposals: DraftIdea[][] = [];
  for (let a = 0; a < p.nAgents; a++) {
    const answer = await ask(ideaPrompt('agent', agentValues(a)), brief, 'propose', draftsCheck, `agent ${a + 1}'s proposal`);
    proposals.push(drafts(answer, perAgent));
  }

  let critiques: string[] = [];
  for (let round = 1; round <= p.maxDiscussionRounds; round++) {
    const user = `${brief}\n\n# Current proposals\n${proposalsBlock(proposals)}\n\n# Critiques of the previous round\n${critiquesBlock(critiques)}`;
    const check = (v: unknown) => draftsCheck(v) ?? (typeof (v as Record<string, unknown>).critique === 'string' ? null : '"critique" must be a string');
    const next: string[] = [];
    const revised: DraftIdea[][] = [];
    for (let a = 0; a < p.nAgents; a++) {
      const system = ideaPrompt('discussion', { ...agentValues(a), round, rounds: p.maxDiscussionRounds });
      const answer = await ask(system, user, 'discuss', check, `agent ${a + 1} in discussion round ${round}`);
      next.push(String(answer.critique));
      revised.push(drafts(answer, perAgent));
    }
    // every agent of a round reads the same proposals: revisions take effect for the next round
    proposals.splice(0, proposals.length, ...revised);
    critiques = next;
  }

  const system = ideaPrompt('synthesis', { n_agents: p.nAgents, rounds: p.maxDiscussionRounds, n_ideas: p.nIdeas });
  const user = `${brief}\n\n# Final proposals\n${proposalsBlock(proposals)}\n\n# Last critiques\n${critiquesBlock(critiques)}`;
  const s = await ask(system, user, 'synthesize', (v) => synthesisProblem(v, p.nIdeas), 'the synthesis');
  return {
    gap_analysis: String(s.gap_analysis).trim(),
    ideas: scoredIdeas(s.ideas as Record<string, unknown>[], p.nIdeas),
    primary_metric: String(s.primary_metric).trim(),
    higher_is_better: s.higher_is_better as boolean,
    metric_rationale: String(s.metric_rationale).trim(),
    papers_analyzed: Math.min(p.papers.length, PROMPT_PAPERS),
    n_agents: p.nAgents,
    discussion_rounds: p.maxDiscussionRounds,
    ma_integration_status: deps.maIntegrationStatus,
  };
}

function drafts(answer: Record<string, unknown>, n: number): DraftIdea[] {
  return (answer.ideas as Record<string, unknown>[]).slice(0, n).map(draftOf);
}

/** Refuses parameters out of range, before any model call, whichever engine runs. */
export function checkGenerateParams(p: GenerateParams): void {
  if (p.topic.trim() === '') throw new InputError('generate_ideas: topic is empty', 'give the research topic');
  intIn('n_ideas', p.nIdeas, 1, LIMITS.nIdeas);
  intIn('n_agents', p.nAgents, 1, LIMITS.nAgents);
  intIn('max_discussion_rounds', p.maxDiscussionRounds, 0, LIMITS.rounds);
  intIn('max_recursion_depth', p.maxRecursionDepth, 0, LIMITS.recursion);
}

function intIn(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`generate_ideas: ${name} must be an integer from ${min} to ${max}, got ${value}`, `give ${name} within that range`);
}
