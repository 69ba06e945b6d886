import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import singleFigureTemplate from '../../prompts/vlm/single_figure_review.md' with { type: 'text' };
import tableTemplate from '../../prompts/vlm/table_review.md' with { type: 'text' };
import { InputError, NotFoundError, TooLargeError } from '../../core/errors.ts';
import { isFileAt, statOrNull } from '../../core/paths.ts';
import type { UserContent } from '../../llm/types.ts';
import { defineTool, type ToolContext, toolParams } from '../../mcp/tool.ts';
import { readFiguresManifest } from '../../paper/figures-manifest.ts';
import { fillOwnPrompt } from '../../prompts/templates.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { pngPart, type Vision, visionModel } from '../vision.ts';
import { pngFile, readPng, reviewCheck } from './review-figures.ts';

const MAX_CONTEXT_CHARS = 4000;
const MAX_CAPTION_CHARS = 2000;
/** Far above a results table's LaTeX: a larger text is not a table. */
const MAX_TABLE_CHARS = 40_000;
const MAX_TEX_BYTES = 5 * 1024 * 1024;

type Review = { score: number; issues: string[]; suggestions: string[] };
type Seen = { client: Extract<Vision, { client: unknown }>['client'] };

const experimentOf = (context: string | undefined) => (context ?? '').trim().slice(0, MAX_CONTEXT_CHARS) || '(not given)';
const listed = (items: string[]) => items.map((s) => s.trim()).filter(Boolean);

/** One request to the vision model: the prompt, then what it reviews; its answer checked as vlm_review_figures checks it. */
async function ask(vision: Seen, template: string, context: string | undefined, content: UserContent, op: string, ctx: ToolContext): Promise<Review> {
  const review = await vision.client.completeJson<Review>(
    {
      role: 'vlm',
      messages: [
        { role: 'system', content: fillOwnPrompt(template, { experiment: experimentOf(context) }) },
        { role: 'user', content },
      ],
      meta: { phase: 'paper', skill: 'vlm-skill', component: op === 'table_review' ? 'tables' : 'figures', op },
      signal: ctx.signal,
    },
    reviewCheck,
    { retries: 1 },
  );
  return { score: review.score, issues: listed(review.issues), suggestions: listed(review.suggestions) };
}

const figureContent = (label: string, caption: string, png: Uint8Array): UserContent => [{ type: 'text', text: `Figure ${label}. Caption: ${caption.trim().slice(0, MAX_CAPTION_CHARS) || '(none)'}` }, pngPart(png)];

export const reviewFigureTool = defineTool({
  name: 'review_figure',
  description:
    'Show one figure (a PNG in the checkpoint) with its caption to the vision model (VLM_MODEL) and return its review: {reviewed: true, score (0 to 1), issues, suggestions, model, label, image_path}. ' +
    'Without a vision model: {reviewed: false, reason, issues: [], suggestions: []} with no score.',
  params: toolParams({
    image_path: T.String({ description: "the figure's PNG: absolute, or relative to the checkpoint (SVC_CHECKPOINT_DIR)" }),
    caption: T.String({ description: "the figure's caption" }),
    context: T.Optional(T.String({ default: '', description: 'what the experiment is about' })),
    label: T.Optional(T.String({ description: "the figure's label, such as fig:metric_bar (default: the file's name)" })),
  }),
  timeoutS: 600,
  async run(args, ctx) {
    const path = checkpointPath(args.image_path, 'image_path', ctx.env);
    const png = pngFile(path, `the figure ${path}`, 'give the PNG of a figure (generate_figures writes them)');
    const label = args.label?.trim() || basename(path);
    const vision = visionModel(ctx.env);
    if ('none' in vision) return { reviewed: false, reason: vision.none, issues: [], suggestions: [], label, image_path: path };
    const review = await ask(vision, singleFigureTemplate, args.context, figureContent(label, args.caption, png), 'single_figure_review', ctx);
    return { reviewed: true, ...review, model: vision.model, label, image_path: path };
  },
});

