import { normalizeTitle, type PaperRecord } from '../ideas/papers.ts';
import { latexText } from '../paper/latex-text.ts';

/** Authors listed by name; past this many, `and others` (BibTeX's et al.). */
const MAX_AUTHORS = 10;

const TITLE_STOP = new Set(['a', 'an', 'the', 'on', 'of', 'in', 'for', 'to', 'and', 'with', 'towards', 'toward', 'via', 'from', 'by', 'at', 'is', 'are']);

/**
 * A cite key per paper, in order, unique and safe anywhere a key goes (lower-case ASCII letters
 * and digits: no character BibTeX, natbib or hyperref reads specially, and no two keys that differ
 * only in case): first author's surname, year and first word of the title, as `vaswani2017attention`;
 * a clash gets b, c, ... appended. A paper from the researcher's library keeps its own key (the
 * first of two that differ only in case); the keys made for the others steer clear of those.
 */
export function citeKeys(papers: readonly PaperRecord[]): string[] {
  const used = new Set<string>();
  const own = papers.map((p) => {
    const key = p.library?.key;
    if (key === undefined || used.has(key.toLowerCase())) return undefined;
    used.add(key.toLowerCase());
    return key;
  });
  return papers.map((p, i) => {
    const kept = own[i];
    if (kept !== undefined) return kept;
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

/** Entry types every standard style defines; another (biblatex's @online, say) is written as @misc. */
const ENTRY_TYPES = new Set(['article', 'book', 'booklet', 'conference', 'inbook', 'incollection', 'inproceedings', 'manual', 'mastersthesis', 'misc', 'phdthesis', 'proceedings', 'techreport', 'unpublished']);

/**
 * A library paper's entry under its own key and type, with its fields as the library has them
 * (the reader keeps only those the styles print), but for a DOI or URL with characters that break
 * where a style sets it as text, and characters outside ASCII, written as the LaTeX command for
 * them (dropped where none exists). Null when a field's TeX is not what a bibliography holds
 * (see plainBibTex): the paper is then cited from its plain text, as a found one is.
 */
export function libraryEntry(lib: NonNullable<PaperRecord['library']>): { entry: string; dropped: number } | null {
  let dropped = 0;
  const ascii = (v: string) =>
    v.replace(/[^\x00-\x7f]/gu, (ch) => {
      const r = latexText(ch);
      dropped += r.dropped;
      return r.latex;
    });
  const fields = lib.fields.filter(([name, v]) => v.trim() !== '' && (name !== 'doi' || SAFE_DOI.test(v)) && (name !== 'url' || SAFE_URL.test(v)));
  if (!fields.every(([, v]) => plainBibTex(v))) return null;
  // as for a found paper: the styles sort an entry without a name by its key field
  if (!fields.some(([name]) => name === 'author' || name === 'editor')) fields.unshift(['key', lib.key]);
  const body = fields.map(([name, v]) => `  ${name} = {${ascii(v)}}`).join(',\n');
  return { entry: `@${ENTRY_TYPES.has(lib.type) ? lib.type : 'misc'}{${lib.key},\n${body}\n}\n`, dropped };
}

/** The commands a bibliography field may hold: accents and letters, escaped specials, type styles, dashes and dots, Greek and a little math. */
const FIELD_COMMANDS = new Set(
  (
    'ss o O aa AA ae AE oe OE l L i j u v H c k r d b t ' +
    'emph textit textbf textsc textrm textsf texttt textsl textup textnormal mbox url ' +
    'textendash textemdash ldots dots textquoteright textquoteleft textquotedblleft textquotedblright textregistered texttrademark copyright ' +
    'LaTeX TeX BibTeX ' +
    'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho sigma tau upsilon phi varphi chi psi omega ' +
    'Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ' +
    'mathrm mathbf mathit mathcal mathbb log ln exp sqrt frac times cdot le ge leq geq ne neq infty sim approx pm mp prime ell'
  ).split(' '),
);

/**
 * Whether a field's TeX is what a bibliography holds, and so safe in the paper's build: braces
 * balanced, math closed, no `&`, `#` or `%` unescaped, no `^^`, and no command but FIELD_COMMANDS
 * (nothing that reads or writes a file or defines one, as a library entry could otherwise do).
 */
function plainBibTex(tex: string): boolean {
  if (/\^\^/.test(tex)) return false;
  let depth = 0;
  let dollars = 0;
  for (let i = 0; i < tex.length; i++) {
    const ch = tex[i];
    if (ch === '\\') {
      const name = /^[A-Za-z]+|^./s.exec(tex.slice(i + 1))?.[0] ?? '';
      if (/^[A-Za-z]/.test(name) ? !FIELD_COMMANDS.has(name) : !/^[`'^"~=.&%$#_{}\- ,/@]$/.test(name)) return false;
      i += name.length;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return false;
    else if (ch === '$') dollars++;
    else if (ch === '&' || ch === '#' || ch === '%') return false;
  }
  return depth === 0 && dollars % 2 === 0;
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
const asciiWord = (word: string) => normalizeTitle(word).replaceAll(' ', '');

/**
 * The whole .bib: a comment line saying where it came from, then one entry per paper, a library's
 * as the library has it; `plain` names the library entries written from their plain text instead.
 */
export function bibFile(papers: readonly PaperRecord[], keys: readonly string[]): { text: string; dropped: number; plain: string[] } {
  let dropped = 0;
  const plain: string[] = [];
  const entries = papers.map((p, i) => {
    const own = p.library && p.library.key === keys[i] ? libraryEntry(p.library) : null;
    if (p.library && p.library.key === keys[i] && own === null) plain.push(p.library.key);
    const e = own ?? bibEntry(p, keys[i] as string);
    dropped += e.dropped;
    return e.entry;
  });
  return { text: `% references found by svc's collect_references_iterative; cite them by key\n\n${entries.join('\n')}`, dropped, plain };
}
