import { memoByFile } from '../core/file-memo.ts';
import { readFileSync, statSync } from 'node:fs';
import { type Field, type Item, parse as parseBibtex } from 'bibtex-parse';
import { InputError, oneLine } from '../core/errors.ts';
import type { PaperRecord } from './papers.ts';
import { ProviderFailure } from './provider-fetch.ts';

/**
 * The researcher's own references: a BibTeX file (a reference manager's export) searched beside the
 * literature providers, offline too. Its entries are cited under their own keys, with their own
 * entry types and fields.
 */

/** Far above any personal library; a larger file is not a bibliography. */
const MAX_LIBRARY_BYTES = 32 * 1024 * 1024;

/** A cite key written as it stands: what BibTeX, natbib and hyperref all take without fuss. */
const PLAIN_KEY = /^[A-Za-z0-9][A-Za-z0-9_:.+/-]*$/;

type LibraryEntry = { record: PaperRecord; words: Map<string, number> };

/** The parsed library, read again only when the file changed. */
const libraryEntries = memoByFile(readLibrary, 4);

/**
 * The entries of the library at `path` that match `query`, best first, at most `max`. An entry
 * matches when it has at least two of the query's words (one, for a one-word query) in its title,
 * keywords or abstract; the title and keywords weigh twice the abstract. A file that cannot be read
 * or parsed is a ProviderFailure naming the line, so the search goes on with the other providers.
 */
export function searchLibrary(path: string, query: string, max: number): PaperRecord[] {
  const entries = libraryEntries(path);
  const terms = [...new Set(stems(query))];
  const needed = Math.min(2, terms.length);
  const scored: { record: PaperRecord; score: number; hits: number }[] = [];
  for (const e of entries) {
    let score = 0;
    let hits = 0;
    for (const t of terms) {
      const weight = e.words.get(t);
      if (weight === undefined) continue;
      hits++;
      score += weight;
    }
    if (hits >= needed && hits > 0) scored.push({ record: e.record, score, hits });
  }
  scored.sort((a, b) => b.score - a.score || (b.record.year ?? 0) - (a.record.year ?? 0));
  return scored.slice(0, max).map((s) => structuredClone(s.record));
}

/** A run's library is read before the run creates anything: a wrong path or a syntax error stops it with the fix. */
export function checkLibrary(path: string): number {
  try {
    return libraryEntries(path).length;
  } catch (err) {
    if (err instanceof ProviderFailure) throw new InputError(`retrieval.library: ${err.message}`, 'fix the file or the path retrieval.library gives in the workflow (relative to the workflow file)');
    throw err;
  }
}

function readLibrary(path: string): LibraryEntry[] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (err) {
    throw new ProviderFailure('bad_answer', `cannot read the library ${path}: ${oneLine(err)}`);
  }
  if (!st.isFile()) throw new ProviderFailure('bad_answer', `the library ${path} is not a file`);
  if (st.size > MAX_LIBRARY_BYTES) throw new ProviderFailure('bad_answer', `the library ${path} is ${st.size} bytes, more than the ${MAX_LIBRARY_BYTES} a BibTeX file of references takes`);
  return parseLibrary(readFileSync(path, 'utf8'), path);
}

/** Every entry of a BibTeX text as a record to search and cite; a syntax error names its line and column. */
export function parseLibrary(text: string, file: string): LibraryEntry[] {
  let items: Item[];
  try {
    items = parseBibtex(text, { number: 'string' });
  } catch (err) {
    const at = (err as { location?: { start?: { line: number; column: number } } }).location?.start;
    const where = at ? `${file}:${at.line}:${at.column}` : file;
    // the parser points at the start of the entry it could not read, not at the brace it missed
    throw new ProviderFailure('bad_answer', `the library ${where} is not valid BibTeX: the entry starting there is malformed or not closed (${oneLine(err)})`);
  }
  const macros = new Map<string, string>();
  const value = (v: Field['value'], datatype: Field['datatype']): string => {
    if (Array.isArray(v)) return v.map((part) => value(part.value, part.datatype)).join('');
    if (datatype !== 'identifier') return String(v);
    return macros.get(String(v).toLowerCase()) ?? MONTHS[String(v).toLowerCase()] ?? '';
  };
  const entries: { key: string; type: string; tex: Map<string, string> }[] = [];
  for (const item of items) {
    if (item.itemtype === 'string') macros.set(item.name.toLowerCase(), value(item.value, item.datatype));
    if (item.itemtype === 'entry' && item.key) entries.push({ key: item.key, type: item.type.toLowerCase(), tex: new Map(item.fields.map((f) => [f.name.toLowerCase(), value(f.value, f.datatype)])) });
  }
  const byKey = new Map(entries.map((e) => [e.key.toLowerCase(), e]));
  const out: LibraryEntry[] = [];
  for (const { key, type, tex } of entries) {
    inheritCrossref(tex, byKey);
    const fields = new Map([...tex].map(([name, v]) => [name, plainText(v)]));
    const title = fields.get('title') ?? '';
    if (!title) continue;
    const eprint = fields.get('archiveprefix')?.toLowerCase() === 'arxiv' || /^\d{4}\.\d{4,5}(v\d+)?$/.test(fields.get('eprint') ?? '') ? (fields.get('eprint') ?? '') : '';
    const record: PaperRecord = {
      title,
      abstract: fields.get('abstract') ?? '',
      url: fields.get('url') ?? '',
      authors: (fields.get('author') ?? '').split(/\s+and\s+/).map((a) => a.trim()).filter((a) => a !== '' && a !== 'others'),
      year: yearOf(fields.get('year')),
      venue: fields.get('journal') || fields.get('booktitle') || fields.get('publisher') || fields.get('school') || fields.get('howpublished') || '',
      doi: fields.get('doi') ?? '',
      arxiv_id: eprint,
      // only what a citation prints: an abstract, keywords or a manager's file path go no further
      ...(PLAIN_KEY.test(key) ? { library: { key, type, fields: [...tex].filter(([name]) => CITED_FIELDS.has(name)) } } : {}),
    };
    const words = new Map<string, number>();
    for (const w of stems(fields.get('abstract') ?? '')) words.set(w, 1);
    for (const w of stems(`${title} ${fields.get('keywords') ?? ''}`)) words.set(w, 2);
    out.push({ record, words });
  }
  return out;
}

