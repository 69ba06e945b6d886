import { listClaims } from '../../paper/claims.ts';
import { type PaperSection, paperSections, sectionAt } from '../../paper/paper-sections.ts';
import { lineAt, maskComments } from '../../paper/tex-text.ts';
import type { ScienceData } from '../../schema/science-data.ts';

/** One sentence of the paper that states measured numbers, with the anchors it carries. */
export type ClaimSentence = {
  /** C1, C2, ...: how the prompt names it */
  id: string;
  /** the sentence as plain text, anchors printed as in the paper, cut to a readable length */
  sentence: string;
  /** the anchor keys science_data.json has, in order of use */
  keys: string[];
  /** the heading of the \section it is in (lower case), "abstract", or null before any section */
  section: string | null;
  line: number;
};

export type PaperClaims = {
  claims: ClaimSentence[];
  /** anchor keys science_data.json does not have: the claim gate reports them, there is no evidence to read them against */
  unknownKeys: string[];
  /** anchors in tables: a cell has no wording to weigh */
  inTables: number;
};

/** Sentences longer than this are cut around their first anchor: the wording near the number decides. */
export const MAX_SENTENCE_CHARS = 400;

const TABLES = /\\begin\{(tabular\*?|tabularx|tabulary|array|longtable)\}[\s\S]*?\\end\{\1\}/g;
/** Where a sentence cannot run on: a paragraph break, a heading, an environment's edge, a list item, a caption's start. */
const HARD_STOP = /\n[ \t]*\n|\\(?:part|chapter|(?:sub)*section|paragraph|begin|end|item|caption|title|maketitle)\b\*?/g;
/** Words whose full stop does not end a sentence. */
const ABBREVIATION = /(?:\be\.g|\bi\.e|\bet al|\bcf|\bvs|\bFigs?|\bEqs?|\bSecs?|\bTabs?|\bapprox|\bresp|\bNo)$/i;

/**
 * The sentences of a paper that carry claim anchors, one entry per sentence in the order they
 * appear. Anchors in comments and in tables are not claims of the prose; anchors of keys the
 * science data lacks are listed, not reviewed.
 */
export function claimSentences(tex: string, data: ScienceData): PaperClaims {
  const src = maskComments(tex);
  const tables = [...src.matchAll(TABLES)].map((m) => [m.index, m.index + m[0].length] as const);
  const bodyAt = src.indexOf('\\begin{document}');
  const stops = [...src.matchAll(HARD_STOP)].map((m) => m.index);
  const unknown = new Set<string>();
  const bySpan = new Map<string, { start: number; end: number; keys: string[]; first: string }>();
  let inTables = 0;
  for (const a of listClaims(tex)) {
    if (a.start < bodyAt) continue;
    if (tables.some(([s, e]) => a.start >= s && a.start < e)) {
      inTables++;
      continue;
    }
    if (!Object.hasOwn(data.values, a.key)) {
      unknown.add(a.key);
      continue;
    }
    const start = sentenceStart(src, a.start, stops);
    const end = sentenceEnd(src, a.end, stops);
    const span = `${start}:${end}`;
    const seen = bySpan.get(span);
    if (seen) {
      if (!seen.keys.includes(a.key)) seen.keys.push(a.key);
    } else bySpan.set(span, { start, end, keys: [a.key], first: a.key });
  }
  const sections = paperSections(tex);
  const claims = [...bySpan.values()].map((s, i) => ({
    id: `C${i + 1}`,
    // the masked source: a comment inside a sentence is not part of what the paper says
    sentence: cut(plainText(src.slice(s.start, s.end)), s.first),
    keys: s.keys,
    section: sectionName(sectionAt(sections, s.start)),
    line: lineAt(tex, s.start + Math.max(0, src.slice(s.start, s.end).search(/\S/))),
  }));
  return { claims, unknownKeys: [...unknown], inTables };
}

function sentenceStart(src: string, at: number, stops: number[]): number {
  const begin = src.lastIndexOf('\\begin{document}', at);
  const stop = stops.findLast((s) => s < at && s > begin);
  const from = stop === undefined ? Math.max(0, begin) : Math.min(stopEnd(src, stop), at);
  for (let i = at - 1; i > from; i--) if (endsSentence(src, i)) return i + 1;
  return from;
}

