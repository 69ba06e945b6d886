import metaTemplate from '../prompts/paper/meta_review.md' with { type: 'text' };
import reflectionTemplate from '../prompts/paper/reviewer_reflection.md' with { type: 'text' };
import reviewerTemplate from '../prompts/paper/reviewer.md' with { type: 'text' };
import { oneLine, SvcError } from '../core/errors.ts';
import type { CompletionRequest, ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import { decide, formBlocks, meanScores, type NormalizedReview, normalizeReview, overallDimension, reviewCheck } from './review-form.ts';
import { examplesBlock, type FewshotMode, type ReviewExample } from './review-fewshot.ts';
import type { LoadedRubric } from './rubrics.ts';

const MAX_PAPER_CHARS = 60_000;
const MAX_EXPERIMENT_CHARS = 6000;
const SNIPPET_CHARS = 500;

export type ReviewJob = {
  client: Pick<ModelClient, 'completeJson'>;
  rubric: LoadedRubric;
  rubricHash: string;
  paper: { text: string; pages: number };
  captions: { label: string; caption: string }[];
  experiment: string;
  figureFindings: string;
  fewshot: ReviewExample[];
  fewshotMode: FewshotMode;
  numReflections: number;
  numReviews: number;
  temperature: number;
  signal?: AbortSignal;
};

/** One reviewer's review with the reflection rounds it took. */
type ReviewerResult = NormalizedReview & { reviewer: number; reflections: number };

/** A model call for one reviewer's JSON; a bad answer is asked once more with what was wrong, then this tool's error. */
async function ask(job: ReviewJob, system: string, op: string, extraCheck?: (v: Record<string, unknown>) => string | null): Promise<Record<string, unknown>> {
  const check = reviewCheck(job.rubric.rubric);
  const req: CompletionRequest = {
    role: 'paper',
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'Answer with the JSON object only.' },
    ],
    temperature: job.temperature,
    meta: { phase: 'paper', skill: 'paper-skill', component: 'reviewer', op },
    ...(job.signal ? { signal: job.signal } : {}),
  };
  try {
    return await job.client.completeJson<Record<string, unknown>>(req, (v) => check(v) ?? (extraCheck ? extraCheck(v as Record<string, unknown>) : null), { retries: 1 });
  } catch (err) {
    if (job.signal?.aborted) throw err;
    throw new SvcError(`the reviewer gave no usable review (${op}): ${oneLine(err)}`, 'try another paper model (SVC_MODEL_PAPER), or fewer reflection rounds');
  }
}

function shared(job: ReviewJob) {
  const r = job.rubric.rubric;
  return {
    venue: r.venue ?? job.rubric.id,
    rubric_id: job.rubric.id,
    reviewers: job.numReviews,
    experiment: job.experiment.trim().slice(0, MAX_EXPERIMENT_CHARS) || '(not given)',
    captions: job.captions.length ? job.captions.map((c) => `- ${c.label}: ${c.caption}`).join('\n') : '(no figure captions)',
    figure_findings: job.figureFindings.trim() || '(none)',
    paper: job.paper.text.slice(0, MAX_PAPER_CHARS),
    pages: job.paper.pages,
  };
}

/** What the reviewer said, as the reflection prompt shows it back. */
function shownReview(r: NormalizedReview): string {
  return JSON.stringify({ ...r.scores, ...r.text, ...r.lists, ...(r.reviewer_decision ? { decision: r.reviewer_decision } : {}) }, null, 1);
}

/**
 * One reviewer: a review, then reflection rounds until the reviewer says it is done or the rounds
 * are spent. `first` hears of the first review before the reflection rounds start.
 */
async function oneReview(job: ReviewJob, reviewer: number, first?: (r: ReviewerResult) => void): Promise<ReviewerResult> {
  const form = formBlocks(job.rubric.rubric);
  const base = { ...shared(job), ...form, reviewer };
  const system = fillOwnPrompt(reviewerTemplate, { ...base, rubric_description: job.rubric.rubric.description?.trim() ?? '', fewshot: examplesBlock(job.fewshot) }, 'paper/reviewer');
  let review = normalizeReview(job.rubric.rubric, await ask(job, system, 'review_compiled_paper'));
  first?.({ ...review, reviewer, reflections: 0 });
  let reflections = 0;
  const doneForm = formBlocks(job.rubric.rubric, { done: '<true | false>' });
  for (let round = 1; round <= job.numReflections; round++) {
    const prompt = fillOwnPrompt(reflectionTemplate, { ...base, answer_format: doneForm.answer_format, round, rounds: job.numReflections, previous: shownReview(review) }, 'paper/reviewer_reflection');
    const answer = await ask(job, prompt, 'review_reflection', (v) => (typeof v.done === 'boolean' ? null : '"done" must be true or false'));
    reflections = round;
    review = normalizeReview(job.rubric.rubric, answer);
    if (answer.done === true) break;
  }
  return { ...review, reviewer, reflections };
}

/** The area chair's prompt for the ensemble's reviews: the same reviews shown make the same prompt. */
function metaPrompt(job: ReviewJob, reviews: ReviewerResult[]): string {
  const form = formBlocks(job.rubric.rubric);
  const shown = [...reviews]
    .sort((a, b) => a.reviewer - b.reviewer)
    .map((r) => `### Reviewer ${r.reviewer}\n${shownReview(r)}`)
    .join('\n\n');
  const { venue, rubric_id, reviewers, experiment } = shared(job);
  return fillOwnPrompt(metaTemplate, { venue, rubric_id, reviewers, experiment, ...form, reviews: shown }, 'paper/meta_review');
}