/** The fields the standard styles print. */
const CITED_FIELDS = new Set(['author', 'editor', 'title', 'booktitle', 'journal', 'volume', 'number', 'pages', 'year', 'month', 'publisher', 'address', 'school', 'institution', 'organization', 'series', 'edition', 'howpublished', 'note', 'chapter', 'type', 'doi', 'url', 'eprint', 'archiveprefix', 'isbn', 'issn']);

/**
 * BibTeX's crossref: the fields an entry lacks come from the entry it names (its title as the
 * booktitle), so an @inproceedings citing its @proceedings keeps its venue and year.
 */
function inheritCrossref(tex: Map<string, string>, byKey: ReadonlyMap<string, { tex: Map<string, string> }>): void {
  const parent = byKey.get((tex.get('crossref') ?? '').trim().toLowerCase());
  tex.delete('crossref');
  if (!parent || parent.tex === tex) return;
  for (const [name, v] of parent.tex) {
    const as = name === 'title' ? 'booktitle' : name;
    if (name !== 'crossref' && !tex.has(as)) tex.set(as, v);
  }
}

const MONTHS: Readonly<Record<string, string>> = { jan: 'January', feb: 'February', mar: 'March', apr: 'April', may: 'May', jun: 'June', jul: 'July', aug: 'August', sep: 'September', oct: 'October', nov: 'November', dec: 'December' };

function yearOf(value: string | undefined): number | null {
  const m = /\b(\d{4})\b/.exec(value ?? '');
  return m ? Number(m[1]) : null;
}

const ACCENTS: Readonly<Record<string, string>> = { '"': '\u0308', "'": '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', '=': '\u0304', '.': '\u0307', u: '\u0306', v: '\u030c', H: '\u030b', c: '\u0327', k: '\u0328', r: '\u030a' };
const LETTERS: Readonly<Record<string, string>> = { ss: 'ß', o: 'ø', O: 'Ø', aa: 'å', AA: 'Å', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', l: 'ł', L: 'Ł', i: 'ı', j: 'ȷ', '&': '&', '%': '%', _: '_', '#': '#', $: '$' };

/** A field's TeX as plain text: accents as letters, other commands dropped with their braces, `--` as a dash. */
function plainText(tex: string): string {
  return tex
    .replace(/\\([`'^"~=.]|[uvHckr](?![A-Za-z]))\s*\{?\\?([A-Za-z])\}?/g, (all, accent: string, letter: string) => (ACCENTS[accent] ? `${letter}${ACCENTS[accent]}`.normalize('NFC') : all))
    .replace(/\\(ss|aa|AA|ae|AE|oe|OE|[oOlLij])(?![A-Za-z])\s*|\\([&%_#$])/g, (_all, word?: string, sym?: string) => LETTERS[(word ?? sym) as string] ?? '')
    .replace(/\\[A-Za-z]+\*?\s*/g, '')
    .replace(/[{}]/g, '')
    .replace(/---?/g, '–')
    .replace(/~/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const STOP = new Set(['and', 'the', 'for', 'with', 'from', 'into', 'that', 'this', 'its', 'are', 'was', 'were', 'has', 'have', 'not', 'but', 'our', 'their', 'which', 'how', 'what', 'when', 'than', 'then', 'them', 'using', 'use', 'based', 'toward', 'towards', 'via', 'over', 'under', 'between']);

/** Words of three letters or more, lower case, accents off, without stop words, each cut to a rough stem. */
function stems(text: string): string[] {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
  return words.filter((w) => !STOP.has(w)).map(stem);
}

/** sorting, sorts, sorted → sort; a rough cut, the same for the query and the library. */
function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}
