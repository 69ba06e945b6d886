import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { sha256Hex } from '../core/file-hash.ts';
import { isFileAt } from '../core/paths.ts';
import { pdfText } from '../paper/pdf-text.ts';
import { proseView } from '../paper/tex-text.ts';

/** The paper a rubric is made from: its text as the model reads it and the digest of its source. */
export type PaperSource = { text: string; sha256: string; what: string };

/** The leaf clamp of the contract (SVC_RUBRIC_GEN_TARGET_LEAVES): fewer cannot cover a paper, more no judge grades well. */
export const MIN_LEAVES = 50;
export const MAX_LEAVES = 400;
const WORDS_PER_LEAF = 75;

/**
 * The paper's text: a file (.pdf through pdftotext, .tex as its prose, anything else as text) or
 * the text given. The digest is of the source bytes, so the same file gives the same paper_sha256
 * whichever way its text is read.
 */
export async function readPaper(path: string | null, text: string | undefined, env: Env): Promise<PaperSource> {
  if (path) {
    if (!isFileAt(path)) throw new NotFoundError(`paper_path ${path} is not a file`, 'give the paper (.tex, .md or .pdf), or paper_text');
    const bytes = readFileSync(path);
    const ext = extname(path).toLowerCase();
    const body = ext === '.pdf' ? (await pdfText({ path }, `the paper ${path}`, env)).text : ext === '.tex' ? texProse(bytes.toString('utf8')) : bytes.toString('utf8');
    if (body.trim() === '') throw new InputError(`the paper ${path} has no readable text`, ext === '.pdf' ? 'a scanned PDF cannot be read: give the LaTeX source' : 'give the paper with its text');
    return { text: body, sha256: sha256Hex(bytes), what: path };
  }
  if (text === undefined || text.trim() === '') throw new InputError('no paper: neither paper_path nor paper_text is given', 'give paper_path (.tex, .md or .pdf) or paper_text');
  return { text, sha256: sha256Hex(Buffer.from(text)), what: 'paper_text' };
}

/** A filled claim anchor, `\\svcclaim{key}{30{,}850}`: its printed value is an argument of a group. */
const FILLED_CLAIM = /\\svcclaim\s*\{[^{}\\]*\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g;

/**
 * The prose of a LaTeX paper with its claim anchors printed as the PDF prints them: the prose view
 * drops command arguments that are not prose, which for a claim anchor is its number, and a rubric
 * checks a reproduction against exactly those numbers.
 */
export function texProse(tex: string): string {
  const prose = proseView(tex.replace(FILLED_CLAIM, (_, value: string) => value.replace(/\{,\}/g, ',').replace(/[{}]/g, '')));
  // the view keeps offsets, so the groups' braces and the blanked commands stay as noise
  return prose.replace(/[{}]/g, '').replace(/~/g, ' ').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n\n');
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

export function clampLeaves(n: number): number {
  return Math.min(MAX_LEAVES, Math.max(MIN_LEAVES, Math.round(n)));
}

/** About one leaf per 75 words of the paper, within [50, 400]. */
export function suggestLeafCount(text: string): { words: number; target_leaf_count: number } {
  const words = wordCount(text);
  return { words, target_leaf_count: clampLeaves(words / WORDS_PER_LEAF) };
}
