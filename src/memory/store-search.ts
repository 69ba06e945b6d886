import { fold } from './store-rank.ts';

/**
 * The words of a user's search text: runs of letters and digits, folded as the index's tokenizer
 * folds them. Only these reach the full-text query, each quoted, so operators, stars, quotes,
 * parentheses and column names in user text are never parsed as query syntax.
 */
export function queryWords(query: string): string[] {
  return [...new Set(fold(query).match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_WORDS);
}

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
