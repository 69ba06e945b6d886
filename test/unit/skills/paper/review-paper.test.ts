import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oneLine } from '../../../../src/core/errors.ts';
import { bundledRubrics } from '../../../../src/paper/rubrics.ts';
import type { Rubric } from '../../../../src/schema/rubric.ts';
import { BUNDLED_RUBRIC_TEXTS } from '../../../../src/paper/rubrics/bundled.ts';
import { compilePaperTool } from '../../../../src/skills/paper/compile-paper.ts';
import { listRubricsTool, reviewCompiledPaperTool } from '../../../../src/skills/paper/review.ts';
import { lacks } from '../../../support/components.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { writePaper } from '../../../support/paper.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { metaReviewReply, paperReflectionReply, reviewForm } from '../../../support/scripted-review.ts';
import { type OpenAIChatRequest, promptName, textOfRoles } from '../../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';
import { rejection } from '../../llm/helpers.ts';

// the reviewer of the compiled paper: a real PDF read by pdftotext, the scripted model server
const skip = lacks('latex') || lacks('pdftools');
let dir: string;
let ckpt: string;
let server: ModelServer;
const sha256 = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest('hex');

beforeAll(async () => {
  dir = tempDir();
  ckpt = join(dir, 'ckpt');
  mkdirSync(join(dir, 'project'), { recursive: true });
  if (skip) return;
  writePaper(join(ckpt, 'paper'), 'arxiv', { body: '\\section{Results}\nShell sort with a geometric gap ratio needs fewer comparisons than insertion sort on a pseudo-random array.\n' });
  await callTool(compilePaperTool, { tex_dir: 'paper' }, { PATH: process.env.PATH, HOME: dir, SVC_CHECKPOINT_DIR: ckpt });
}, 180_000);
afterAll(() => removeDir(dir));
beforeEach(() => {
  server?.stop();
  server = startModelServer([], { respond: (b) => researcherReply(b as OpenAIChatRequest) });
  rmSync(join(ckpt, 'review_report.json'), { force: true });
});

const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: dir,
  SVC_ROOT: join(dir, 'project'),
  SVC_CHECKPOINT_DIR: ckpt,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-reviewer',
  SVC_LLM_MAX_RETRIES: '0',
  ...more,
});
const review = (args: Record<string, unknown>, more?: Record<string, string>) => callTool(reviewCompiledPaperTool, { pdf_path: 'paper/main.pdf', experiment_summary: 'Shell sort gap ratios.', ...args }, env(more));
const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as OpenAIChatRequest);
const stored = () => JSON.parse(readFileSync(join(ckpt, 'review_report.json'), 'utf8'));

