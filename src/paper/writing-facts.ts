import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InvalidRecordError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt, isWithin } from '../core/paths.ts';
import type { FiguresManifest } from '../schema/figures-manifest.ts';
import type { ScienceData } from '../schema/science-data.ts';
import { listClaims, formatClaimValue, numberValue, settingNumbers, unanchoredNumbers } from './claims.ts';
import { readFiguresManifest } from './figures-manifest.ts';
import { RESULTS_LABEL } from './results-table.ts';

/** A reference the writer may \cite: its BibTeX key and what the model is told of it. */
export type PaperRef = { key: string; title: string; year: number | null };

/**
 * Everything a paper is written from besides the model: the measured values (the only numbers it
 * may state), the figures with their captions, and the references with their BibTeX database.
 */
export type PaperFacts = {
  data: ScienceData;
  figures: FiguresManifest | null;
  /** the directory the manifest's figure files are relative to */
  figuresDir: string | null;
  refs: PaperRef[];
  bib: string;
};

/** The references of related_refs.json (collect_references_iterative) and its refs.bib; none for no file. */
export function readRefs(path: string | null): { refs: PaperRef[]; bib: string } {
  if (!path) return { refs: [], bib: '' };
  const doc = readJsonObject(path, 'collect the references again (the search_related_work stage)') as { papers?: unknown; bib_file?: unknown };
  if (!Array.isArray(doc.papers)) throw new InvalidRecordError(`${path} is not a references file: it has no papers list`, 'collect the references again (the search_related_work stage)');
  const refs = doc.papers.flatMap((p): PaperRef[] => {
    const r = p as { cite_key?: unknown; title?: unknown; year?: unknown };
    return typeof r.cite_key === 'string' && r.cite_key !== '' ? [{ key: r.cite_key, title: typeof r.title === 'string' ? r.title : '', year: typeof r.year === 'number' ? r.year : null }] : [];
  });
  // the file the references name for their BibTeX, when it is beside them: a record is not a way to read any file
  const named = typeof doc.bib_file === 'string' ? resolve(dirname(path), doc.bib_file) : null;
  const bibFile = named && isWithin(dirname(resolve(path)), named) && isFileAt(named) ? named : join(dirname(path), 'refs.bib');
  return { refs, bib: refs.length > 0 && existsSync(bibFile) ? readFileSync(bibFile, 'utf8') : '' };
}

export function paperFacts(data: ScienceData, figuresManifest: string | null, refsJson: string | null): PaperFacts {
  return { data, figures: figuresManifest ? readFiguresManifest(figuresManifest) : null, figuresDir: figuresManifest ? dirname(figuresManifest) : null, ...readRefs(refsJson) };
}

/** The labels a section may \ref: the figures' and the results table's. */
export function knownLabels(f: PaperFacts): string[] {
  return [...(f.figures?.figures.map((x) => x.label) ?? []), RESULTS_LABEL];
}

/** What the prompts show of the facts, one list each. */
export function factsForPrompt(f: PaperFacts): { values: string; configurations: string; figures: string; references: string } {
  const values = Object.entries(f.data.values).map(([k, v]) => `- ${k}: ${v.what} (now ${formatClaimValue(k, v.value).replace(/\{,\}/g, ',')})`);
  const configurations = f.data.configurations.map((c) => `- ${c.name} (${c.label}): ${Object.entries(c.params).map(([k, v]) => `${k} = ${v}`).join(', ') || 'no settings recorded'}`);
  const figures = [...(f.figures?.figures.map((x) => `- ${x.label}: figure, ${x.caption}`) ?? []), `- ${RESULTS_LABEL}: table of every configuration's measurements`];
  const references = f.refs.map((r) => `- ${r.key}: ${r.title}${r.year ? ` (${r.year})` : ''}`);
  return { values: values.join('\n') || '(none)', configurations: configurations.join('\n') || '(none)', figures: figures.join('\n'), references: references.join('\n') || '(none: cite nothing)' };
}

// what svc writes itself (its marker comments too), and what would read or write files or redefine the paper: model text is prose
const FORBIDDEN = /\\(?:documentclass|begin\{document\}|end\{document\}|section\*?\s*\{|begin\{(?:figure|table)\*?\}|bibliography|(?:input|include|includegraphics|openin|openout|read|readline|write|immediate|special|catcode|csname|expandafter|def|edef|gdef|xdef|let|newcommand|renewcommand|providecommand|usepackage|RequirePackage)(?![A-Za-z]))|\^\^|%\s*svc:/;

/**
 * Why a piece of model-written LaTeX cannot go into the paper, or null: a heading or environment
 * svc writes itself, an anchor naming no measured value, a \ref or \cite of something the paper
 * does not have, or a number in the prose that is neither an anchor nor a setting (a number the
 * model made up). The message is what the model is told to correct.
 */
export function writtenProblem(latex: string, f: PaperFacts, opts: { refs?: boolean } = {}): string | null {
  if (latex.trim() === '') return 'the LaTeX is empty';
  const forbidden = FORBIDDEN.exec(latex);
  if (forbidden) return `it has ${forbidden[0].replace(/\s*\{$/, '')}, which svc does not take from a section: give the body text only, prose with \\svcclaim, \\ref and \\cite`;
  const unknown = [...new Set(listClaims(latex).map((a) => a.key).filter((k) => !Object.hasOwn(f.data.values, k)))];
  if (unknown.length) return `\\svcclaim names ${unknown.slice(0, 5).join(', ')}, which are not measured values; use only the keys listed`;
  const labels = new Set(knownLabels(f));
  const refs = [...latex.matchAll(/\\(?:auto|c|eq)?ref\s*\{([^}]*)\}/g)].map((m) => (m[1] ?? '').trim()).filter((l) => !labels.has(l));
  if (refs.length) return `it refers to ${refs.slice(0, 5).join(', ')}, which the paper does not have; \\ref only the labels listed`;
  const keys = new Set(f.refs.map((r) => r.key));
  const cites = [...latex.matchAll(/\\cite[a-zA-Z]*\*?\s*(?:\[[^\]]*\]\s*)*\{([^}]*)\}/g)].flatMap((m) => (m[1] ?? '').split(',').map((k) => k.trim())).filter((k) => k !== '' && !keys.has(k));
  if (cites.length) return opts.refs === false ? 'it cites; cite nothing here' : `it cites ${cites.slice(0, 5).join(', ')}, which are not among the references; \\cite only the keys listed`;
  const settings = settingNumbers(f.data);
  const invented = unanchoredNumbers(latex).filter((n) => !settings.has(numberValue(n.number)));
  if (invented.length) return `it states ${[...new Set(invented.map((n) => n.number))].slice(0, 5).join(', ')} as digits; write every result number as \\svcclaim{<key>} with a listed key`;
  return null;
}
