import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { mergePapers, type PaperRecord } from '../../ideas/papers.ts';
import { MAX_PAPERS_LIMIT, type SourceReport, searchPaperRecords, type SurveyResult } from '../../ideas/survey.ts';
import { defineTool } from '../../mcp/tool.ts';
import { webRetrieval } from './retrieval.ts';

const PAPER_FIELDS = '{title, abstract, url, authors, year, venue, doi, arxiv_id}';
const OFFLINE = 'A provider that cannot be reached, times out or keeps answering 429 gives zero papers and a note saying why and what to fix; it is never an error.';
/** Seconds a literature tool may take, all its queries and rate-limit waits included. */
const SEARCH_BUDGET_S = 150;
const MAX_EXTRA_QUERIES = 5;

/** The parameters of search_arxiv and search_papers: the query, and papers at most (`max` unless given). */
const searchParams = (max: number) =>
  T.Object({ query: T.String({ description: 'words to search for' }), max_results: T.Integer({ default: max, description: `papers at most, 1 to ${MAX_PAPERS_LIMIT}` }) }, { additionalProperties: false });

export const searchArxivTool = defineTool({
  name: 'search_arxiv',
  description: `Search arXiv (its export API; SVC_SCHOLAR_B_URL or retrieval.endpoint names a mirror) for papers matching the query's words. Returns {query, papers: [${PAPER_FIELDS}], sources, offline?, note?}. ${OFFLINE}`,
  params: searchParams(5),
  timeoutS: SEARCH_BUDGET_S + 30,
  async run(args, ctx) {
    const found = await searchPaperRecords('search_arxiv', args.query, args.max_results, webRetrieval(ctx.env), { backends: ['scholar_b'], deadline: Date.now() + SEARCH_BUDGET_S * 1000, signal: ctx.signal });
    return reported('search_arxiv', { query: args.query.trim(), ...found });
  },
});

export const searchScholarTool = defineTool({
  name: 'search_scholar',
  description:
    `Search Semantic Scholar (the Graph API; SVC_SCHOLAR_A_URL, key SVC_SCHOLAR_A_API_KEY) by relevance, for the query and each of extra_queries in turn (up to ${MAX_EXTRA_QUERIES}), up to limit papers each, merged with each paper once. ` +
    `Returns {queries, papers: [${PAPER_FIELDS}], sources, offline?, note?}. ${OFFLINE}`,
  params: T.Object(
    {
      query: T.String({ description: 'words to search for' }),
      limit: T.Integer({ default: 8, description: `papers per query at most, 1 to ${MAX_PAPERS_LIMIT}` }),
      extra_queries: T.Array(T.String(), { default: [], description: `more queries on the same subject (other words for it, a related method), up to ${MAX_EXTRA_QUERIES}` }),
    },
    { additionalProperties: false },
  ),
  timeoutS: SEARCH_BUDGET_S + 30,
  async run(args, ctx) {
    const extra = args.extra_queries.map((q) => q.trim()).filter((q) => q !== '');
    if (extra.length > MAX_EXTRA_QUERIES) throw new InputError(`search_scholar: at most ${MAX_EXTRA_QUERIES} extra_queries, got ${extra.length}`, 'search the others in another call');
    const queries = [args.query.trim(), ...extra];
    const settings = webRetrieval(ctx.env);
    const deadline = Date.now() + SEARCH_BUDGET_S * 1000;
    const results: SurveyResult<PaperRecord>[] = [];
    for (const q of queries) {
      const r = await searchPaperRecords('search_scholar', q, args.limit, settings, { backends: ['scholar_a'], deadline, signal: ctx.signal });
      results.push(r);
      // the next query would meet the same closed door or the same rate limit
      if (r.offline && r.sources.every((s) => s.error_kind === 'offline' || s.error_kind === 'rate_limited')) break;
    }
    const papers = mergePapers(
      results.map((r) => r.papers),
      args.limit * queries.length,
    );
    const sources: SourceReport[] = results.flatMap((r) => r.sources);
    const notes = [...new Set(results.flatMap((r) => (r.note ? [r.note] : [])))];
    const skipped = queries.length - results.length;
    if (skipped > 0) notes.push(`${skipped} quer${skipped === 1 ? 'y was' : 'ies were'} not searched: the provider did not answer the first`);
    const offline = results.every((r) => r.offline);
    return reported('search_scholar', { queries, papers, sources, ...(offline ? { offline: true as const } : {}), ...(notes.length ? { note: notes.join('; ') } : {}) });
  },
});

export const searchPapersTool = defineTool({
  name: 'search_papers',
  description: `Search the literature through the retrieval backend in force (retrieval.backend, SVC_RETRIEVAL_BACKEND, or what set_retrieval_backend chose): scholar_a (Semantic Scholar), scholar_b (arXiv) or both (merged, each paper once). Returns {query, backend, papers: [${PAPER_FIELDS}], sources, offline?, note?}. ${OFFLINE}`,
  params: searchParams(10),
  timeoutS: SEARCH_BUDGET_S + 30,
  async run(args, ctx) {
    const settings = webRetrieval(ctx.env);
    const found = await searchPaperRecords('search_papers', args.query, args.max_results, settings, { deadline: Date.now() + SEARCH_BUDGET_S * 1000, signal: ctx.signal });
    return reported('search_papers', { query: args.query.trim(), backend: settings.backend, ...found });
  },
});

/** The result, its note also in the skill's log, where the operator looks. */
function reported<R extends { note?: string }>(tool: string, result: R): R {
  if (result.note) log.warn(`${tool}: ${result.note}`);
  return result;
}
