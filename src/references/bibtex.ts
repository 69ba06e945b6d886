import type { PaperRecord } from '../ideas/papers.ts';
import { latexText } from '../paper/latex-text.ts';

/** Authors listed by name; past this many, `and others` (BibTeX's et al.). */
const MAX_AUTHORS = 10;

const TITLE_STOP = new Set(['a', 'an', 'the', 'on', 'of', 'in', 'for', 'to', 'and', 'with', 'towards', 'toward', 'via', 'from', 'by', 'at', 'is', 'are']);

/**
 * A cite key per paper, in order, unique and safe anywhere a key goes (lower-case ASCII letters
 * and digits: no character BibTeX, natbib or hyperref reads specially, and no two keys that differ
 * only in case): first author's surname, year and first word of the title, as `vaswani2017attention`;
 * a clash gets b, c, ... appended.
 */
export function citeKeys(papers: readonly PaperRecord[]): string[] {
  const used = new Set<string>();
  return papers.map((p) => {
    const name = asciiWord(surname(firstLast(p.authors[0] ?? '')));
    const base = `${/^[a-z]/.test(name) ? name : `anon${name}`}${p.year ?? 'nd'}${asciiWord(firstTitleWord(p.title))}`;
    let key = base;
    for (let n = 1; used.has(key); n++) key = `${base}${n < 26 ? String.fromCharCode(97 + n) : n}`;
    used.add(key);
    return key;
  });
}

/**
 * One `@misc` entry: the entry type every standard style takes without a required field (an
 * `@article` without a journal, say, is a BibTeX warning), with the venue or arXiv id as
 * `howpublished` and the year (`n.d.` when unknown). An entry without authors gets `key`, which the styles sort by instead (else:
 * "to sort, need author or key"). Text is escaped by latexText; the URL and DOI are given only
 * when made of characters that are safe even where a style falls back to \texttt for them.
 */
export function bibEntry(p: PaperRecord, key: string): { entry: string; dropped: number } {
  let dropped = 0;
  const tex = (s: string) => {
    const r = latexText(s);
    dropped += r.dropped;
    return r.latex;
  };
  const fields: [string, string][] = [];
  const names = p.authors.map((a) => authorName(tex(firstLast(a)))).filter((a) => a !== '');
  if (names.length > 0) fields.push(['author', [...names.slice(0, MAX_AUTHORS), ...(names.length > MAX_AUTHORS ? ['others'] : [])].join(' and ')]);
  else fields.push(['key', key]);
  // the inner braces keep the title's capitals where a style would lower them
  fields.push(['title', `{${tex(p.title) || key}}`]);
  const venue = tex(p.venue);
  const published = venue || (p.arxiv_id && SAFE_ARXIV.test(p.arxiv_id) ? `arXiv preprint arXiv:${p.arxiv_id}` : '');
  if (published) fields.push(['howpublished', published]);
  // author-year styles (plainnat) warn of an empty year, and print one in every citation
  fields.push(['year', p.year !== null && p.year >= 1000 && p.year <= 9999 ? String(p.year) : 'n.d.']);
  if (SAFE_DOI.test(p.doi)) fields.push(['doi', p.doi]);
  if (SAFE_URL.test(p.url)) fields.push(['url', p.url]);
  const body = fields.map(([k, v]) => `  ${k} = {${v}}`).join(',\n');
  return { entry: `@misc{${key},\n${body}\n}\n`, dropped };
}

const SAFE_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9./:=?-]*)?$/;
const SAFE_DOI = /^10\.\d{4,9}\/[A-Za-z0-9./:;()-]+$/;
const SAFE_ARXIV = /^[A-Za-z0-9./-]+$/;

/** `Last, First` as `First Last`: one order for every name, so the surname is the last word. */
function firstLast(name: string): string {
  const m = /^([^,]+),\s*([^,]+)$/.exec(name.trim());
  return m ? `${m[2]} ${m[1]}` : name;
}

/** A name as BibTeX reads one: no commas (they would make it `Last, First`), a lone `and` braced. */
function authorName(name: string): string {
  return name
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(^|\s)(and)(?=\s|$)/gi, '$1{$2}');
}

function surname(name: string): string {
  const words = name.replace(/,/g, ' ').trim().split(/\s+/);
  return words.at(-1) ?? '';
}

function firstTitleWord(title: string): string {
  const words = title.normalize('NFKD').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.find((w) => w.length > 2 && !TITLE_STOP.has(w)) ?? words[0] ?? '';
}

/** Lower-case ASCII letters and digits only: accents dropped, everything else removed. */
function asciiWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The whole .bib: a comment line saying where it came from, then one entry per paper. */
export function bibFile(papers: readonly PaperRecord[], keys: readonly string[]): { text: string; dropped: number } {
  let dropped = 0;
  const entries = papers.map((p, i) => {
    const e = bibEntry(p, keys[i] as string);
    dropped += e.dropped;
    return e.entry;
  });
  return { text: `% references found by svc's collect_references_iterative; cite them by key\n\n${entries.join('\n')}`, dropped };
}
