import refineTemplate from '../prompts/paper/refine.md' with { type: 'text' };
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeJsonAtomic, writeFileAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, InvalidRecordError, NotFoundError, oneLine, SvcError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import { ModelAnswerError } from '../llm/errors.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import { fillClaims, listClaims } from './claims.ts';
import { compilePaper } from './compile.ts';
import { checkFormat, type FormatFinding } from './format-check.ts';
import { type Author, HEADINGS, SECTIONS, type SectionName, stripHeading, venueLine } from './sections.ts';
import { factsForPrompt, type PaperFacts, writtenProblem } from './writing-facts.ts';

export const REFINE_RECORD = 'paper_refine.json';

export type SectionOutcome = { section: SectionName; accepted: boolean; reason?: string; points: number };
export type RefineRecord = {
  tex_path: string;
  refined_tex_path: string;
  pdf_path: string | null;
  sections: SectionOutcome[];
  /** review points that name no section: no section is changed for them */
  unplaced: string[];
  compiled: boolean;
  compile_error?: string;
  pages: number | null;
  format: FormatFinding[];
  format_passes: boolean | null;
};

/** What names a section in a reviewer's point; a figure or table is in the experiments. */
const MENTIONS: Readonly<Record<SectionName, RegExp>> = {
  introduction: /\bintroduction\b/i,
  related_work: /\brelated[\s-]+work\b|\bprior\s+work\b|\bliterature\b/i,
  method: /\bmethod(?:s|ology)?\b/i,
  experiment: /\bexperiment(?:s|al)?\b|\bresults?\b|\bevaluation\b|\bfig(?:ure)?s?\b|\btables?\b|\[(?:fig|tab):/i,
  conclusion: /\bconclusions?\b|\blimitations?\b|\bfuture\s+work\b/i,
};

/** The points of a review field: a list of strings or of objects with their text, or a text of one point a line (a bullet dropped, a heading line ending in a colon left out). */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.split('\n').map((l) => l.replace(/^\s*(?:[-*\u2022]|\d+[.)])\s*/, '').trim()).filter((l) => l !== '' && !l.endsWith(':'));
  return Array.isArray(v) ? v.flatMap((x) => (typeof x === 'string' ? [x] : isMapping(x) ? [pointText(x)].filter((s): s is string => s !== null) : [])) : [];
}

function pointText(x: Record<string, unknown>): string | null {
  for (const k of ['revision', 'suggestion', 'text', 'issue', 'message', 'comment', 'change']) if (typeof x[k] === 'string' && (x[k] as string).trim()) return (x[k] as string).trim();
  return null;
}

/** A section named in a revisions file: its key or its heading, any case. */
function sectionOf(given: unknown): SectionName | null {
  if (typeof given !== 'string') return null;
  const s = given.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const found = SECTIONS.find((k) => k === s || HEADINGS[k].toLowerCase().replace(/\s+/g, '_') === s || `${k}s` === s);
  return found ?? null;
}

/**
 * The reviewers' points by section: the merged review's weaknesses, issues and recommendations
 * (and the semantic review's) placed in every section they name, the suggested revisions in the
 * section they give. A point naming no section changes nothing and is kept as unplaced.
 */
export function reviewPoints(review: Record<string, unknown>, revisions: unknown, semantic: Record<string, unknown> | null): { points: Map<SectionName, string[]>; unplaced: string[] } {
  const points = new Map<SectionName, string[]>();
  const add = (s: SectionName, p: string) => {
    const list = points.get(s) ?? [];
    if (!list.includes(p)) list.push(p);
    points.set(s, list);
  };
  const unplaced: string[] = [];
  const free = [review, semantic ?? {}].flatMap((r) => ['weaknesses', 'issues', 'recommendations', 'findings'].flatMap((k) => strings(r[k])));
  for (const p of new Set(free.map((x) => x.trim()).filter(Boolean))) {
    const named = SECTIONS.filter((s) => MENTIONS[s].test(p));
    if (named.length === 0) unplaced.push(p);
    for (const s of named) add(s, p);
  }
  const list = Array.isArray(revisions) ? revisions : isMapping(revisions) ? (revisions.suggested_revisions ?? revisions.revisions) : undefined;
  if (revisions !== null && revisions !== undefined && !Array.isArray(list)) throw new InvalidRecordError('suggested_revisions_json is neither a list nor {"revisions": [...]}', 'give a list of {"section": ..., "revision": ...}');
  for (const [i, r] of ((list ?? []) as unknown[]).entries()) {
    const s = isMapping(r) ? sectionOf(r.section) : null;
    const text = isMapping(r) ? pointText(r) : null;
    if (!s || !text) throw new InvalidRecordError(`suggested revision ${i + 1} has no known section or no revision text`, `give {"section": one of ${SECTIONS.join(', ')}, "revision": "..."}`);
    add(s, text);
  }
  return { points, unplaced };
}

