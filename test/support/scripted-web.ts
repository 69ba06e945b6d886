import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/** Search queries a researcher of the demo task (fewer comparisons sorting an array) would try next. */
const DEMO_QUERIES = ['adaptive sorting presortedness', 'comparison sorting lower bound', 'shellsort gap sequences', 'merge insertion sort comparisons', 'binary insertion sort', 'timsort runs merging', 'sorting networks comparators'];

/**
 * The web skill's request for the next related-work queries (prompt web/next_queries): the first
 * few of the demo's queries that the request does not list as searched already. The same request
 * always gets the same answer.
 */
export function nextQueriesReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system', 'user']).toLowerCase();
  const tried = /## queries already searched\n([\s\S]*?)\n## /.exec(text)?.[1] ?? '';
  return JSON.stringify({ queries: DEMO_QUERIES.filter((q) => !tried.includes(`- ${q}`)).slice(0, 3) });
}
