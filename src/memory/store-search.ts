/**
 * The full-text query for a user's search text: its words (runs of letters and digits, as the
 * index's tokenizer cuts them), each quoted, so operators, stars, quotes, parentheses and column
 * names in user text are never parsed as query syntax. Words are OR-ed: BM25 ranks passages with
 * more (and rarer) of them first. Null when the text has no word.
 */
export function ftsQueryText(query: string): string | null {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_WORDS);
  return words.length === 0 ? null : words.map((w) => `"${w}"`).join(' OR ');
}

/** A long pasted query adds cost, not precision. */
const MAX_WORDS = 64;

/** The scope part of the full-text query: the owner token, or the tag tokens joined by the match mode. */
export function scopeQueryText(tokens: string[], mode: 'any' | 'all'): string {
  return tokens.join(mode === 'all' ? ' AND ' : ' OR ');
}

export const agentToken = (agentSeq: number): string => `a${agentSeq}`;
export const tagToken = (tagSeq: number): string => `t${tagSeq}`;