/** Where a section's prose is in the paper: from its heading to the next heading, or to the figures and tables svc put after the experiments. */
export function sectionSpan(tex: string, s: SectionName): { start: number; end: number } | null {
  const heading = new RegExp(`\\\\section\\{${HEADINGS[s]}\\}[ \\t]*\\n?`).exec(tex);
  if (!heading) return null;
  const start = heading.index + heading[0].length;
  const rest = tex.slice(start);
  const stops = [/\\section\*?\s*\{/, /\\bibliographystyle\b/, /\\bibliography\s*\{/, /\\end\{document\}/, /\\appendix\b/, /\\svcreferences\b/, /%%? svc:/, ...(s === 'experiment' ? [/\\begin\{(?:figure|table)\*?\}/] : [])];
  const end = Math.min(rest.length, ...stops.map((re) => re.exec(rest)?.index ?? rest.length));
  return { start, end: start + end };
}

/**
 * Why a refined section cannot replace the old one, or null: what writtenProblem refuses (an
 * unknown anchor, a number the data does not have, a heading or environment), or an anchor of the
 * old section that the new one does not keep.
 */
export function editProblem(before: string, after: string, f: PaperFacts): string | null {
  const written = writtenProblem(after, f);
  if (written) return written;
  const keeps = new Set(listClaims(after).map((a) => a.key));
  const dropped = [...new Set(listClaims(before).map((a) => a.key))].filter((k) => !keeps.has(k));
  if (dropped.length) return `it drops the claim anchor${dropped.length > 1 ? 's' : ''} ${dropped.join(', ')}; keep every \\svcclaim{<key>} the section had, with the same key`;
  return null;
}

async function refineOne(a: Author, f: PaperFacts, s: SectionName, latex: string, points: string[]): Promise<{ latex: string } | { reason: string }> {
  const system = fillOwnPrompt(
    refineTemplate,
    { section: HEADINGS[s].toLowerCase(), language: a.language, venue: venueLine(a.venue), context: a.context.trim().slice(0, 6000) || '(not given)', latex, review: points.map((p) => `- ${p}`).join('\n'), ...factsForPrompt(f) },
    'paper/refine',
  );
  let rejected: string | null = null;
  try {
    const answer = await a.client.completeJson<{ latex: string }>(
      {
        role: 'paper',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: 'Answer with the JSON object only.' },
        ],
        meta: { phase: 'paper', skill: 'paper-skill', component: 'refiner', op: 'paper_refine' },
        ...(a.signal ? { signal: a.signal } : {}),
      },
      (v) => {
        rejected = !isMapping(v) || typeof v.latex !== 'string' ? null : editProblem(latex, stripHeading(v.latex), f);
        return isMapping(v) && typeof v.latex === 'string' ? rejected : 'the answer must be {"latex": "..."}';
      },
      // one retry, told why the edit was refused
      { retries: 1 },
    );
    return { latex: stripHeading(answer.latex) };
  } catch (err) {
    // the edit refused on the last attempt: the reason the paper is not changed; any other failed answer as the client says it
    if (err instanceof ModelAnswerError) return { reason: rejected !== null && err.message.endsWith(rejected) ? rejected : oneLine(err) };
    if (a.signal?.aborted) throw err;
    throw new SvcError(`the paper model could not refine the ${HEADINGS[s].toLowerCase()} section: ${oneLine(err)}`, 'check the paper model (SVC_MODEL_PAPER, or the workflow llm block); the draft is left as it is');
  }
}

