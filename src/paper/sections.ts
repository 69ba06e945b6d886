import abstractTemplate from '../prompts/paper/abstract.md' with { type: 'text' };
import reviewTemplate from '../prompts/paper/review.md' with { type: 'text' };
import reviseTemplate from '../prompts/paper/revise.md' with { type: 'text' };
import sectionTemplate from '../prompts/paper/section.md' with { type: 'text' };
import { InputError, oneLine, SvcError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import type { JsonCheck, ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { Venue } from './venues.ts';
import { factsForPrompt, type PaperFacts, writtenProblem } from './writing-facts.ts';

export const SECTIONS = ['introduction', 'related_work', 'method', 'experiment', 'conclusion'] as const;
export type SectionName = (typeof SECTIONS)[number];
export const HEADINGS: Readonly<Record<SectionName, string>> = { introduction: 'Introduction', related_work: 'Related Work', method: 'Method', experiment: 'Experiments', conclusion: 'Conclusion' };

const GUIDANCE: Readonly<Record<SectionName, string>> = {
  introduction: 'Motivate the problem, state the goal, say what was found (the best configuration against the baseline, as claim anchors) and how the paper goes on.',
  related_work: 'Place this work among the references and say how it differs. With no references, describe the usual approaches to the problem in general terms, citing nothing.',
  method: 'Describe the approach, the configurations compared and how each was measured, so that a reader could repeat it.',
  experiment: "Describe the setup and the results: refer to every figure and to the results table by \\ref, compare the best configuration with the baseline, and say what the other configurations show.",
  conclusion: 'Summarise what was found, its limits (one fixed input, the configurations tried) and what to try next.',
};

/** A review at or above this score ends a section's revision rounds. */
export const GOOD_ENOUGH = 7;
/** How much of the experiment the model reads: what it is about is said early. */
const MAX_CONTEXT_CHARS = 6000;
const MAX_SECTIONS_CHARS = 12000;

export type Review = { score: number; issues: string[]; suggestions: string[] };
/** What every writing call needs: the paper model, the language, the venue and the experiment. */
export type Author = { client: Pick<ModelClient, 'completeJson'>; language: string; venue: Venue; context: string; signal?: AbortSignal };

/** The paper's language from SVC_PAPER_LANGUAGE: a language code or a name; English when unset. */
export function paperLanguage(setting: string | null): string {
  const names: Record<string, string> = { en: 'English', ja: 'Japanese', zh: 'Chinese', ko: 'Korean', de: 'German', fr: 'French', es: 'Spanish' };
  const s = setting?.trim() ?? '';
  return names[s.toLowerCase()] ?? (s || 'English');
}

export function sectionName(given: string): SectionName {
  const s = given.trim().toLowerCase();
  if (!(SECTIONS as readonly string[]).includes(s)) throw new InputError(`unknown section '${given}'`, `give one of ${SECTIONS.join(', ')}`);
  return s as SectionName;
}

export function venueLine(v: Venue): string {
  return `${v.name}${v.pageLimit ? `, ${v.pageLimit} pages before the references` : ''}`;
}

function context(a: Author): string {
  return a.context.trim().slice(0, MAX_CONTEXT_CHARS) || '(not given)';
}

/** One model call for JSON, its failure a line naming what the paper model was writing. */
async function ask<T>(a: Author, what: string, op: string, system: string, check: JsonCheck): Promise<T> {
  try {
    return await a.client.completeJson<T>(
      {
        role: 'paper',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: 'Answer with the JSON object only.' },
        ],
        meta: { phase: 'paper', skill: 'paper-skill', component: 'writer', op },
        ...(a.signal ? { signal: a.signal } : {}),
      },
      check,
      { retries: 2 },
    );
  } catch (err) {
    if (a.signal?.aborted) throw err;
    throw new SvcError(`the paper model could not write ${what}: ${oneLine(err)}`, 'a paper is not written without a model: check the paper model (SVC_MODEL_PAPER, or the workflow llm block)');
  }
}

/** A `{"latex": ...}` answer the paper can take (writtenProblem); a leading \section line is dropped first. */
function latexCheck(f: PaperFacts): JsonCheck {
  return (v) => {
    if (!isMapping(v) || typeof v.latex !== 'string') return 'the answer must be {"latex": "..."}';
    return writtenProblem(stripHeading(v.latex), f);
  };
}

