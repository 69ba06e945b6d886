import type { Step } from './model-server.ts';

/**
 * Scripted answers for the idea skill's discussion loop, in the order it asks: every agent's
 * proposal, every agent in every discussion round, then the synthesis.
 */
export const draftIdea = (agent: number, k: number, round = 0) => ({
  title: `Idea ${agent}.${k}${round ? ` r${round}` : ''}`,
  description: `Agent ${agent} idea ${k} description`,
  novelty: 'new tiling order',
  feasibility: 'runs on one CPU in minutes',
  experiment_plan: '§hypothesis\nTiling helps.\n§method\nTile.\n§metric\nGFLOPS',
});

export const proposalAnswer = (agent: number, perAgent = 1): Step => ({ text: JSON.stringify({ ideas: Array.from({ length: perAgent }, (_, k) => draftIdea(agent, k + 1)) }) });

export const discussionAnswer = (agent: number, round: number, perAgent = 1): Step => ({
  text: JSON.stringify({ critique: `critique by ${agent} in round ${round}`, ideas: Array.from({ length: perAgent }, (_, k) => draftIdea(agent, k + 1, round)) }),
});

export type Scores = [novelty: number, feasibility: number, clarity: number];

export const synthesisValue = (scores: Scores[]) => ({
  gap_analysis: 'Cache-aware tiling is unexplored for small matrices.',
  ideas: scores.map(([n, f, c], i) => ({ ...draftIdea(0, i + 1), title: `Final ${i + 1}`, novelty_score: n, feasibility_score: f, clarity_score: c })),
  primary_metric: 'gflops',
  higher_is_better: true,
  metric_rationale: 'Throughput measures the speed-up the ideas claim.',
});

export const synthesisAnswer = (scores: Scores[]): Step => ({ text: JSON.stringify(synthesisValue(scores)) });

/** The whole script of one generate_ideas call that goes right. */
export function ideaLoopScript(nAgents: number, rounds: number, scores: Scores[]): Step[] {
  const perAgent = Math.ceil(scores.length / nAgents);
  const steps: Step[] = [];
  for (let a = 1; a <= nAgents; a++) steps.push(proposalAnswer(a, perAgent));
  for (let r = 1; r <= rounds; r++) for (let a = 1; a <= nAgents; a++) steps.push(discussionAnswer(a, r, perAgent));
  steps.push(synthesisAnswer(scores));
  return steps;
}

type OpenAiBody = { messages: { role: string; content: unknown }[] };

/** The `<!-- prompt: x -->` name that opens the first system message of a recorded request. */
export function promptName(body: unknown): string | null {
  const first = (body as OpenAiBody).messages.find((m) => m.role === 'system');
  const text = typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content ?? '');
  return /^<!-- prompt: ([\w/]+) -->/.exec(text)?.[1] ?? null;
}

/** The text of the request's messages of one role, joined. */
export function messagesOf(body: unknown, role: string): string {
  return (body as OpenAiBody).messages
    .filter((m) => m.role === role)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}