describe.skipIf(skip)('review_compiled_paper', () => {
  test.each(bundledRubrics().map((r) => r.id))('rubric %s: a report in its own dimensions, text sections and decision rule', async (id) => {
    const rubric = bundledRubrics().find((r) => r.id === id)?.rubric as Rubric | undefined;
    if (!rubric) throw new Error(id);
    const r = await review({ rubric_id: id });
    const names = rubric.score_dimensions.map((d) => d.name);
    expect(Object.keys(r.scores)).toEqual(names);
    expect(r.score_dimensions.map((d: { name: string; scale: number[] }) => [d.name, d.scale])).toEqual(rubric.score_dimensions.map((d) => [d.name, d.scale]));
    for (const d of rubric.score_dimensions) expect(r.scores[d.name]).toBe(Math.round(d.scale[0] + 0.75 * (d.scale[1] - d.scale[0])));
    for (const s of rubric.text_sections) expect(typeof r[s.name]).toBe('string');
    expect(r).toMatchObject({ rubric_id: id, rubric_hash: sha256(BUNDLED_RUBRIC_TEXTS.get(id) ?? ''), rubric_version: rubric.version, venue: rubric.venue, n: 1, temperature: 0.75, fewshot_mode: 'static', reflections: 1 });
    const threshold = r.scores[rubric.decision.threshold_dimension];
    expect(r.overall_score).toBe(threshold);
    expect(r.score).toBe(threshold);
    expect(r.decision).toBe(threshold >= rubric.decision.threshold_value ? rubric.decision.options[0] : expect.any(String));
    expect(rubric.decision.options).toContain(r.decision);
    expect(r.pdf_text_snippet).toContain('Shell sort');
    // the corpus has examples of neurips and iclr; one is shown (static: the first by id)
    expect(r.fewshot_sources).toEqual(id === 'neurips' ? [{ id: 'attention_is_all_you_need', source: 'svc corpus' }] : id === 'iclr' ? [{ id: 'vision_transformer', source: 'svc corpus' }] : []);
    expect(stored()).toEqual(r);
    // a review, then one reflection that is done; both at the rubric's temperature
    expect(chats().map(promptName)).toEqual(['paper/reviewer', 'paper/reviewer_reflection']);
    expect(chats().map((b) => b.temperature)).toEqual([0.75, 0.75]);
  });

  test('an ensemble of 3: three reviews at once, then an area chair; the scores are their mean', async () => {
    server.stop();
    // every answer waits, so reviews made one after another would interleave with their reflections
    server = startModelServer([], { respond: (b) => ({ ...researcherReply(b as OpenAIChatRequest), delayMs: 100 }) });
    const r = await review({ rubric_id: 'neurips', num_reviews_ensemble: 3 });
    const names = chats().map(promptName);
    expect(names.slice(0, 3)).toEqual(['paper/reviewer', 'paper/reviewer', 'paper/reviewer']);
    // the area chair is asked beside the reflections, once: they left every review as it was
    expect(names.slice(3).sort()).toEqual(['paper/meta_review', 'paper/reviewer_reflection', 'paper/reviewer_reflection', 'paper/reviewer_reflection']);
    expect(r.n).toBe(3);
    expect(r.ensemble_reviews.map((e: { reviewer: number }) => e.reviewer)).toEqual([1, 2, 3]);
    // the scripted reviewers score at 3/4, 1/2 and the top of each scale
    expect(r.ensemble_reviews.map((e: { scores: Record<string, number> }) => e.scores.overall)).toEqual([8, 6, 10]);
    expect(r.scores.overall).toBe(8);
    expect(r.scores.originality).toBe(Math.round(((3 + 3 + 4) / 3) * 100) / 100);
    expect(r.meta_review).toMatchObject({ source_review_count: 3, scores: { overall: 8 } });
    expect(r.decision).toBe('accept');
    expect(textOfRoles(chats().find((b) => promptName(b) === 'paper/meta_review') as OpenAIChatRequest, ['system'])).toContain('### Reviewer 3');
  });

  test('an ensemble of 5: the five reviews are in flight at once, and the meta review is asked while their reflections are', async () => {
    const calls = tally();
    let reflectionsAnsweredAtMeta = -1;
    server.stop();
    server = startModelServer([], {
      respond: async (b) => {
        const body = b as OpenAIChatRequest;
        const name = calls.arrive(body);
        if (name === 'paper/meta_review' && reflectionsAnsweredAtMeta < 0) reflectionsAnsweredAtMeta = calls.answered('paper/reviewer_reflection');
        // each answer waits for the calls it should overlap: reviews made one after another would wait out the limit
        if (name === 'paper/reviewer') await until(() => calls.most('paper/reviewer') === 5);
        if (name === 'paper/reviewer_reflection') await until(() => reflectionsAnsweredAtMeta >= 0);
        return calls.answer(name, researcherReply(body));
      },
    });
    const r = await review({ rubric_id: 'neurips', num_reviews_ensemble: 5, num_reflections: 2 });
    expect(calls.most('paper/reviewer')).toBe(5);
    expect(reflectionsAnsweredAtMeta).toBe(0);
    expect(chats().map(promptName).filter((n) => n === 'paper/meta_review')).toHaveLength(1);
    expect(r).toMatchObject({ n: 5, meta_review: { source_review_count: 5 } });
    expect(r.ensemble_reviews.map((e: { reflections: number }) => e.reflections)).toEqual([1, 1, 1, 1, 1]);
  });

  test('a reflection that changes a review: the meta review asked early is dropped, and the area chair reviews the final reviews', async () => {
    const calls = tally();
    server.stop();
    server = startModelServer([], {
      respond: async (b) => {
        const body = b as OpenAIChatRequest;
        const name = calls.arrive(body);
        if (name === 'paper/reviewer_reflection') {
          await until(() => calls.arrived('paper/meta_review') > 0);
          // reviewer 2 lowers its overall score on reflection
          const revised = reviewForm(body).reviewer === 2 ? { overall: 2 } : {};
          return calls.answer(name, { text: JSON.stringify({ ...JSON.parse(paperReflectionReply(body)), ...revised }) });
        }
        // the area chair asked first scores 3, asked again 9
        if (name === 'paper/meta_review') return calls.answer(name, { text: JSON.stringify({ ...JSON.parse(metaReviewReply(body)), overall: calls.arrived(name) === 1 ? 3 : 9 }) });
        return calls.answer(name, researcherReply(body));
      },
    });
    const r = await review({ rubric_id: 'neurips', num_reviews_ensemble: 3, num_reflections: 1 });
    const metas = chats().filter((b) => promptName(b) === 'paper/meta_review');
    expect(metas).toHaveLength(2);
    expect(textOfRoles(metas[0] as OpenAIChatRequest, ['system'])).not.toBe(textOfRoles(metas[1] as OpenAIChatRequest, ['system']));
    expect(r.ensemble_reviews.map((e: { scores: Record<string, number> }) => e.scores.overall)).toEqual([8, 2, 10]);
    expect(r.meta_review.scores.overall).toBe(9);
    expect(r.scores.overall).toBe(Math.round(((8 + 2 + 10) / 3) * 100) / 100);
  });

  test('reflection rounds: at most num_reflections, ended early when the reviewer is done', async () => {
    server.push({ text: JSON.stringify(answer({ overall: 5 })) }, { text: JSON.stringify({ ...answer({ overall: 6 }), done: false }) }, { text: JSON.stringify({ ...answer({ overall: 7 }), done: false }) });
    const r = await review({ rubric_id: 'neurips', num_reflections: 2, num_fs_examples: 0 });
    expect(r).toMatchObject({ reflections: 2, overall_score: 7, decision: 'accept', fewshot_sources: [] });
    expect(chats().length).toBe(3);
    expect(textOfRoles(chats()[2] as OpenAIChatRequest, ['system'])).toContain('reflection round 2 of 2');
  });

  test('an answer that is not JSON is asked once more with the parse error; twice is the tool error and no report', async () => {
    server.push({ text: 'This paper is fine, I think.' });
    const r = await review({ rubric_id: 'neurips', num_reflections: 0 });
    expect(r.overall_score).toBe(8);
    const second = chats()[1] as OpenAIChatRequest;
    expect(textOfRoles(second, ['user'])).toContain('Your answer was not valid JSON');
    expect(chats().length).toBe(2);

    rmSync(join(ckpt, 'review_report.json'));
    server.push({ text: 'no JSON here' }, { text: 'nor here' });
    const err = await rejection(review({ rubric_id: 'neurips', num_reflections: 0 }));
    expect(oneLine(err)).toStartWith('the reviewer gave no usable review (review_compiled_paper): the paper model scripted-reviewer gave no acceptable JSON in 2 attempts: the last answer was not valid JSON');
    expect(oneLine(err).split('\n').length).toBe(1);
    expect(existsSync(join(ckpt, 'review_report.json'))).toBe(false);
  });

  test('scores out of their scales are clamped, and said so', async () => {
    server.push({ text: JSON.stringify(answer({ overall: 42, originality: -3 })) });
    const r = await review({ rubric_id: 'neurips', num_reflections: 0 });
    expect(r.scores).toMatchObject({ overall: 10, originality: 1 });
    expect(r.overall_score).toBe(10);
    expect(r.clamped_scores).toEqual([
      { reviewer: 1, dimension: 'originality', given: -3, kept: 1 },
      { reviewer: 1, dimension: 'overall', given: 42, kept: 10 },
    ]);
  });

  test('a categorical rubric decides by its rule: bands below the threshold', async () => {
    const scores = [5, 4, 3.5, 3, 2, 1];
    const decisions = [];
    for (const overall of scores) {
      server.push({ text: JSON.stringify(answer({ overall }, 'nature')) });
      decisions.push((await review({ rubric_id: 'nature', num_reflections: 0 })).decision);
    }
    expect(decisions).toEqual(['accept', 'accept', 'minor_revision', 'minor_revision', 'major_revision', 'reject']);
  });

  test('few-shot examples: static takes the first by id, dynamic (argument or SVC_FEWSHOT_MODE) the closest to the paper', async () => {
    const examples = join(dir, 'project', 'reviewer_rubrics', 'fewshot_examples', 'neurips');
    mkdirSync(examples, { recursive: true });
    writeFileSync(join(examples, 'shell_sort_gaps.json'), JSON.stringify({ _source: 'rubric:neurips', overall: 5, summary: 'Shell sort gap ratio comparisons against insertion sort on a pseudo-random array.' }));
    writeFileSync(join(examples, 'shell_sort_gaps.txt'), 'Shell sort with a geometric gap ratio needs fewer comparisons than insertion sort.');
    try {
      expect((await review({ rubric_id: 'neurips', num_reflections: 0 })).fewshot_sources).toEqual([{ id: 'attention_is_all_you_need', source: 'svc corpus' }]);
      expect((await review({ rubric_id: 'neurips', num_reflections: 0, fewshot_mode: 'dynamic' })).fewshot_sources).toEqual([{ id: 'shell_sort_gaps', source: 'rubric:neurips' }]);
      const viaEnv = await review({ rubric_id: 'neurips', num_reflections: 0, num_fs_examples: 2 }, { SVC_FEWSHOT_MODE: 'dynamic' });
      expect(viaEnv.fewshot_sources.map((s: { id: string }) => s.id)).toEqual(['shell_sort_gaps', expect.any(String)]);
      expect(viaEnv.fewshot_mode).toBe('dynamic');
      expect(textOfRoles(chats().at(-1) as OpenAIChatRequest, ['system'])).toContain('geometric gap ratio needs fewer comparisons');
    } finally {
      removeDir(join(dir, 'project', 'reviewer_rubrics'));
    }
  });

  test('SVC_RUBRIC and SVC_NUM_REVIEWS_ENSEMBLE apply when the arguments are not given', async () => {
    const r = await review({ num_reflections: 0 }, { SVC_RUBRIC: 'workshop', SVC_NUM_REVIEWS_ENSEMBLE: '2' });
    expect(r).toMatchObject({ rubric_id: 'workshop', n: 2 });
    expect(r.meta_review.source_review_count).toBe(2);
  });

  test("a rubric of the project's rubric directory: its own dimensions, its file's hash; an unknown SVC_RUBRIC falls back to neurips with a warning", async () => {
    const rubrics = join(dir, 'project', 'reviewer_rubrics');
    mkdirSync(rubrics, { recursive: true });
    const yaml = 'score_dimensions:\n  - { name: rigour, scale: [0, 3] }\n  - { name: overall, scale: [0, 3] }\ntext_sections:\n  - { name: comments, required: true }\n';
    writeFileSync(join(rubrics, 'mini.yaml'), yaml);
    try {
      const r = await review({ rubric_id: 'mini', num_reflections: 0 });
      expect(r).toMatchObject({ rubric_id: 'mini', rubric_hash: sha256(yaml), rubric_source: join(rubrics, 'mini.yaml'), scores: { rigour: 2, overall: 2 }, overall_score: 2, decision: null, fewshot_sources: [] });
      expect(typeof r.comments).toBe('string');
      const fallback = await review({ num_reflections: 0 }, { SVC_RUBRIC: 'nope' });
      expect(fallback).toMatchObject({ rubric_id: 'neurips', warnings: ["SVC_RUBRIC names 'nope', which is not a known rubric; using neurips"] });
    } finally {
      removeDir(rubrics);
    }
  });

  test('bad input is one line naming the fix, before any model call', async () => {
    const msg = async (args: Record<string, unknown>, more?: Record<string, string>) => oneLine(await rejection(review(args, more)));
    expect(await msg({ pdf_path: 'paper/none.pdf' })).toBe(`no compiled paper at ${join(ckpt, 'paper', 'none.pdf')} (compile the paper first (compile_paper, or the write_paper stage))`);
    expect(await msg({ rubric_id: 'icse' })).toStartWith("unknown rubric 'icse' (add reviewer_rubrics/icse.yaml or use one of: acl, chi, cvpr,");
    expect(await msg({ num_reviews_ensemble: 0 })).toBe('num_reviews_ensemble must be a whole number from 1 to 20, got 0 (give num_reviews_ensemble from 1 to 20)');
    expect(await msg({ num_reflections: 21 })).toBe('num_reflections must be a whole number from 0 to 20, got 21 (give num_reflections from 0 to 20)');
    expect(await msg({}, { SVC_NUM_REFLECTIONS: 'many' })).toBe("num_reflections from env SVC_NUM_REFLECTIONS must be a positive whole number, got 'many'");
    expect(await msg({}, { SVC_NUM_REVIEWS_ENSEMBLE: '50' })).toBe('num_reviews_ensemble from env SVC_NUM_REVIEWS_ENSEMBLE must be a whole number from 1 to 20, got 50 (give num_reviews_ensemble from 1 to 20)');
    expect(await msg({}, { SVC_FEWSHOT_MODE: 'random' })).toStartWith('fewshot_mode from env SVC_FEWSHOT_MODE must be ');
    expect(await msg({ fewshot_mode: 'random' })).toBe("fewshot_mode must be static or dynamic, got 'random' (give static or dynamic)");
    expect(await msg({ pdf_path: undefined })).toBe('no paper to review: neither pdf_path nor tex_path is given (give pdf_path, the compiled paper)');
    expect(await msg({ figures_manifest_json: 'figures/none.json' })).toBe(`figures_manifest_json '${join(ckpt, 'figures', 'none.json')}' does not exist (make the figures first (generate_figures), or leave it out)`);
    expect(await msg({ num_reflections: 'five' })).toContain("argument 'num_reflections'");
    expect(await msg({}, { SVC_MODEL: '', LLM_API_BASE: '' })).toStartWith('a paper cannot be reviewed without a model: ');
    expect(chats().length).toBe(0);
    expect(existsSync(join(ckpt, 'review_report.json'))).toBe(false);
  });

  test('tex_path alone: the PDF beside it; the captions of figures_manifest.json go to the reviewer', async () => {
    const r = await review({ pdf_path: undefined, tex_path: 'paper/main.tex', num_reflections: 0 });
    expect(r).toMatchObject({ rubric_id: 'neurips', captions_found: 0 });
    const figure = { file: 'f.pdf', png: 'f.png', kind: 'metric_bar', caption: 'Comparisons of every configuration.', caption_source: 'data', label: 'fig:metric', source: {} };
    writeFileSync(join(ckpt, 'figures_manifest.json'), JSON.stringify({ figures: [figure], latex_snippets: [''], notes: [] }));
    const withFigures = await review({ figures_manifest_json: 'figures_manifest.json', vlm_findings_json: '{"score": 0.9, "issues": ["axis label small"]}', num_reflections: 0 });
    expect(withFigures.captions_found).toBe(1);
    const prompt = textOfRoles(chats().at(-1) as OpenAIChatRequest, ['system']);
    expect(prompt).toContain('- fig:metric: Comparisons of every configuration.');
    expect(prompt).toContain('axis label small');
  });
});

