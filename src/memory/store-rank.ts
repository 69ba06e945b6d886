/**
 * BM25 among a small candidate set (the passages of a few tags), with the statistics of that set:
 * document frequencies and the average length come from the candidates, not the whole store.
 * FTS5's own bm25() counts each query word's documents over the whole index first, which for a
 * common word costs milliseconds per word no matter how few candidates there are; counting words in
 * a thousand candidate texts costs about as much as reading them. Lengths are counted in characters
 * (BM25 only uses a document's length relative to the average). Each body comes folded (fold()),
 * as the store keeps it beside the passage.
 */
export function rankAmong(candidates: readonly { seq: number; body: string }[], words: string[], topK: number): { seq: number; score: number }[] {
  const bodies = candidates.map((c) => c.body);
  const tfs = bodies.map((body) => words.map((w) => occurrences(body, w)));
  const n = candidates.length;
  const avgLength = bodies.reduce((sum, b) => sum + b.length, 0) / Math.max(1, n) || 1;
  const idf = words.map((_, i) => {
    const df = tfs.filter((tf) => (tf[i] ?? 0) > 0).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const scored: { seq: number; score: number }[] = [];
  candidates.forEach(({ seq }, j) => {
    const norm = K1 * (1 - B + (B * (bodies[j]?.length ?? 0)) / avgLength);
    let score = 0;
    tfs[j]?.forEach((count, i) => {
      if (count > 0) score += ((idf[i] ?? 0) * count * (K1 + 1)) / (count + norm);
    });
    if (score > 0) scored.push({ seq, score });
  });
  return scored.sort((a, b) => b.score - a.score || b.seq - a.seq).slice(0, topK);
}

const K1 = 1.2;
const B = 0.75;

/** Lower case without diacritics, as FTS5's unicode61 tokenizer folds the indexed text. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}

/** How often the word occurs in the (folded) text as a whole word, i.e. as one token of the tokenizer. */
function occurrences(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
    const end = at + word.length;
    if ((at === 0 || !isWordChar(text.charCodeAt(at - 1))) && (end === text.length || !isWordChar(text.charCodeAt(end)))) count++;
  }
  return count;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A letter or digit (the tokenizer's word characters), with a fast path for ASCII. */
function isWordChar(code: number): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return WORD_CHAR.test(String.fromCharCode(code));
}