/** The area chair's meta review for its prompt. */
async function metaReview(job: ReviewJob, system: string): Promise<NormalizedReview> {
  return normalizeReview(job.rubric.rubric, await ask(job, system, 'meta_review'));
}

type EarlyMeta = { system: string; answer: Promise<NormalizedReview>; stop: AbortController };

/**
 * The ensemble's reviews, all at once, and the area chair's meta review. The meta review is asked
 * as soon as every reviewer has a first review, beside the reflection rounds: when the reflections
 * leave every review as the area chair was shown it (reviewers done at once, or no rounds), that
 * answer stands and the meta review adds no wait after the last reflection. When a reflection
 * changed a review, the early ask is aborted and the area chair is asked again with the final
 * reviews: one call more at most, and never an answer to reviews the report does not hold.
 */
async function reviewEnsemble(job: ReviewJob): Promise<{ reviews: ReviewerResult[]; meta: NormalizedReview }> {
  const firsts: ReviewerResult[] = [];
  const held: { early: EarlyMeta | null } = { early: null };
  const first = (r: ReviewerResult) => {
    firsts.push(r);
    if (firsts.length < job.numReviews) return;
    const system = metaPrompt(job, firsts);
    const stop = new AbortController();
    const signal = job.signal ? AbortSignal.any([job.signal, stop.signal]) : stop.signal;
    const answer = metaReview({ ...job, signal }, system);
    // awaited only when the final reviews make the same prompt; an outdated one's failure is nobody's
    answer.catch(() => {});
    held.early = { system, answer, stop };
  };
  try {
    const reviews = await Promise.all(Array.from({ length: job.numReviews }, (_, i) => oneReview(job, i + 1, first)));
    const system = metaPrompt(job, reviews);
    const early = held.early;
    if (early && early.system === system) return { reviews, meta: await early.answer };
    early?.stop.abort();
    return { reviews, meta: await metaReview(job, system) };
  } catch (err) {
    held.early?.stop.abort();
    throw err;
  }
}

/** A review in the report's shape: its scores by dimension and as a list, its text sections and lists. */
function reviewRecord(rubric: LoadedRubric['rubric'], r: NormalizedReview, scores = r.scores) {
  const overallKey = overallDimension(rubric);
  const overall = overallKey ? (scores[overallKey] ?? null) : null;
  return {
    scores,
    score_dimensions: rubric.score_dimensions.map((d) => ({ name: d.name, value: scores[d.name] ?? null, scale: d.scale })),
    decision: decide(rubric, scores),
    overall_score: overall,
    score: overall,
    ...('confidence' in scores ? { confidence: scores.confidence ?? null } : {}),
    ...r.text,
    ...r.lists,
  };
}

/**
 * Reviews a compiled paper with a rubric: `numReviews` independent reviewers at once, each with
 * its reflection rounds, and with more than one an area chair's meta review. The report's numbers
 * are the reviewers' scores (clamped to their scales; with an ensemble their mean), its text the
 * single reviewer's or the meta review's, its decision the rubric's rule on those scores.
 */
export async function reviewPaper(job: ReviewJob): Promise<Record<string, unknown>> {
  const rubric = job.rubric.rubric;
  const { reviews, meta } = job.numReviews > 1 ? await reviewEnsemble(job) : { reviews: [await oneReview(job, 1)], meta: null };
  const scores = meta ? meanScores(rubric, reviews) : (reviews[0] as ReviewerResult).scores;
  const main = meta ?? (reviews[0] as ReviewerResult);
  const clamped: { reviewer: number | 'meta'; dimension: string; given: number; kept: number }[] = reviews.flatMap((r) => r.clamped.map((c) => ({ reviewer: r.reviewer, ...c })));
  if (meta) clamped.push(...meta.clamped.map((c) => ({ reviewer: 'meta' as const, ...c })));
  return {
    rubric_id: job.rubric.id,
    rubric_version: rubric.version === undefined ? null : String(rubric.version),
    rubric_hash: job.rubricHash,
    rubric_source: job.rubric.source,
    venue: rubric.venue ?? null,
    ...reviewRecord(rubric, main, scores),
    reviewer_decision: main.reviewer_decision,
    n: reviews.length,
    num_reflections: job.numReflections,
    temperature: job.temperature,
    fewshot_mode: job.fewshotMode,
    fewshot_sources: job.fewshot.map((e) => ({ id: e.id, source: e.source })),
    pdf_text_snippet: job.paper.text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS),
    captions_found: job.captions.length,
    clamped_scores: clamped,
    ...(meta
      ? {
          ensemble_reviews: reviews.map((r) => ({ reviewer: r.reviewer, reflections: r.reflections, ...reviewRecord(rubric, r), reviewer_decision: r.reviewer_decision })),
          meta_review: { ...reviewRecord(rubric, meta), reviewer_decision: meta.reviewer_decision, source_review_count: reviews.length },
        }
      : { reflections: (reviews[0] as ReviewerResult).reflections }),
    reviewed_at: new Date().toISOString(),
  };
}