export const reviewFiguresAllTool = defineTool({
  name: 'review_figures_all',
  description:
    'Review every figure of a figures manifest on its own with the vision model (VLM_MODEL), all at once: each PNG with its label and caption. ' +
    'Returns {reviewed: true, score (the mean of the figures\' scores), issues and suggestions (each starting with its figure\'s label), model, figures: the labels, reviews: [{label, score, issues, suggestions}]}, ' +
    'a shape merge_reviews reads as vlm_review.json. Without a vision model: {reviewed: false, reason, issues: [], suggestions: [], figures} with no score.',
  params: toolParams({
    figures_manifest_json: T.String({ description: 'figures_manifest.json as generate_figures writes it (in the checkpoint); the PNGs it names are read beside it' }),
    context: T.Optional(T.String({ default: '', description: 'what the experiment is about' })),
  }),
  timeoutS: 900,
  async run(args, ctx) {
    const path = checkpointPath(args.figures_manifest_json, 'figures_manifest_json', ctx.env);
    if (!isFileAt(path)) throw new NotFoundError(`figures_manifest_json '${path}' does not exist`, 'make the figures first (generate_figures)');
    const manifest = readFiguresManifest(path);
    if (manifest.figures.length === 0) throw new InputError(`${path} lists no figures: there is nothing to review`, 'make the figures first (generate_figures)');
    const shown = manifest.figures.map((f) => ({ label: f.label, caption: f.caption, png: readPng(dirname(path), f) }));
    const figures = shown.map((f) => f.label);
    const vision = visionModel(ctx.env);
    if ('none' in vision) return { reviewed: false, reason: vision.none, issues: [], suggestions: [], figures };
    const reviews = await Promise.all(shown.map(async (f) => ({ label: f.label, ...(await ask(vision, singleFigureTemplate, args.context, figureContent(f.label, f.caption, f.png), 'single_figure_review', ctx)) })));
    const score = reviews.reduce((sum, r) => sum + r.score, 0) / reviews.length;
    return {
      reviewed: true,
      score,
      issues: reviews.flatMap((r) => r.issues.map((s) => `${r.label}: ${s}`)),
      suggestions: reviews.flatMap((r) => r.suggestions.map((s) => `${r.label}: ${s}`)),
      model: vision.model,
      figures,
      reviews,
    };
  },
});

/** The table environments of a LaTeX file, else its tabulars; none is an error naming the file. */
function tablesOf(path: string): string[] {
  const st = statOrNull(path);
  if (!st?.isFile()) throw new NotFoundError(`tex_path '${path}' does not exist`, 'give the LaTeX file with the table, or the table itself as table_latex');
  if (st.size > MAX_TEX_BYTES) throw new TooLargeError(`tex_path '${path}' has ${st.size} bytes, more than the ${MAX_TEX_BYTES} a paper's LaTeX may have`);
  const tex = readFileSync(path, 'utf8');
  const tables = [...tex.matchAll(/\\begin\{(table\*?)\}[\s\S]*?\\end\{\1\}/g)].map((m) => m[0]);
  const found = tables.length ? tables : [...tex.matchAll(/\\begin\{(tabular[*x]?)\}[\s\S]*?\\end\{\1\}/g)].map((m) => m[0]);
  if (found.length === 0) throw new InputError(`${path} has no table (no table or tabular environment)`, 'give a LaTeX file with a table, or the table itself as table_latex');
  return found;
}

export const reviewTableTool = defineTool({
  name: 'review_table',
  description:
    "Give the tables of a paper (the table environments of a LaTeX file in the checkpoint, or one table's LaTeX) to the vision model (VLM_MODEL) and return its review: {reviewed: true, score (0 to 1), issues, suggestions, model, tables: how many}. " +
    'Without a vision model: {reviewed: false, reason, issues: [], suggestions: [], tables} with no score.',
  params: toolParams({
    tex_path: T.Optional(T.String({ description: 'a LaTeX file with the tables: absolute, or relative to the checkpoint' })),
    table_latex: T.Optional(T.String({ description: "one table's LaTeX, instead of tex_path" })),
    context: T.Optional(T.String({ default: '', description: 'what the experiment is about' })),
  }),
  timeoutS: 600,
  async run(args, ctx) {
    const given = args.table_latex?.trim() ?? '';
    if (!!given === !!args.tex_path?.trim()) throw new InputError('review_table needs a table: give either tex_path or table_latex', 'give tex_path (a LaTeX file with the tables) or table_latex (one table)');
    const tables = given ? [given] : tablesOf(checkpointPath(args.tex_path ?? '', 'tex_path', ctx.env));
    const text = tables.map((t, i) => `Table ${i + 1}:\n${t}`).join('\n\n');
    if (text.length > MAX_TABLE_CHARS) throw new TooLargeError(`the tables have ${text.length} characters, more than the ${MAX_TABLE_CHARS} a review takes`, 'give one table as table_latex');
    const vision = visionModel(ctx.env);
    if ('none' in vision) return { reviewed: false, reason: vision.none, issues: [], suggestions: [], tables: tables.length };
    const review = await ask(vision, tableTemplate, args.context, text, 'table_review', ctx);
    return { reviewed: true, ...review, model: vision.model, tables: tables.length };
  },
});
