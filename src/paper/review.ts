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

/** One reviewer: a review, then reflection rounds until the reviewer says it is done or the rounds are spent. */
async function oneReview(job: ReviewJob, reviewer: number): Promise<ReviewerResult> {
  const form = formBlocks(job.rubric.rubric);
  const base = { ...shared(job), ...form, reviewer };
  const system = fillOwnPrompt(reviewerTemplate, { ...base, rubric_description: job.rubric.rubric.description?.trim() ?? '', fewshot: examplesBlock(job.fewshot) }, 'paper/reviewer');
  let review = normalizeReview(job.rubric.rubric, await ask(job, system, 'review_compiled_paper'));
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

/** The area chair's meta review of the ensemble's reviews. */
async function metaReview(job: ReviewJob, reviews: ReviewerResult[]): Promise<NormalizedReview> {
  const form = formBlocks(job.rubric.rubric);
  const shown = reviews.map((r) => `### Reviewer ${r.reviewer}\n${shownReview(r)}`).join('\n\n');
  const { venue, rubric_id, reviewers, experiment } = shared(job);
  const system = fillOwnPrompt(metaTemplate, { venue, rubric_id, reviewers, experiment, ...form, reviews: shown }, 'paper/meta_review');
  return normalizeReview(job.rubric.rubric, await ask(job, system, 'meta_review'));
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
  const reviews = await Promise.all(Array.from({ length: job.numReviews }, (_, i) => oneReview(job, i + 1)));
  const meta = reviews.length > 1 ? await metaReview(job, reviews) : null;
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