describe('list_rubrics', () => {
  test('the 16 bundled rubrics with their scales; the default is SVC_RUBRIC, else neurips', async () => {
    const out = await callTool(listRubricsTool, {}, { HOME: dir, SVC_ROOT: join(dir, 'project') });
    expect(out.rubrics.map((r: { id: string }) => r.id)).toEqual(['neurips', 'iclr', 'icml', 'cvpr', 'acl', 'sc', 'osdi', 'usenix_security', 'stoc', 'siggraph', 'chi', 'icra', 'nature', 'journal_generic', 'workshop', 'generic_conference']);
    expect(out.default).toBe('neurips');
    expect(out.rubrics[0]).toMatchObject({ id: 'neurips', scales: { overall: [1, 10] }, decision_options: ['accept', 'reject'] });
    expect((await callTool(listRubricsTool, {}, { HOME: dir, SVC_ROOT: join(dir, 'project'), SVC_RUBRIC: 'sc' })).default).toBe('sc');
    const unknown = await callTool(listRubricsTool, {}, { HOME: dir, SVC_ROOT: join(dir, 'project'), SVC_RUBRIC: 'nope' });
    expect(unknown).toMatchObject({ default: 'neurips', warning: "SVC_RUBRIC names 'nope', which is not a known rubric; using neurips" });
  });
});

