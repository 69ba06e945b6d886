import type { ScienceData } from '../schema/science-data.ts';
import { formatNumber } from '../science/numbers.ts';
import { lineAt, maskComments, proseView } from './tex-text.ts';

/**
 * The claim-anchor convention shared by every paper tool. A number in a paper is written
 * `\svcclaim{<key>}{<value as printed>}`, the key naming an entry of science_data.json `values`;
 * the preamble makes the anchor print its second argument. A writer asks for a number with the
 * one-argument form `\svcclaim{<key>}` and fillClaims puts in the value, so the numbers of a paper
 * come from the measurements, never from a model's text.
 */
export const CLAIM_PREAMBLE = '\\newcommand{\\svcclaim}[2]{#2}';

export type ClaimAnchor = {
  key: string;
  /** the second argument as written; null for the one-argument request form */
  printed: string | null;
  /** 1-based line of the anchor */
  line: number;
  /** offsets of the whole anchor in the text */
  start: number;
  end: number;
};

const ANCHOR = /\\svcclaim\s*\{([^{}\\]*)\}/g;

/** Every anchor of a LaTeX text, in order; anchors inside comments are not anchors. */
export function listClaims(tex: string): ClaimAnchor[] {
  const text = maskComments(tex);
  const out: ClaimAnchor[] = [];
  for (const m of text.matchAll(ANCHOR)) {
    const start = m.index;
    const afterKey = start + m[0].length;
    const second = secondArgument(text, afterKey);
    out.push({
      key: (m[1] ?? '').trim(),
      printed: second ? text.slice(second.open + 1, second.close) : null,
      line: lineAt(tex, start),
      start,
      end: second ? second.close + 1 : afterKey,
    });
  }
  return out;
}

/**
 * A brace group TeX would take as the anchor's second argument: after spaces and at most one line
 * end (a blank line ends the paragraph, and with it the argument list).
 */
function secondArgument(text: string, from: number): { open: number; close: number } | null {
  let i = from;
  let newlines = 0;
  while (i < text.length && /\s/.test(text[i] as string)) {
    if (text[i] === '\n' && ++newlines > 1) return null;
    i++;
  }
  if (text[i] !== '{') return null;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return { open: i, close: j };
  }
  return null;
}

export type FilledClaims = {
  tex: string;
  /** keys whose anchors now print the value of science_data.json, in order of first use */
  filled: string[];
  /** keys that science_data.json does not have; their anchors are left as they were */
  unknown: string[];
};

/**
 * Every anchor whose key science_data.json has is rewritten to print that value, formatted by
 * formatClaimValue: a request `\svcclaim{key}` gets its value, and a value someone changed by hand
 * is put back. Unknown keys are listed and their anchors left alone.
 */
export function fillClaims(tex: string, data: ScienceData): FilledClaims {
  const filled = new Set<string>();
  const unknown = new Set<string>();
  let out = '';
  let at = 0;
  for (const a of listClaims(tex)) {
    const entry = Object.hasOwn(data.values, a.key) ? data.values[a.key] : undefined;
    if (!entry) {
      unknown.add(a.key);
      continue;
    }
    filled.add(a.key);
    out += `${tex.slice(at, a.start)}\\svcclaim{${a.key}}{${formatClaimValue(a.key, entry.value)}}`;
    at = a.end;
  }
  return { tex: out + tex.slice(at), filled: [...filled], unknown: [...unknown] };
}

export type ClaimProblem = { key: string; line: number; problem: 'unknown_key' | 'unfilled' | 'value_mismatch'; printed: string | null; expected: string | null };

/** Anchors a finished paper must not have: unknown keys, requests never filled, values that differ from the data. */
export function claimProblems(tex: string, data: ScienceData | null): ClaimProblem[] {
  const out: ClaimProblem[] = [];
  for (const a of listClaims(tex)) {
    const entry = data && Object.hasOwn(data.values, a.key) ? data.values[a.key] : undefined;
    const expected = entry ? formatClaimValue(a.key, entry.value) : null;
    const base = { key: a.key, line: a.line, printed: a.printed, expected };
    if (data && !entry) out.push({ ...base, problem: 'unknown_key' });
    else if (a.printed === null) out.push({ ...base, problem: 'unfilled' });
    else if (expected !== null && a.printed !== expected) out.push({ ...base, problem: 'value_mismatch' });
  }
  return out;
}

/** How the value of anchor `key` is printed: a percentage for `.percent` keys, else the number. */
export function formatClaimValue(key: string, value: number): string {
  return key.endsWith('.percent') ? `${formatNumber(value)}\\%` : formatNumber(value);
}

export type BareNumber = {
  /** the number as written */
  number: string;
  line: number;
  /** where it starts in the source */
  offset: number;
  /** its source line, trimmed */
  context: string;
};

