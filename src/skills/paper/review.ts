import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { InputError, NotFoundError, oneLine } from '../../core/errors.ts';
import { type Config, resolveSetting } from '../../core/config/config.ts';
import { setting, type SettingValue } from '../../core/config/settings.ts';
import { isFileAt } from '../../core/paths.ts';
import { createModelClient } from '../../llm/client.ts';
import { defineTool, type ToolContext, toolParams } from '../../mcp/tool.ts';
import { readFiguresManifest } from '../../paper/figures-manifest.ts';
import { pdfText } from '../../paper/pdf-text.ts';
import { reviewPaper } from '../../paper/review.ts';
import { chooseExamples, type FewshotMode, rubricExamples } from '../../paper/review-fewshot.ts';
import { defaultRubric, loadRubricCatalog, rubricHash, rubricSummary, usableRubric } from '../../paper/rubrics.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { skillConfig } from '../skill-config.ts';

export const REVIEW_REPORT = 'review_report.json';
const MAX_FINDINGS_CHARS = 4000;

/**
 * A review setting: the argument, else the one resolver (the saved settings, the environment) and,
 * where neither gives one, the rubric's parameter before the built-in default.
 */
function reviewSetting(cfg: Config, key: string, explicit: SettingValue | undefined, param: SettingValue | undefined): { value: SettingValue; from: string } {
  if (explicit !== undefined) return { value: explicit, from: key };
  const s = setting(key);
  if (!s) throw new Error(`no setting ${key}`);
  const r = resolveSetting(cfg, s);
  if (r.origin === 'default' && param !== undefined) return { value: param, from: `${key} of the rubric` };
  return { value: r.value, from: `${key} from ${r.source}` };
}

/** A whole number in [min, max]; out of range is one line naming where it came from. */
function countIn(what: string, got: { value: SettingValue; from: string }, min: number, max: number): number {
  const v = got.value;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new InputError(`${got.from} must be a whole number from ${min} to ${max}, got ${String(v)}`, `give ${what} from ${min} to ${max}`);
  return v;
}

function fewshotMode(cfg: Config, arg: string | undefined, param: string | undefined): FewshotMode {
  const got = reviewSetting(cfg, 'fewshot_mode', arg?.trim() || undefined, param);
  if (got.value !== 'static' && got.value !== 'dynamic') throw new InputError(`${got.from} must be static or dynamic, got '${String(got.value)}'`, 'give static or dynamic');
  return got.value;
}

/** The figure captions: the manifest's when given, else the \caption{...} lines of the LaTeX. */
function captionsOf(manifest: string | null, tex: string | null): { label: string; caption: string }[] {
  if (manifest) {
    if (!isFileAt(manifest)) throw new NotFoundError(`figures_manifest_json '${manifest}' does not exist`, 'make the figures first (generate_figures), or leave it out');
    return readFiguresManifest(manifest).figures.map((f) => ({ label: f.label, caption: f.caption }));
  }
  if (!tex || !isFileAt(tex)) return [];
  const latex = readFileSync(tex, 'utf8');
  return [...latex.matchAll(/\\caption\{((?:[^{}]|\{[^{}]*\})*)\}/g)].map((m, i) => ({ label: `figure ${i + 1}`, caption: (m[1] ?? '').trim() }));
}

/** The figure review's findings: JSON text as given, or the file it names. */
function findingsOf(given: string | undefined, ctx: ToolContext): string {
  const s = given?.trim();
  if (!s) return '';
  let text = s;
  if (!s.startsWith('{') && !s.startsWith('[')) {
    const path = checkpointPath(s, 'vlm_findings_json', ctx.env);
    if (!isFileAt(path)) throw new NotFoundError(`vlm_findings_json '${path}' does not exist`, 'give the figure review (vlm_review.json), or leave it out');
    text = readFileSync(path, 'utf8');
  }
  try {
    return JSON.stringify(JSON.parse(text)).slice(0, MAX_FINDINGS_CHARS);
  } catch (err) {
    throw new InputError(`vlm_findings_json is not JSON: ${oneLine(err)}`, 'give the figure review as a JSON file or text');
  }
}

const COUNT = (text: string) => T.Optional(T.Integer({ description: text }));

