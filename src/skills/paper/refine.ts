import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { defineTool } from '../../mcp/tool.ts';
import { readReview, readRevisions, refinePaper } from '../../paper/refine.ts';
import { paperFacts, type PaperFacts } from '../../paper/writing-facts.ts';
import { readScienceDataFile } from '../../science/read.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { author } from './writing.ts';

/** The facts a refinement is checked against: the checkpoint's science data and figures, and the keys of the paper's own refs.bib. */
function refineFacts(checkpoint: string, tex: string): PaperFacts {
  const data = join(checkpoint, 'science_data.json');
  if (!isFileAt(data)) throw new NotFoundError(`no science data at ${data}`, 'make it first (the transform_data stage): every number of the paper comes from it');
  const manifest = join(checkpoint, 'figures_manifest.json');
  const facts = paperFacts(readScienceDataFile(data), isFileAt(manifest) ? manifest : null, null);
  const bibFile = join(dirname(tex), 'refs.bib');
  const bib = existsSync(bibFile) ? readFileSync(bibFile, 'utf8') : '';
  const keys = [...bib.matchAll(/@\w+\s*\{\s*([^,\s]+)\s*,/g)].map((m) => m[1] ?? '').filter(Boolean);
  return { ...facts, refs: keys.map((key) => ({ key, title: '', year: null })), bib };
}

export const paperRefineTool = defineTool({
  name: 'paper_refine',
  description:
    "Refine the written paper with its review: every section the merged review (review_report.json after merge_reviews), the semantic review or the suggested revisions name is revised by the paper model with their points on it, the sections at once; a section no point names is not touched. " +
    'An edit is taken only when it keeps every claim anchor the section had (same keys), names no unknown anchor, states no number of its own and adds no heading or environment; otherwise the section keeps its text and the reason is recorded (the model is told why once and may try again). ' +
    'The refined paper, its anchors filled from science_data.json, is written beside the draft (main.tex: main_refined.tex), compiled and checked for the venue; the draft is left as it is. ' +
    'Writes paper_refine.json and returns it: {tex_path, refined_tex_path, pdf_path, sections: [{section, accepted, reason?, points}], unplaced, compiled, compile_error?, pages, format: [check_format findings], format_passes}.',
  params: T.Object(
    {
      tex_path: T.String({ default: 'paper/main.tex', description: "the paper write_paper_iterative wrote: absolute, or relative to the checkpoint" }),
      merged_review_path: T.String({ default: 'review_report.json', description: 'the review after merge_reviews: its weaknesses, issues and recommendations' }),
      suggested_revisions_json: T.Optional(T.String({ description: 'a list of {section, revision} (or {"revisions": [...]}); none: only the reviews' })),
      semantic_review_path: T.Optional(T.String({ description: 'a semantic review with issues or findings; missing is not an error' })),
      venue: T.String({ default: 'arxiv', description: 'neurips, icpp, sc, isc, arxiv or acm' }),
    },
    { additionalProperties: false },
  ),
  timeoutS: 1800,
  run: async (args, ctx) => {
    const tex = checkpointPath(args.tex_path, 'tex_path', ctx.env);
    if (!tex.endsWith('.tex')) throw new InputError(`tex_path '${tex}' is not a .tex file`, 'give the paper write_paper_iterative wrote (paper/main.tex)');
    if (!isFileAt(tex)) throw new NotFoundError(`tex_path '${tex}' does not exist`, 'write the paper first (write_paper_iterative), or give the path of its .tex');
    const checkpoint = ctx.env.SVC_CHECKPOINT_DIR || dirname(dirname(tex));
    const review = readReview(checkpointPath(args.merged_review_path, 'merged_review_path', ctx.env), 'merged_review_path', 'review the paper first (review_compiled_paper, then merge_reviews)');
    const revisions = args.suggested_revisions_json?.trim() ? readRevisions(checkpointPath(args.suggested_revisions_json, 'suggested_revisions_json', ctx.env)) : null;
    const semanticPath = args.semantic_review_path?.trim() ? checkpointPath(args.semantic_review_path, 'semantic_review_path', ctx.env) : null;
    const semantic = semanticPath && isFileAt(semanticPath) ? readReview(semanticPath, 'semantic_review_path', 'fix or leave out the semantic review') : null;
    const facts = refineFacts(checkpoint, tex);
    const goal = facts.data.experiment_context;
    const a = author(ctx, args.venue, [goal.goal, goal.method_summary].filter(Boolean).join('\n\n'));
    return refinePaper(a, facts, { tex, review, revisions, semantic, recordDir: checkpoint, env: ctx.env });
  },
});
