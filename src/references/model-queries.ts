import nextQueriesTemplate from '../prompts/web/next_queries.md' with { type: 'text' };
import type { ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';

/** How much of the summary the model reads, and how many found titles it is shown. */
const MAX_SUMMARY_CHARS = 4000;
const MAX_TITLES = 40;
export const QUERIES_PER_ASK = 5;

/** What the search has done so far, for the model to propose what to search next. */
export type SearchState = { tried: readonly string[]; titles: readonly string[] };

/**
 * The paper model's next search queries (role `paper`, prompt web/next_queries), none when it sees
 * nothing more worth searching. Throws whatever
 * the model call throws (unreachable, a key refused, a replay without this request, no usable
 * JSON): the caller goes on without it.
 */
export async function modelQueries(client: Pick<ModelClient, 'completeJson'>, summary: string, state: SearchState, signal?: AbortSignal): Promise<string[]> {
  const system = fillOwnPrompt(nextQueriesTemplate, {
    summary: summary.slice(0, MAX_SUMMARY_CHARS).trim() || '(none given)',
    tried: state.tried.map((q) => `- ${q}`).join('\n') || '(none yet)',
    found_count: state.titles.length,
    found: state.titles.slice(0, MAX_TITLES).map((t) => `- ${t}`).join('\n') || '(none yet)',
    n: QUERIES_PER_ASK,
  });
  const answer = await client.completeJson<{ queries: string[] }>(
    {
      role: 'paper',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'Propose the next search queries. Answer with the JSON object only.' },
      ],
      meta: { phase: 'paper', skill: 'web-skill', component: 'references', op: 'next_queries' },
      ...(signal ? { signal } : {}),
    },
    checkAnswer,
    { retries: 1 },
  );
  return answer.queries.map((q) => q.replace(/\s+/g, ' ').trim()).filter((q) => q !== '').slice(0, QUERIES_PER_ASK);
}

function checkAnswer(v: unknown): string | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'the answer must be a JSON object';
  const q = (v as { queries?: unknown }).queries;
  // an empty list is an answer: the model sees nothing more worth searching
  if (!Array.isArray(q) || !q.every((x) => typeof x === 'string')) return 'queries must be a list of strings';
  return null;
}