export const reviewCompiledPaperTool = defineTool({
  name: 'review_compiled_paper',
  description:
    "Review the compiled paper as a venue's reviewer would, with the paper model: the text of the PDF (pdftotext), the figure captions of figures_manifest.json (else the LaTeX's), the experiment and the figure review, " +
    'scored on the rubric\'s dimensions (rubric_id, else SVC_RUBRIC, else neurips; see list_rubrics) with its text sections, after num_fs_examples few-shot reviews of the rubric (fewshot_mode static, or dynamic: those closest to the paper by word overlap). ' +
    'Each review is reflected on up to num_reflections times (default 5; it ends when the reviewer is done); num_reviews_ensemble reviewers (default 1) review at once, and with more than one an area chair writes a meta review; temperature 0.75. ' +
    'Scores are clamped to their scales; the overall score and decision follow the rubric\'s rule on the scores (an ensemble\'s mean). Writes review_report.json in the checkpoint and returns it: ' +
    '{rubric_id, rubric_hash, scores, score_dimensions, decision, overall_score, score, the text sections, fewshot_sources, ensemble_reviews and meta_review with an ensemble, ...}.',
  params: toolParams({
    tex_path: T.Optional(T.String({ description: 'the paper\'s LaTeX; its .pdf is the paper when pdf_path is not given' })),
    pdf_path: T.Optional(T.String({ description: 'the compiled paper: absolute, or relative to the checkpoint' })),
    figures_manifest_json: T.Optional(T.String({ description: 'figures_manifest.json, for the captions' })),
    experiment_summary: T.Optional(T.String({ description: 'what the experiment did and found' })),
    rubric_id: T.Optional(T.String({ description: 'reviewer rubric (list_rubrics); default SVC_RUBRIC, else neurips' })),
    vlm_findings_json: T.Optional(T.String({ description: 'the figure review (vlm_review.json, or its JSON text)' })),
    num_reflections: COUNT('reflection rounds per review, 0 to 20; default SVC_NUM_REFLECTIONS, else the rubric\'s (5)'),
    num_fs_examples: COUNT('few-shot reviews shown, 0 to 20; default the rubric\'s (1)'),
    num_reviews_ensemble: COUNT('independent reviews, 1 to 20; default SVC_NUM_REVIEWS_ENSEMBLE, else the rubric\'s (1)'),
    fewshot_mode: T.Optional(T.String({ description: 'static or dynamic; default SVC_FEWSHOT_MODE, else the rubric\'s (static)' })),
  }),
  timeoutS: 3600,
  run: async (args, ctx) => {
    const cfg = skillConfig(ctx.env);
    const catalog = loadRubricCatalog(cfg.projectRoot);
    // an unknown rubric asked for by name is an error; one from the settings falls back to neurips with a warning
    const chosen = args.rubric_id !== undefined ? { id: args.rubric_id } : defaultRubric(catalog, String(reviewSetting(cfg, 'rubric', undefined, undefined).value));
    const rubric = usableRubric(catalog, chosen.id);
    const params = rubric.rubric.params ?? {};
    const numReflections = countIn('num_reflections', reviewSetting(cfg, 'num_reflections', args.num_reflections, params.num_reflections), 0, 20);
    const numExamples = countIn('num_fs_examples', { value: args.num_fs_examples ?? params.num_fs_examples ?? 1, from: args.num_fs_examples === undefined ? 'num_fs_examples of the rubric' : 'num_fs_examples' }, 0, 20);
    const numReviews = countIn('num_reviews_ensemble', reviewSetting(cfg, 'num_reviews_ensemble', args.num_reviews_ensemble, params.num_reviews_ensemble), 1, 20);
    const mode = fewshotMode(cfg, args.fewshot_mode, params.fewshot_mode);

    const tex = args.tex_path?.trim() ? checkpointPath(args.tex_path, 'tex_path', ctx.env) : null;
    const pdf = args.pdf_path?.trim() ? checkpointPath(args.pdf_path, 'pdf_path', ctx.env) : tex ? tex.replace(/\.tex$/, '') + '.pdf' : null;
    if (!pdf) throw new InputError('no paper to review: neither pdf_path nor tex_path is given', 'give pdf_path, the compiled paper');
    if (!isFileAt(pdf)) throw new NotFoundError(`no compiled paper at ${pdf}`, 'compile the paper first (compile_paper, or the write_paper stage)');
    const manifest = args.figures_manifest_json?.trim() ? checkpointPath(args.figures_manifest_json, 'figures_manifest_json', ctx.env) : null;
    const captions = captionsOf(manifest, tex);
    const figureFindings = findingsOf(args.vlm_findings_json, ctx);

    const client = createModelClient({ cfg });
    const why = client.unavailable('paper');
    if (why) throw new InputError(`a paper cannot be reviewed without a model: ${why}`, 'set SVC_MODEL_PAPER, SVC_MODEL or the workflow llm block');
    const paper = await pdfText({ path: pdf }, `the paper ${pdf}`, ctx.env);
    if (paper.text.trim() === '') throw new InputError(`the paper ${pdf} has no text pdftotext can read`, 'compile it from LaTeX (compile_paper): a scanned PDF cannot be reviewed');
    const fewshot = chooseExamples(rubricExamples(cfg.projectRoot, rubric.id).examples, numExamples, mode, paper.text);

    const report = await reviewPaper({
      client,
      rubric,
      rubricHash: rubricHash(rubric),
      paper,
      captions,
      experiment: args.experiment_summary ?? '',
      figureFindings,
      fewshot,
      fewshotMode: mode,
      numReflections,
      numReviews,
      temperature: params.temperature ?? 0.75,
      signal: ctx.signal,
    });
    const out = { ...report, ...(chosen.warning ? { warnings: [chosen.warning] } : {}) };
    writeJsonAtomic(join(ctx.env.SVC_CHECKPOINT_DIR || dirname(pdf), REVIEW_REPORT), out);
    return out;
  },
});

export const listRubricsTool = defineTool({
  name: 'list_rubrics',
  description:
    "The reviewer rubrics review_compiled_paper can use: the 16 bundled ones (neurips, iclr, icml, cvpr, acl, sc, osdi, usenix_security, stoc, siggraph, chi, icra, nature, journal_generic, workshop, generic_conference) and the project's reviewer_rubrics/<id>.yaml. " +
    'Returns {rubrics: [{id, venue, domain, version, source, dimensions, scales, text_sections, decision_options}], default (SVC_RUBRIC, else neurips), warning?, problems (rubric files that cannot be used)}.',
  params: toolParams({}),
  run: (_args, ctx) => {
    const cfg = skillConfig(ctx.env);
    const catalog = loadRubricCatalog(cfg.projectRoot);
    const chosen = defaultRubric(catalog, String(reviewSetting(cfg, 'rubric', undefined, undefined).value));
    return {
      rubrics: catalog.rubrics.map((r) => ({
        ...rubricSummary(r),
        scales: Object.fromEntries(r.rubric.score_dimensions.map((d) => [d.name, d.scale])),
        text_sections: (r.rubric.text_sections ?? []).map((s) => s.name),
        decision_options: r.rubric.decision?.options ?? null,
      })),
      default: chosen.id,
      ...(chosen.warning ? { warning: chosen.warning } : {}),
      problems: catalog.problems,
    };
  },
});
