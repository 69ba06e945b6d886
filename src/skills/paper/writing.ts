import { dirname, join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { createModelClient } from '../../llm/client.ts';
import { defineTool, type ToolContext } from '../../mcp/tool.ts';
import { type Author, generateSection, paperLanguage, reviewSection, reviseSection, SECTIONS, sectionName } from '../../paper/sections.ts';
import { findVenue } from '../../paper/venues.ts';
import { writePaper } from '../../paper/write-paper.ts';
import { paperFacts, type PaperFacts } from '../../paper/writing-facts.ts';
import { readScienceDataFile } from '../../science/read.ts';
import { skillConfig } from '../skill-config.ts';
import { checkpointPath } from '../checkpoint-path.ts';

/** The paper model; none configured is an error at once: a paper is not written without one. */
export function author(ctx: ToolContext, venue: string, context: string): Author {
  const client = createModelClient({ cfg: skillConfig(ctx.env) });
  const why = client.unavailable('paper');
  if (why) throw new InputError(`a paper cannot be written without a model: ${why}`, 'set SVC_MODEL_PAPER, SVC_MODEL or the workflow llm block');
  return { client, language: paperLanguage(envValue(ctx.env, 'SVC_PAPER_LANGUAGE')), venue: findVenue(venue), context, signal: ctx.signal };
}

const given = (p: string | undefined, what: string, ctx: ToolContext) => (p?.trim() ? checkpointPath(p, what, ctx.env) : null);

/**
 * The facts of a single-section call: science_data.json and figures_manifest.json beside
 * nodes_json_path, else in the checkpoint (SVC_CHECKPOINT_DIR), and the references of refs_json.
 */
function checkpointFacts(ctx: ToolContext, nodesJson: string | undefined, refsJson: string | undefined): PaperFacts {
  const nodes = given(nodesJson, 'nodes_json_path', ctx);
  const dir = nodes ? dirname(nodes) : ctx.env.SVC_CHECKPOINT_DIR;
  if (!dir) throw new InputError('no science data to write from: neither nodes_json_path nor SVC_CHECKPOINT_DIR is given', "give nodes_json_path in the run's checkpoint");
  const manifest = join(dir, 'figures_manifest.json');
  return paperFacts(readScienceDataFile(join(dir, 'science_data.json')), isFileAt(manifest) ? manifest : null, given(refsJson, 'refs_json', ctx));
}

const VENUE = T.String({ default: 'arxiv', description: 'neurips, icpp, sc, isc, arxiv or acm' });
const CONTEXT = T.String({ description: 'the experiment: goal, method and findings, as the writer should know them' });
const SECTION = T.String({ description: SECTIONS.join(', ') });
const LANGUAGE_NOTE = 'in SVC_PAPER_LANGUAGE (default English)';

export const generateSectionTool = defineTool({
  name: 'generate_section',
  description:
    `One section of a paper as LaTeX body text (no heading), written by the paper model ${LANGUAGE_NOTE} from the context, the measured values of science_data.json (every number a claim anchor \\svcclaim{<key>}), ` +
    'the figures of figures_manifest.json and the results table (\\ref by label) and the references of refs_json (\\cite by key). The data files are read beside nodes_json_path, else in the checkpoint. ' +
    'A section stating a number without an anchor, an unknown anchor, label or citation is refused and asked again. Returns {section, latex}.',
  params: T.Object(
    {
      section: SECTION,
      context: CONTEXT,
      venue: VENUE,
      nodes_json_path: T.Optional(T.String({ description: "the run's nodes_tree.json: absolute, or relative to the checkpoint" })),
      refs_json: T.Optional(T.String({ description: 'related_refs.json of collect_references_iterative; none: cite nothing' })),
    },
    { additionalProperties: false },
  ),
  timeoutS: 600,
  run: async (args, ctx) => {
    const section = sectionName(args.section);
    const facts = checkpointFacts(ctx, args.nodes_json_path, args.refs_json);
    return { section, latex: await generateSection(author(ctx, args.venue, args.context), facts, section) };
  },
});

export const reviewSectionTool = defineTool({
  name: 'review_section',
  description: 'The paper model reviews one section of LaTeX for the venue. Returns {score (0 to 10; 7 or more: ready), issues, suggestions}.',
  params: T.Object({ latex: T.String({ description: 'the section' }), context: CONTEXT, venue: VENUE }, { additionalProperties: false }),
  timeoutS: 600,
  run: (args, ctx) => {
    if (args.latex.trim() === '') throw new InputError('latex is empty', 'give the section to review');
    return reviewSection(author(ctx, args.venue, args.context), args.latex);
  },
});

export const reviseSectionTool = defineTool({
  name: 'revise_section',
  description: `The paper model revises one section ${LANGUAGE_NOTE} acting on the feedback, under the rules of generate_section (the data read from the checkpoint). Returns {section, latex}.`,
  params: T.Object({ section: SECTION, latex: T.String({ description: 'the section now' }), feedback: T.String({ description: 'the review to act on' }), context: CONTEXT, venue: VENUE }, { additionalProperties: false }),
  timeoutS: 600,
  run: async (args, ctx) => {
    const section = sectionName(args.section);
    if (args.latex.trim() === '') throw new InputError('latex is empty', 'give the section to revise');
    const facts = checkpointFacts(ctx, undefined, undefined);
    return { section, latex: await reviseSection(author(ctx, args.venue, args.context), facts, section, args.latex, args.feedback) };
  },
});

export const MAX_REVISION_ROUNDS = 5;

export const writePaperIterativeTool = defineTool({
  name: 'write_paper_iterative',
  description:
    `Write the whole paper ${LANGUAGE_NOTE}: the introduction, related work, method, experiments and conclusion written at once by the paper model, each reviewed and revised up to max_revision_rounds times, then the title and abstract; ` +
    "the figures of the manifest and a results table made from science_data.json (every cell a claim anchor) in the experiments, every claim anchor filled from science_data.json, the references of refs_json, the code availability statement when the checkpoint's bundle is curated; " +
    'rendered for the venue in <checkpoint>/paper/main.tex, compiled and checked. Without a model it fails: a paper is not written without one. ' +
    'Returns {latex, bib, pdf_path, pages, title, format: [check_format findings], reviews: {section: [{score, issues, suggestions}]}}.',
  params: T.Object(
    {
      experiment_summary: T.String({ description: 'what the experiment did and found' }),
      context: T.Optional(T.String({ description: 'more for the writer to know (the verified context)' })),
      nodes_json_path: T.Optional(T.String({ description: "the run's nodes_tree.json" })),
      refs_json: T.Optional(T.String({ description: 'related_refs.json; none: no references' })),
      figures_manifest_json: T.Optional(T.String({ description: 'figures_manifest.json; none: no figures' })),
      science_data_json: T.String({ description: 'science_data.json: every number of the paper comes from it' }),
      venue: VENUE,
      max_revision_rounds: T.Integer({ default: 2, description: `review and revision rounds per section, 0 to ${MAX_REVISION_ROUNDS}` }),
      author_name: T.Optional(T.String({ description: 'the author; several separated by commas' })),
    },
    { additionalProperties: false },
  ),
  timeoutS: 3600,
  run: async (args, ctx) => {
    if (!Number.isInteger(args.max_revision_rounds) || args.max_revision_rounds < 0 || args.max_revision_rounds > MAX_REVISION_ROUNDS) {
      throw new InputError(`max_revision_rounds must be an integer from 0 to ${MAX_REVISION_ROUNDS}, got ${args.max_revision_rounds}`);
    }
    const context = [args.experiment_summary, args.context ?? ''].map((s) => s.trim()).filter(Boolean).join('\n\n');
    const a = author(ctx, args.venue, context);
    const dataPath = checkpointPath(args.science_data_json, 'science_data_json', ctx.env);
    const manifest = given(args.figures_manifest_json, 'figures_manifest_json', ctx);
    if (manifest && !isFileAt(manifest)) throw new NotFoundError(`figures_manifest_json '${manifest}' does not exist`, 'make the figures first (generate_figures), or leave it out');
    const facts = paperFacts(readScienceDataFile(dataPath), manifest, given(args.refs_json, 'refs_json', ctx));
    const checkpointDir = ctx.env.SVC_CHECKPOINT_DIR || dirname(dataPath);
    const authors = (args.author_name ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    return writePaper(a, facts, { dir: join(checkpointDir, 'paper'), authors: authors.length ? authors : ['svc'], maxRounds: args.max_revision_rounds, checkpointDir, env: ctx.env });
  },
});