/** The refined paper's file beside the draft: main.tex gives main_refined.tex. */
export function refinedPath(tex: string): string {
  return join(dirname(tex), `${basename(tex).replace(/\.tex$/, '')}_refined.tex`);
}

/**
 * paper_refine: every section the review names revised by the paper model with the review's
 * points on it, at once; an edit is taken only when the section could be written so
 * (writtenProblem) and keeps every claim anchor it had, else the section keeps its text and the
 * reason is recorded. The refined paper, its anchors filled from science_data.json, is written
 * beside the draft, compiled and checked; paper_refine.json records what was done.
 */
export async function refinePaper(a: Author, f: PaperFacts, opts: { tex: string; review: Record<string, unknown>; revisions: unknown; semantic: Record<string, unknown> | null; recordDir: string; env: Env }): Promise<RefineRecord> {
  if (!isFileAt(opts.tex)) throw new NotFoundError(`tex_path '${opts.tex}' does not exist`, 'write the paper first (write_paper_iterative), or give the path of its .tex');
  const draft = readFileSync(opts.tex, 'utf8');
  const { points, unplaced } = reviewPoints(opts.review, opts.revisions, opts.semantic);
  const asked = SECTIONS.filter((s) => points.has(s));
  const results = await Promise.all(
    asked.map(async (s): Promise<{ outcome: SectionOutcome; span?: { start: number; end: number }; latex?: string }> => {
      const list = points.get(s) ?? [];
      const span = sectionSpan(draft, s);
      if (!span) return { outcome: { section: s, accepted: false, reason: `the paper has no \\section{${HEADINGS[s]}}`, points: list.length } };
      const old = draft.slice(span.start, span.end).trim();
      const r = await refineOne(a, f, s, old, list);
      if ('reason' in r) return { outcome: { section: s, accepted: false, reason: r.reason, points: list.length } };
      return { outcome: { section: s, accepted: true, points: list.length }, span, latex: r.latex };
    }),
  );
  // the accepted sections put in from the last, so the earlier spans stay where they were
  let tex = draft;
  for (const r of [...results].filter((x) => x.span && x.latex !== undefined).sort((x, y) => (y.span?.start ?? 0) - (x.span?.start ?? 0))) {
    const span = r.span as { start: number; end: number };
    tex = `${tex.slice(0, span.start)}${r.latex}\n\n${tex.slice(span.end)}`;
  }
  const filled = fillClaims(tex, f.data);
  if (filled.unknown.length) throw new InvalidRecordError(`the paper names values science_data.json does not have: ${filled.unknown.join(', ')}`, 'write the paper again from this science_data.json');
  const out = refinedPath(opts.tex);
  writeFileAtomic(out, filled.tex);

  const record: RefineRecord = { tex_path: opts.tex, refined_tex_path: out, pdf_path: null, sections: results.map((r) => r.outcome), unplaced, compiled: false, pages: null, format: [], format_passes: null };
  try {
    const build = await compilePaper(dirname(out), basename(out), opts.env);
    const report = await checkFormat(a.venue, build.pdf_path, opts.env, f.data);
    Object.assign(record, { pdf_path: build.pdf_path, compiled: true, pages: build.pages, format: report.findings, format_passes: report.passes });
  } catch (err) {
    if (a.signal?.aborted) throw err;
    record.compile_error = oneLine(err);
  }
  writeJsonAtomic(join(opts.recordDir, REFINE_RECORD), record);
  return record;
}

/** A review file the refinement reads: a JSON object; a missing one is an error naming the stage that writes it. */
export function readReview(path: string, what: string, hint: string): Record<string, unknown> {
  const doc = readJsonObject(path, hint);
  if (!doc) throw new NotFoundError(`${what} '${path}' does not exist`, hint);
  return doc;
}

/** suggested_revisions_json: any JSON value (reviewPoints says what it may be); a missing file is an error. */
export function readRevisions(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`suggested_revisions_json '${path}' does not exist`, 'give an existing file, or leave it out');
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`suggested_revisions_json '${path}' is not JSON: ${(err as Error).message}`, 'give a list of {"section": ..., "revision": ...}');
  }
}
