import { fold } from './store-rank.ts';

/**
 * The words of a user's search text: runs of letters and digits, folded as the index's tokenizer
 * folds them. Only these reach the full-text query, each quoted, so operators, stars, quotes,
 * parentheses and column names in user text are never parsed as query syntax. English stop words
 * are left out unless there is nothing else: they are in nearly every passage, so they add next to
 * nothing to a BM25 score but cost the most to count.
 */
export function queryWords(query: string): string[] {
  const words = [...new Set(fold(query).match(/[\p{L}\p{N}]+/gu) ?? [])];
  const content = words.filter((w) => !STOP_WORDS.has(w));
  return (content.length > 0 ? content : words).slice(0, MAX_WORDS);
}

/** Lucene's English stop set. */
const STOP_WORDS = new Set('a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '));

/** A long pasted query adds cost, not precision. */
const MAX_WORDS = 64;

/**
 * The FTS5 query: any of the words in the body (BM25 ranks passages with more and rarer ones
 * first), and in the scope column the owner token, or the tag tokens joined by the match mode.
 */
export function ftsQuery(words: string[], scopeTokens: string[], mode: 'any' | 'all'): string {
  const body = words.map((w) => `"${w}"`).join(' OR ');
  return `body : (${body}) AND scope : (${scopeTokens.join(mode === 'all' ? ' AND ' : ' OR ')})`;
}

export const agentToken = (agentSeq: number): string => `a${agentSeq}`;
export const tagToken = (tagSeq: number): string => `t${tagSeq}`;