function sentenceEnd(src: string, at: number, stops: number[]): number {
  const stop = stops.find((s) => s >= at) ?? src.length;
  for (let i = at; i < stop; i++) if (endsSentence(src, i)) return i + 1;
  return stop;
}

/**
 * Past a stop: a blank line, or a command with the arguments that are not the sentence's (a
 * heading's title, an environment's name and options, an item's label). A caption's text is prose:
 * only its opening brace is passed.
 */
function stopEnd(src: string, s: number): number {
  const rest = src.slice(s, s + 400);
  const name = /^\\([A-Za-z]+)\*?/.exec(rest);
  if (!name) return s + (/^\n[ \t]*\n/.exec(rest)?.[0].length ?? 1);
  let i = s + name[0].length;
  const braces = ['caption', 'item', 'maketitle'].includes(name[1] ?? '') ? 0 : 1;
  const arg = /^\s*(\[[^\]]*\]|\{[^{}]*\})/;
  for (let taken = 0; ; ) {
    const m = arg.exec(src.slice(i, i + 400));
    if (!m || (m[1]?.startsWith('{') && taken >= braces)) break;
    if (m[1]?.startsWith('{')) taken++;
    i += m[0].length;
  }
  if (name[1] === 'caption' && src[i] === '{') i++;
  return i;
}

/** A full stop, question or exclamation mark followed by space, not after an abbreviation or inside a number. */
function endsSentence(src: string, i: number): boolean {
  const c = src[i];
  if (c !== '.' && c !== '!' && c !== '?') return false;
  const next = src[i + 1];
  if (next !== undefined && !/\s/.test(next)) return false;
  return !(c === '.' && ABBREVIATION.test(src.slice(Math.max(0, i - 8), i)));
}

/** A claim's section as the reviewer and paper_refine read it: the abstract, or its heading in lower case; none before the first. */
function sectionName(s: PaperSection | null): string | null {
  if (!s || s.kind === 'front_matter') return null;
  return s.kind === 'abstract' ? 'abstract' : plainText(s.heading).toLowerCase();
}

/**
 * LaTeX as a reader sees it: an anchor as its printed value with its key after it (`48.76
 * [improvement.comparisons.ratio]`, or `[key]` for an anchor never filled), references and
 * citations as placeholders, other commands dropped and their text arguments kept.
 */
export function plainText(latex: string): string {
  return latex
    .replace(/\\svcclaim\s*\{([^{}\\]*)\}(?:\s*\{((?:[^{}]|\{[^{}]*\})*)\})?/g, (_, key: string, printed: string | undefined) => (printed === undefined ? `[${key.trim()}]` : `${printed} [${key.trim()}]`))
    .replace(/\{,\}/g, ',')
    .replace(/\\(?:auto|c|C|eq|page|name)?ref\s*\{[^{}]*\}/g, '(ref)')
    .replace(/\\[A-Za-z]*cite[A-Za-z]*\*?\s*(?:\[[^\]]*\]\s*)*\{[^{}]*\}/g, '(cite)')
    .replace(/\\label\s*\{[^{}]*\}/g, '')
    .replace(/\\([%&#$_])/g, '$1')
    .replace(/\\[A-Za-z]+\*?/g, ' ')
    .replace(/\\\\/g, ' ')
    .replace(/[{}~$]/g, (c) => (c === '~' ? ' ' : ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** A long sentence cut to MAX_SENTENCE_CHARS around its first anchor, the cuts marked. */
function cut(sentence: string, key: string): string {
  if (sentence.length <= MAX_SENTENCE_CHARS) return sentence;
  const at = Math.max(0, sentence.indexOf(`[${key}]`));
  const from = Math.max(0, Math.min(at - MAX_SENTENCE_CHARS / 2, sentence.length - MAX_SENTENCE_CHARS));
  const to = from + MAX_SENTENCE_CHARS;
  return `${from > 0 ? '…' : ''}${sentence.slice(from, to).trim()}${to < sentence.length ? '…' : ''}`;
}
