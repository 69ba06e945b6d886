import { Type as T } from '@sinclair/typebox';
import { log } from '../../core/log.ts';
import { retrievalSettings } from '../../ideas/retrieval-settings.ts';
import { MAX_PAPERS_LIMIT, survey } from '../../ideas/survey.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { skillConfig } from '../skill-config.ts';

export const surveyTool = defineTool({
  name: 'survey',
  description: `Search the literature on a topic through the retrieval backend of the workflow (retrieval.backend; SVC_RETRIEVAL_BACKEND wins): scholar_a (Semantic Scholar), scholar_b (arXiv) or both (merged, each title once). Returns {papers: [{title, abstract, url}], sources: [{backend, provider, url, papers, error?, error_kind?}], offline?, note?}. A backend that cannot be reached gives zero papers and a note saying why and what to fix; it is never an error.`,
  params: toolParams({
    topic: T.String({ description: 'what to search for: the research topic in a few words or a sentence' }),
    max_papers: T.Integer({ default: 8, description: `how many papers at most, 1 to ${MAX_PAPERS_LIMIT}` }),
  }),
  timeoutS: 180,
  async run(args, ctx) {
    const settings = retrievalSettings(skillConfig(ctx.env), ctx.env);
    const result = await survey(args.topic, args.max_papers, settings, ctx.signal);
    // the run goes on without these papers: say so where the operator looks, not only in the result
    if (result.note) log.warn(`survey: ${result.note}`);
    return result;
  },
});