/** A complete neurips-form (or nature-form) answer with these scores. */
function answer(scores: Record<string, number>, rubric = 'neurips'): Record<string, unknown> {
  const r = bundledRubrics().find((x) => x.id === rubric)?.rubric as Rubric | undefined;
  if (!r) throw new Error(rubric);
  const out: Record<string, unknown> = {};
  for (const d of r.score_dimensions) out[d.name] = d.scale[0];
  for (const s of r.text_sections) out[s.name] = `the ${s.name}`;
  return { ...out, ...scores, decision: r.decision.options[0] };
}



/** Waits until `ready()` holds, at most 3 s (under the test timeout): a call that should overlap others but does not fails its test instead of hanging it. */
async function until(ready: () => boolean): Promise<void> {
  const end = Date.now() + 3000;
  while (!ready() && Date.now() < end) await Bun.sleep(5);
}

/** Counts of the model server's chat calls by prompt: arrived, answered, and the most in flight at once. */
function tally() {
  const arrived: Record<string, number> = {};
  const answered: Record<string, number> = {};
  const most: Record<string, number> = {};
  const count = (m: Record<string, number>, k: string) => m[k] ?? 0;
  return {
    arrive(body: OpenAIChatRequest): string {
      const name = promptName(body) ?? '';
      arrived[name] = count(arrived, name) + 1;
      most[name] = Math.max(count(most, name), count(arrived, name) - count(answered, name));
      return name;
    },
    answer<T>(name: string, reply: T): T {
      answered[name] = count(answered, name) + 1;
      return reply;
    },
    arrived: (name: string) => count(arrived, name),
    answered: (name: string) => count(answered, name),
    most: (name: string) => count(most, name),
  };
}