export function stripHeading(latex: string): string {
  return latex.replace(/^\s*\\section\*?\s*\{[^}]*\}\s*/, '').trim();
}

export async function generateSection(a: Author, f: PaperFacts, section: SectionName): Promise<string> {
  const system = fillOwnPrompt(sectionTemplate, { section: HEADINGS[section].toLowerCase(), language: a.language, venue: venueLine(a.venue), context: context(a), guidance: GUIDANCE[section], ...factsForPrompt(f) }, 'paper/section');
  const answer = await ask<{ latex: string }>(a, `the ${HEADINGS[section].toLowerCase()} section`, 'generate_section', system, latexCheck(f));
  return stripHeading(answer.latex);
}

export async function reviewSection(a: Author, latex: string): Promise<Review> {
  const system = fillOwnPrompt(reviewTemplate, { venue: venueLine(a.venue), context: context(a), latex }, 'paper/review');
  const r = await ask<Review>(a, 'a review of a section', 'review_section', system, reviewCheck);
  return { score: r.score, issues: r.issues.map(String), suggestions: r.suggestions.map(String) };
}

const reviewCheck: JsonCheck = (v) => {
  if (!isMapping(v) || typeof v.score !== 'number' || !Number.isFinite(v.score) || v.score < 0 || v.score > 10) return 'the answer must be {"score": 0 to 10, "issues": [...], "suggestions": [...]}';
  if (!Array.isArray(v.issues) || !Array.isArray(v.suggestions)) return 'issues and suggestions must be lists of strings';
  return null;
};

export async function reviseSection(a: Author, f: PaperFacts, section: SectionName, latex: string, feedback: string): Promise<string> {
  const system = fillOwnPrompt(reviseTemplate, { section: HEADINGS[section].toLowerCase(), language: a.language, venue: venueLine(a.venue), context: context(a), latex, feedback: feedback.trim() || '(no feedback)', ...factsForPrompt(f) }, 'paper/revise');
  const answer = await ask<{ latex: string }>(a, `the revised ${HEADINGS[section].toLowerCase()} section`, 'revise_section', system, latexCheck(f));
  return stripHeading(answer.latex);
}

/** A section's draft reviewed, and revised while the review finds it wanting, up to `maxRounds` times. */
export async function refineSection(a: Author, f: PaperFacts, section: SectionName, draft: string, maxRounds: number): Promise<{ latex: string; reviews: Review[]; revised: boolean }> {
  let latex = draft;
  let revised = false;
  const reviews: Review[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const review = await reviewSection(a, latex);
    reviews.push(review);
    if (review.score >= GOOD_ENOUGH) break;
    latex = await reviseSection(a, f, section, latex, [...review.issues, ...review.suggestions].map((x) => `- ${x}`).join('\n'));
    revised = true;
  }
  return { latex, reviews, revised };
}

export async function titleAndAbstract(a: Author, f: PaperFacts, sections: Record<SectionName, string>): Promise<{ title: string; abstract: string }> {
  const { values, configurations } = factsForPrompt(f);
  const text = SECTIONS.map((s) => `### ${HEADINGS[s]}\n${sections[s]}`).join('\n\n').slice(0, MAX_SECTIONS_CHARS);
  const system = fillOwnPrompt(abstractTemplate, { language: a.language, venue: venueLine(a.venue), context: context(a), values, configurations, sections: text }, 'paper/abstract');
  const check: JsonCheck = (v) => {
    if (!isMapping(v) || typeof v.title !== 'string' || typeof v.abstract !== 'string') return 'the answer must be {"title": "...", "abstract": "..."}';
    if (v.title.trim() === '' || v.title.length > 200) return 'the title must be plain text of at most 200 characters';
    // a title cannot hold an anchor: a number in it would be the model's, not the data's
    if (/\d/.test(v.title)) return 'the title must state no number: the numbers are in the text, as anchors';
    return writtenProblem(v.abstract, f, { refs: false });
  };
  const r = await ask<{ title: string; abstract: string }>(a, 'the title and abstract', 'title_abstract', system, check);
  return { title: r.title.replace(/\s+/g, ' ').trim(), abstract: r.abstract.trim() };
}
