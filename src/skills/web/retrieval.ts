import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { type RetrievalSettings, retrievalSettings } from '../../ideas/retrieval-settings.ts';
import { defineTool, type ToolContext } from '../../mcp/tool.ts';
import { skillConfig } from '../skill-config.ts';

type Backend = RetrievalSettings['backend'];
const BACKENDS: readonly Backend[] = ['scholar_a', 'scholar_b', 'both'];

/** The backend set_retrieval_backend chose: it holds for this skill process, over the workflow's. */
let chosen: Backend | null = null;

/** The retrieval settings a call of this skill searches with. */
export function webRetrieval(env: ToolContext['env']): RetrievalSettings {
  const settings = retrievalSettings(skillConfig(env), env);
  return chosen ? { ...settings, backend: chosen } : settings;
}

/** The workflow's backend, or what is wrong with it: choosing another one is how to get past that. */
function configured(env: ToolContext['env']): string {
  try {
    return retrievalSettings(skillConfig(env), env).backend;
  } catch (err) {
    return `none usable (${(err as Error).message})`;
  }
}

export const setRetrievalBackendTool = defineTool({
  name: 'set_retrieval_backend',
  description:
    'Choose the literature backend that search_papers and collect_references_iterative use from now on in this skill process: scholar_a (Semantic Scholar), scholar_b (arXiv) or both (merged). ' +
    'It replaces the workflow setting (retrieval.backend, SVC_RETRIEVAL_BACKEND) until the process ends. Returns {backend, previous}.',
  params: T.Object({ backend: T.String({ description: 'scholar_a, scholar_b or both' }) }, { additionalProperties: false }),
  run(args, ctx) {
    const backend = args.backend.trim();
    if (!(BACKENDS as readonly string[]).includes(backend)) throw new InputError(`set_retrieval_backend: backend must be scholar_a, scholar_b or both, got '${args.backend.slice(0, 40)}'`, 'scholar_a is Semantic Scholar, scholar_b arXiv');
    const previous = chosen ?? configured(ctx.env);
    chosen = backend as Backend;
    return { backend, previous };
  },
});
