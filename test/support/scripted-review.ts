import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The scripted researcher as the reviewer of the compiled paper (prompts paper/reviewer,
 * paper/reviewer_reflection, paper/meta_review). It reads the rubric's score dimensions, text
 * sections and decision options from the prompt and answers with valid JSON of exactly those,
 * so any rubric gets a review in its own form; a reflection is done at once.
 */

type Form = { dimensions: { name: string; lo: number; hi: number }[]; sections: { name: string; required: boolean }[]; options: string[]; reviewer: number };

export function reviewForm(body: OpenAIChatRequest): Form {
  const text = textOfRoles(body, ['system']);
  const block = (heading: string) => new RegExp(`## ${heading}[^\\n]*\\n([\\s\\S]*?)(?:\\n## |$)`).exec(text)?.[1] ?? '';
  const dimensions = [...block('Score dimensions').matchAll(/^- ([\w-]+) \[(-?[\d.]+), (-?[\d.]+)\]/gm)].map((m) => ({ name: m[1] ?? '', lo: Number(m[2]), hi: Number(m[3]) }));
  const sections = [...block('Text sections').matchAll(/^- ([\w-]+) \((required|optional)\)/gm)].map((m) => ({ name: m[1] ?? '', required: m[2] === 'required' }));
  const options = (/One of: ([^\n]*)\./.exec(block('Decision'))?.[1] ?? 'accept, reject').split(',').map((s) => s.trim());
  const reviewer = Number(/reviewer (\d+) of \d+/.exec(text)?.[1] ?? 1);
  return { dimensions, sections, options, reviewer };
}

const SECTION_TEXT: Readonly<Record<string, string>> = {
  summary: 'The paper searches for the Shell sort gap ratio that needs the fewest comparisons on a fixed pseudo-random array and compares the best configuration with insertion sort.',
  strengths: 'The measurement is exact (comparisons are counted, not timed), every configuration checks that its output is sorted, and the comparison with the baseline is stated plainly.',
  weaknesses: 'One array size and one input distribution are measured; the conclusions may not carry over to other sizes or to partially sorted inputs.',
  questions: 'How does the best ratio change with the size of the array and with inputs that are already partly sorted?',
  limitations: 'The paper names its limits: one fixed input and the ratios tried.',
};

/** A reviewer's fraction of each scale: reviewers of an ensemble differ, each the same every time. */
const FRACTIONS = [0.75, 0.5, 1];

function review(form: Form): Record<string, unknown> {
  const fraction = FRACTIONS[(form.reviewer - 1) % FRACTIONS.length] ?? 0.75;
  const out: Record<string, unknown> = {};
  for (const d of form.dimensions) out[d.name] = Math.round(d.lo + fraction * (d.hi - d.lo));
  for (const s of form.sections) out[s.name] = SECTION_TEXT[s.name] ?? `The ${s.name.replace(/_/g, ' ')} of this study are as the paper states them.`;
  out.decision = form.options[0] ?? 'accept';
  return out;
}

export function paperReviewerReply(body: OpenAIChatRequest): string {
  return JSON.stringify(review(reviewForm(body)));
}

/** The review needs no change: the reflection rounds end after the first. */
export function paperReflectionReply(body: OpenAIChatRequest): string {
  return JSON.stringify({ ...review(reviewForm(body)), done: true });
}

/** The area chair scores as the first reviewer did. */
export function metaReviewReply(body: OpenAIChatRequest): string {
  return JSON.stringify(review({ ...reviewForm(body), reviewer: 1 }));
}