const NUMBER = /(?<![\w.\\])(?:\d+(?:\{,\}\d{3}|,\d{3})*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+(?!\.\d))?/g;
/** Letters glued to a number that leave it a quantity ("30x", "12ms"); others make it part of a name ("3D", "2nd") or a length ("0.8pt"). */
const QUANTITY_SUFFIX = /^(?:x|ms|us|ns|s|min|h|[KMGT]i?B|[kMG]?Hz|[km]?W|J|fps)$/;
const LENGTH_AFTER = /^\s*\\(?:linewidth|textwidth|columnwidth|textheight|paperwidth|paperheight|hsize|vsize|baselineskip)/;
/** Words that make the number after them a place in the paper, not a result: "Section 3", "Figures 2 and 4", "Eq. (1)". */
const PLACE_BEFORE =
  /\b(?:sections?|sec\.|secs\.|figures?|figs?\.|tables?|tabs?\.|equations?|eqs?\.|appendix|appendices|algorithms?|alg\.|lines?|chapters?|steps?|theorems?|lemmas?|definitions?|corollary|corollaries|propositions?|listings?|parts?)\s*~?\s*\(?(?:[\d.]+\)?\s*(?:,|and|&|--|-|to)\s*~?\s*\(?)*$/i;
const HEADING_BEFORE = /\\(?:part|chapter|(?:sub)*section|(?:sub)?paragraph)\*?\s*(?:\[\s*|(?:\[[^\]]*\])?\s*\{\s*)$/;
const YEAR = /^(?:19|20)\d\d$/;
/** A year in a citation written out: "Smith et al. 2020", "(Smith and Lee, 2019)", "Smith (2020)". */
const CITATION_BEFORE = [/et al\.?,?\s*[([]?\s*$/, /[([][^()[\]]*[A-Z][A-Za-z'-]+[^()[\]]*$/, /[A-Z][A-Za-z'-]+(?:\s+(?:and|&)\s+[A-Z][A-Za-z'-]+)?,?\s*[([]\s*$/];

/**
 * Numbers in the prose of a LaTeX text that no claim anchor accounts for: what check_format flags
 * and a writer should turn into anchors. Math, typewriter text and e-notation (`3.5e-4`) count.
 * Not counted: anything proseView leaves out (command names, the options of commands and
 * environments that take them, citation notes that only locate, labels, references, citation
 * keys, lengths, column specifications, code, one-digit indices and powers), numbers that are part
 * of a name ("ResNet50", "GPT-4", "3D"), ordinals, lengths ("0.8\linewidth"), places in the paper
 * ("Section 3", "Table~2"), a small integer that numbers a heading, years in citations written
 * out, and enumerators such as "(1)". The configurations' settings (settingNumbers) are counted
 * here; check_format and writtenProblem let them stand.
 */
export function unanchoredNumbers(tex: string): BareNumber[] {
  const prose = proseView(tex);
  const src = maskComments(tex);
  const out: BareNumber[] = [];
  for (const m of prose.matchAll(NUMBER)) {
    const at = m.index;
    const end = at + m[0].length;
    const before = src.slice(Math.max(0, at - 80), at);
    const after = src.slice(end, end + 40);
    if (!counts(m[0], before, after)) continue;
    const lineStart = src.lastIndexOf('\n', at) + 1;
    const lineEnd = src.indexOf('\n', at);
    out.push({ number: m[0], line: lineAt(tex, at), offset: at, context: tex.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim().slice(0, 160) });
  }
  return out;
}

function counts(number: string, before: string, after: string): boolean {
  const glued = /^[A-Za-z]+/.exec(after)?.[0];
  if (glued !== undefined && !QUANTITY_SUFFIX.test(glued)) return false;
  if (LENGTH_AFTER.test(after)) return false;
  if (/[A-Za-z0-9]-$/.test(before)) return false;
  if (PLACE_BEFORE.test(before) || (HEADING_BEFORE.test(before) && isHeadingNumber(number, after))) return false;
  if (YEAR.test(number) && CITATION_BEFORE.some((re) => re.test(before))) return false;
  if (/^\d{1,2}$/.test(number) && /\(\s*$/.test(before) && /^\s*\)/.test(after)) return false;
  return true;
}

/**
 * The number that opens a heading numbers it ("\section{3 Results}") when it is a small integer
 * standing alone; a decimal, a percentage or a ratio ("4.73x") there is a result.
 */
function isHeadingNumber(number: string, after: string): boolean {
  return /^\d{1,2}$/.test(number) && !/^(?:[A-Za-z]|\\?%)/.test(after);
}

/** Numbers a paper may print without an anchor: the configurations' settings, which are inputs, not results. */
export function settingNumbers(data: ScienceData): Set<number> {
  const out = new Set<number>();
  for (const c of data.configurations) {
    for (const v of Object.values(c.params)) if (typeof v === 'number') out.add(v);
    for (const m of c.name.matchAll(/\d+(?:\.\d+)?/g)) out.add(Number(m[0]));
  }
  return out;
}

/** The value of a number as written (`30{,}850`, `1,200`). */
export function numberValue(written: string): number {
  return Number(written.replace(/\{,\}|,/g, ''));
}
