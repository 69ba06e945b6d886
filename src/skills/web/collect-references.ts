import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { createModelClient, type ModelClient } from '../../llm/client.ts';
import { defineTool } from '../../mcp/tool.ts';
import { collectReferences } from '../../references/collect.ts';
import { modelQueries } from '../../references/model-queries.ts';
import { keywordList } from '../../references/queries.ts';
import { relatedRefs } from '../../references/related-refs.ts';
import { skillConfig } from '../skill-config.ts';
import { webRetrieval } from './retrieval.ts';

/** Seconds the rounds may take in all; the client waits a little longer for the files to be written. */
const COLLECT_BUDGET_S = 600;
const LIMITS = { maxRounds: 100, minPapers: 200 };

export const collectReferencesTool = defineTool({
  name: 'collect_references_iterative',
  description:
    'Collect the related work of an experiment for its paper: rounds of literature search (the retrieval backend in force) with queries from the keywords and the summary, then queries the paper model proposes (derived ones when no model answers), each paper kept once, ' +
    'until min_papers are found or max_rounds have run. Writes <checkpoint>/related_refs.json and refs.bib (a BibTeX entry per paper, under its cite_key) and returns the same: ' +
    '{papers: [{cite_key, title, authors, year, venue, doi, arxiv_id, url, abstract, found_by}], count, min_papers, complete, backend, rounds: [{round, query, origin, found, new, errors?}], stopped, bib_file, offline?, note?}. ' +
    'An unreachable or rate-limited provider ends the rounds at once with the papers found so far and a note; it is never an error.',
  params: T.Object(
    {
      experiment_summary: T.String({ description: 'what the experiment did and found: its goal, method and results' }),
      keywords: T.Union([T.String(), T.Array(T.String())], { description: 'search keywords or phrases: a list, or one text separated by commas or lines' }),
      max_rounds: T.Integer({ default: 20, description: `search rounds at most (one query each), 1 to ${LIMITS.maxRounds}` }),
      min_papers: T.Integer({ default: 10, description: `distinct papers to find before stopping, 1 to ${LIMITS.minPapers}` }),
    },
    { additionalProperties: false },
  ),
  timeoutS: COLLECT_BUDGET_S + 60,
  async run(args, ctx) {
    if (!Number.isInteger(args.max_rounds) || args.max_rounds < 1 || args.max_rounds > LIMITS.maxRounds) throw new InputError(`collect_references_iterative: max_rounds must be an integer from 1 to ${LIMITS.maxRounds}, got ${args.max_rounds}`);
    if (!Number.isInteger(args.min_papers) || args.min_papers < 1 || args.min_papers > LIMITS.minPapers) throw new InputError(`collect_references_iterative: min_papers must be an integer from 1 to ${LIMITS.minPapers}, got ${args.min_papers}`);
    const keywords = keywordList(args.keywords);
    const summary = args.experiment_summary.trim();
    if (keywords.length === 0 && summary === '') throw new InputError('collect_references_iterative: experiment_summary and keywords are both empty', 'give the experiment summary, keywords, or both');
    const settings = webRetrieval(ctx.env);
    // made when first needed, inside the rounds: a model that cannot even be set up only costs its queries
    let client: ModelClient | undefined;
    const collected = await collectReferences({
      summary,
      keywords,
      maxRounds: args.max_rounds,
      minPapers: args.min_papers,
      settings,
      propose: (state) => modelQueries((client ??= createModelClient({ cfg: skillConfig(ctx.env) })), summary || keywords.join(', '), state, ctx.signal),
      deadline: Date.now() + COLLECT_BUDGET_S * 1000,
      signal: ctx.signal,
    });
    const out = relatedRefs(collected, { minPapers: args.min_papers, backend: settings.backend, dir: envValue(ctx.env, 'SVC_CHECKPOINT_DIR') });
    if (out.note) log.warn(`collect_references_iterative: ${out.note}`);
    return out;
  },
});
