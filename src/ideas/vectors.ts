/** Cosine similarity of two vectors of one length; 0 when either is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The `k` vectors nearest `query` by cosine, nearest first; ties keep the earlier index. */
export function nearest(query: readonly number[], vectors: readonly (readonly number[])[], k: number): { index: number; similarity: number }[] {
  return vectors
    .map((v, index) => ({ index, similarity: cosine(query, v) }))
    .sort((a, b) => b.similarity - a.similarity || a.index - b.index)
    .slice(0, k);
}

/** The component-wise mean of non-empty vectors of one length. */
export function centroid(vectors: readonly (readonly number[])[]): number[] {
  const out = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] as number) / vectors.length;
  return out;
}

/** A similarity as the records show it: 3 decimals are enough to compare papers, and stable to read. */
export const rounded = (x: number): number => Math.round(x * 1000) / 1000;
