/**
 * Passage vectors as the store keeps them: Float32, scaled to unit length when written, so that
 * cosine similarity is a plain dot product at search time. A search reads the vectors of its
 * (already scoped) candidates and scans them. Measured at 100,000 passages with an ancestor scope
 * of about a thousand: the scan of 128-dimension vectors takes about 0.3 ms and reading them about
 * 1 ms, against about 4 ms for the BM25 ranking of the same candidates. A vector index (sqlite-vec
 * and the like) would save only the scan, and would rank the whole agent before the scope could
 * be applied; the whole-agent search, unscoped, is the one that pays (about 0.2 s at 100,000).
 */

/** The Float32 bytes of the vector scaled to unit length; a zero vector stays zero. */
export function packVector(v: readonly number[]): Uint8Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] ?? 0) * scale;
  return new Uint8Array(out.buffer);
}

/** The vector stored in a BLOB (copied when the bytes are not 4-aligned, as Float32Array needs). */
export function unpackVector(blob: Uint8Array): Float32Array {
  const bytes = blob.byteOffset % 4 === 0 ? blob : blob.slice();
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
}

/** A stored vector as backups carry it: base64 of its little-endian Float32 bytes. */
export const vectorText = (blob: Uint8Array): string => Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('base64');

/** The values of a vector carried as text, or null when the text is not whole finite Float32 values. */
export function vectorFromText(data: string): number[] | null {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0 || bytes.toString('base64') !== data) return null;
  const values = [...unpackVector(new Uint8Array(bytes))];
  return values.every(Number.isFinite) ? values : null;
}

/** A unit-length query vector, ready to compare with stored ones. */
export const queryVector = (v: readonly number[]): Float32Array => unpackVector(packVector(v));

/**
 * The candidates most similar to the query, best first, at most `depth`: only those pointing the
 * same way (cosine above 0), and only vectors of the query's length (another model's are skipped).
 */
export function nearest(rows: { seq: number; vector: Uint8Array }[], query: Float32Array, depth: number): { seq: number; similarity: number }[] {
  const dims = query.length;
  const out: { seq: number; similarity: number }[] = [];
  // each vector is copied into one buffer: cheaper than a typed array per row, and never misaligned
  const v = new Float32Array(dims);
  const bytes = new Uint8Array(v.buffer);
  for (const { seq, vector } of rows) {
    if (vector.byteLength !== dims * 4) continue;
    bytes.set(vector);
    let s = 0;
    for (let i = 0; i < dims; i++) s += (v[i] as number) * (query[i] as number);
    if (s > 0) out.push({ seq, similarity: s });
  }
  return out.sort((a, b) => b.similarity - a.similarity || b.seq - a.seq).slice(0, depth);
}

/** Reciprocal-rank fusion's constant (Cormack et al. 2009): damps the weight of the very first ranks. */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion of ranked lists of passage numbers: each list adds 1/(RRF_K + rank) for
 * the passages it holds (rank from 1), so a passage ranked well by either BM25 or the vectors
 * comes up, and one ranked well by both comes first. Scores are higher-is-better; ties go to the
 * newer passage.
 */
export function fuseRanks(lists: readonly (readonly number[])[]): { seq: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((seq, i) => scores.set(seq, (scores.get(seq) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...scores].map(([seq, score]) => ({ seq, score })).sort((a, b) => b.score - a.score || b.seq - a.seq);
}
