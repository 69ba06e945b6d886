import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import reviewTemplate from '../../prompts/vlm/figure_review.md' with { type: 'text' };
import { InputError, NotFoundError, TooLargeError } from '../../core/errors.ts';
import { resolveInside, statOrNull } from '../../core/paths.ts';
import { isMapping } from '../../core/values.ts';
import type { UserContent } from '../../llm/types.ts';
import { defineTool } from '../../mcp/tool.ts';
import { readFiguresManifest } from '../../paper/figures-manifest.ts';
import { fillOwnPrompt } from '../../prompts/templates.ts';
import type { FigureEntry } from '../../schema/figures-manifest.ts';
import { pngPart, visionModel } from '../vision.ts';

/** Far above a chart's PNG (tens of kilobytes): a larger file is no figure of generate_figures. */
const MAX_PNG_BYTES = 20 * 1024 * 1024;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_CONTEXT_CHARS = 4000;

type Review = { score: number; issues: string[]; suggestions: string[] };

export const vlmReviewFigures = defineTool({
  name: 'vlm_review_figures',
  description:
    "Show the figures listed in a figures manifest (each figure's PNG after its label and caption) to the vision model (VLM_MODEL) and return its review: " +
    '{reviewed: true, score (0 to 1, the figures as a whole), issues, suggestions, model, figures: the labels reviewed}. ' +
    'Without a vision model: {reviewed: false, reason, issues: [], suggestions: [], figures} with no score.',
  params: T.Object(
    {
      figures_manifest_path: T.String({ description: 'figures_manifest.json as generate_figures writes it; the PNGs it names are read beside it' }),
      experiment_context: T.Optional(T.String({ default: '', description: 'what the experiment is about' })),
    },
    { additionalProperties: false },
  ),
  timeoutS: 900,
  async run(args, ctx) {
    const path = resolve(args.figures_manifest_path);
    const manifest = readFiguresManifest(path);
    if (manifest.figures.length === 0) throw new InputError(`${path} lists no figures: there is nothing to review`, 'make the figures first (generate_figures)');
    const content: UserContent = manifest.figures.flatMap((f) => [{ type: 'text' as const, text: `Figure ${f.label} (${f.kind}). Caption: ${f.caption}` }, pngPart(readPng(dirname(path), f))]);
    const figures = manifest.figures.map((f) => f.label);

    const vision = visionModel(ctx.env);
    if ('none' in vision) return { reviewed: false, reason: vision.none, issues: [], suggestions: [], figures };
    const review = await vision.client.completeJson<Review>(
      {
        role: 'vlm',
        messages: [
          { role: 'system', content: fillOwnPrompt(reviewTemplate, { experiment: (args.experiment_context ?? '').trim().slice(0, MAX_CONTEXT_CHARS) || '(not given)' }) },
          { role: 'user', content },
        ],
        meta: { phase: 'paper', skill: 'vlm-skill', component: 'figures', op: 'figure_review' },
        signal: ctx.signal,
      },
      reviewCheck,
      { retries: 1 },
    );
    const listed = (items: string[]) => items.map((s) => s.trim()).filter(Boolean);
    return { reviewed: true, score: review.score, issues: listed(review.issues), suggestions: listed(review.suggestions), model: vision.model, figures };
  },
});

/** The PNG of a figure, from inside the manifest's directory (a manifest cannot send other files to the model). */
export function readPng(dir: string, f: FigureEntry): Uint8Array {
  return pngFile(resolveInside(dir, f.png, `the PNG of ${f.label}`), `the PNG of ${f.label}`, 'make the figures again (generate_figures)');
}

/** A PNG file's bytes: it must exist, be a PNG and be no larger than a figure may be. */
export function pngFile(path: string, what: string, fix: string): Uint8Array {
  const st = statOrNull(path);
  if (!st?.isFile()) throw new NotFoundError(`${what} is missing: no file ${path}`, fix);
  if (st.size > MAX_PNG_BYTES) throw new TooLargeError(`${what} has ${st.size} bytes, more than the ${MAX_PNG_BYTES} a figure may have`);
  const bytes = new Uint8Array(readFileSync(path));
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) throw new InputError(`${what} (${path}) is not a PNG file`, fix);
  return bytes;
}

export function reviewCheck(v: unknown): string | null {
  if (!isMapping(v)) return 'the answer must be a JSON object {score, issues, suggestions}';
  if (typeof v.score !== 'number' || !(v.score >= 0 && v.score <= 1)) return 'score must be a number from 0 to 1';
  for (const key of ['issues', 'suggestions']) {
    const list = v[key];
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) return `${key} must be a list of strings`;
  }
  return null;
}
