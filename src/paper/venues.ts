import { InputError, NotFoundError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import { CLAIM_PREAMBLE } from './claims.ts';
import { escapeLatex } from './latex-text.ts';
import acmSigconf from './templates/acm-sigconf.tex' with { type: 'text' };
import arxiv from './templates/arxiv.tex' with { type: 'text' };
import ieeeConference from './templates/ieee-conference.tex' with { type: 'text' };
import llncs from './templates/llncs.tex' with { type: 'text' };
import neurips from './templates/neurips.tex' with { type: 'text' };

export type Venue = {
  id: string;
  name: string;
  /** pages of content allowed before the references; null: no limit */
  pageLimit: number | null;
  documentClass: string;
  bibliographyStyle: string;
  /** the Debian package that has the class and its BibTeX style */
  debianPackage: string;
  /** the author block for the template's `<<authors>>` slot */
  authors: (names: string[]) => string;
  source: string;
};

const joinedBy = (sep: string, wrap = (n: string) => n) => (names: string[]) => names.map((n) => wrap(escapeLatex(n))).join(sep);
// acmart wants an affiliation with each author; svc knows none, so it is left empty
const acmAuthors = (names: string[]) => names.map((n) => `\\author{${escapeLatex(n)}}\n\\affiliation{\\institution{}\\city{}\\country{}}`).join('\n');

/**
 * The venues svc writes for, in the catalogue's order. Each uses the real class TeX Live ships
 * where there is one: SC publishes its proceedings with IEEE (IEEEtran, conference), ICPP with ACM
 * (acmart, sigconf), ISC High Performance in Springer's LNCS (llncs). NeurIPS's own style file is
 * not packaged, so its template sets the NeurIPS page geometry on the article class.
 */
const VENUES: readonly Venue[] = [
  { id: 'neurips', name: 'NeurIPS (Conference on Neural Information Processing Systems)', pageLimit: 9, documentClass: 'article', bibliographyStyle: 'plainnat', debianPackage: 'texlive-latex-base', authors: joinedBy(' \\and '), source: neurips },
  { id: 'icpp', name: 'ICPP (International Conference on Parallel Processing), ACM format', pageLimit: 10, documentClass: 'acmart', bibliographyStyle: 'ACM-Reference-Format', debianPackage: 'texlive-publishers', authors: acmAuthors, source: acmSigconf },
  { id: 'sc', name: 'SC (International Conference for High Performance Computing, Networking, Storage and Analysis), IEEE format', pageLimit: 12, documentClass: 'IEEEtran', bibliographyStyle: 'IEEEtran', debianPackage: 'texlive-publishers', authors: joinedBy(' \\and ', (n) => `\\IEEEauthorblockN{${n}}`), source: ieeeConference },
  { id: 'isc', name: 'ISC High Performance, Springer LNCS format', pageLimit: 12, documentClass: 'llncs', bibliographyStyle: 'splncs04', debianPackage: 'texlive-publishers', authors: joinedBy(' \\and '), source: llncs },
  { id: 'arxiv', name: 'arXiv preprint', pageLimit: null, documentClass: 'article', bibliographyStyle: 'plainnat', debianPackage: 'texlive-latex-base', authors: joinedBy(' \\and '), source: arxiv },
  { id: 'acm', name: 'ACM conference proceedings (acmart, sigconf)', pageLimit: 10, documentClass: 'acmart', bibliographyStyle: 'ACM-Reference-Format', debianPackage: 'texlive-publishers', authors: acmAuthors, source: acmSigconf },
];

export function listVenues(): readonly Venue[] {
  return VENUES;
}

/** The venue `id` names (case and surrounding spaces ignored), or an error listing the known ones. */
export function findVenue(id: string): Venue {
  const want = id.trim().toLowerCase();
  const found = VENUES.find((v) => v.id === want);
  if (!found) throw new NotFoundError(`unknown venue '${printable(id)}' (known: ${VENUES.map((v) => v.id).join(', ')})`);
  return found;
}

/** The slots of every template, filled by renderPaper. */
export const SLOTS = ['title', 'authors', 'abstract', 'body', 'bibliography'] as const;
export type PaperParts = {
  /** LaTeX */
  title: string;
  /** plain names, escaped for LaTeX here */
  authors: string[];
  /** LaTeX */
  abstract: string;
  /** LaTeX: the sections */
  body: string;
  /** the BibTeX database's name, without .bib; default refs; null: the paper cites nothing and has no reference list */
  bibliography?: string | null;
};

/**
 * What every template has after its \documentclass line: the claim anchor command, and the
 * references marker that records in the .aux the page the references begin on (see
 * referencesPage), so that a page limit counts the pages before them.
 */
export const SVC_PREAMBLE = [
  '% svc: a number is a claim anchor, \\svcclaim{<key of science_data.json values>}{<value as printed>}',
  CLAIM_PREAMBLE,
  '% svc: records in the .aux the page the references begin on, for the page limit',
  '\\makeatletter',
  '\\newcommand{\\svcreferences}{\\protected@write\\@auxout{}{\\string\\@gobble{svc-references-page=\\the\\c@page}}}',
  '\\makeatother',
].join('\n');

/** The venue's template: a whole document with `<<slot>>` markers for renderPaper. */
export function venueTemplate(v: Venue): string {
  return v.source.replace('<<svc>>', SVC_PREAMBLE);
}

/** The venue's template with every slot filled: a document ready to compile. */
export function renderPaper(v: Venue, parts: PaperParts): string {
  const bib = (parts.bibliography === undefined ? 'refs' : parts.bibliography)?.replace(/\.bib$/, '') ?? null;
  if (bib !== null && !/^[A-Za-z0-9._/-]+$/.test(bib)) throw new InputError(`bibliography '${printable(bib)}' is not a BibTeX database name`, 'give the .bib file name without spaces, such as refs');
  const values: Record<(typeof SLOTS)[number], string> = { title: parts.title, authors: v.authors(parts.authors), abstract: parts.abstract, body: parts.body, bibliography: bib ?? '' };
  // an empty reference list would still print its heading
  const template = bib === null ? venueTemplate(v).replace(/^\\bibliography(?:style)?\{.*\}\n/gm, '') : venueTemplate(v);
  // one pass, and a function: text put in is never searched for slots, nor read for `$&` and the like
  return template.replace(new RegExp(`<<(${SLOTS.join('|')})>>`, 'g'), (_, slot: (typeof SLOTS)[number]) => values[slot]);
}

const REFERENCES_PAGE = /\\@gobble\{svc-references-page=(\d+)\}/;

/** The page the references begin on, from the .aux of a document with svc's preamble; null without one. */
export function referencesPage(aux: string): number | null {
  const m = REFERENCES_PAGE.exec(aux);
  return m ? Number(m[1]) : null;
}
