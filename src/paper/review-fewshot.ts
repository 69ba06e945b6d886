import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusEntries } from './fewshot-corpus.ts';
import { examplesDir, listExamples } from './fewshot.ts';
import { SOURCE_KEY } from './fewshot-record.ts';

export type FewshotMode = 'static' | 'dynamic';
/** A few-shot example as the reviewer is shown it: the review and, when there is one, an excerpt of the paper. */
export type ReviewExample = { id: string; source: string; record: Record<string, unknown>; excerpt: string };

const MAX_EXCERPT_CHARS = 3000;

/**
 * The examples a rubric has: the project's (`reviewer_rubrics/fewshot_examples/<rubric>`), then
 * the published corpus's entries of the rubric the project does not have under the same id.
 */
export function rubricExamples(projectRoot: string, rubricId: string): { examples: ReviewExample[]; problems: string[] } {
  const { examples, problems } = listExamples(projectRoot, rubricId);
  const dir = examplesDir(projectRoot, rubricId);
  const out: ReviewExample[] = examples.map((e) => ({
    id: e.id,
    source: e.source ?? 'project',
    record: e.record,
    excerpt: e.has_text ? readExcerpt(join(dir, `${e.id}.txt`)) : '',
  }));
  const have = new Set(out.map((e) => e.id));
  for (const entry of corpusEntries().filter((c) => c.rubric === rubricId && !have.has(c.id))) {
    const json = entry.files.find((f) => f.name === `${entry.id}.json`);
    if (!json) continue;
    const record = JSON.parse(json.content) as Record<string, unknown>;
    const txt = entry.files.find((f) => f.name === `${entry.id}.txt`)?.content ?? '';
    out.push({ id: entry.id, source: typeof record[SOURCE_KEY] === 'string' ? (record[SOURCE_KEY] as string) : 'svc corpus', record, excerpt: txt.slice(0, MAX_EXCERPT_CHARS) });
  }
  return { examples: out, problems };
}

function readExcerpt(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, MAX_EXCERPT_CHARS);
  } catch {
    return '';
  }
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z][a-z0-9-]{2,}/g) ?? []);

/** Jaccard overlap of the two texts' word sets (words of three letters or more). */
export function wordOverlap(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / (wa.size + wb.size - common);
}

/**
 * `count` examples: in static mode the first by id (the same every time); in dynamic mode those
 * whose excerpt and review share the most words with the paper, ties by id.
 */
export function chooseExamples(examples: ReviewExample[], count: number, mode: FewshotMode, paperText: string): ReviewExample[] {
  const byId = [...examples].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (mode === 'static') return byId.slice(0, count);
  const scored = byId.map((e) => ({ e, s: wordOverlap(paperText, `${e.excerpt}\n${Object.values(e.record).filter((v) => typeof v === 'string').join('\n')}`) }));
  return scored
    .sort((a, b) => b.s - a.s)
    .slice(0, count)
    .map((x) => x.e);
}

/** The examples as the prompt shows them. */
export function examplesBlock(chosen: ReviewExample[]): string {
  if (!chosen.length) return '(none)';
  return chosen
    .map((e, i) => {
      const { [SOURCE_KEY]: _, ...review } = e.record;
      return `### Example ${i + 1}${e.excerpt ? `\nPaper excerpt:\n${e.excerpt.trim()}` : ''}\nReview:\n${JSON.stringify(review, null, 1)}`;
    })
    .join('\n\n');
}
