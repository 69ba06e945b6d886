/**
 * Ranks 1..n with tied values given the average of the ranks they span (scipy's 'average'),
 * and the size of every group of ties (the tie-correction terms need them).
 */
export function averageRanks(xs: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = xs.map((_, i) => i).sort((i, j) => (xs[i] as number) - (xs[j] as number));
  const ranks = new Array<number>(xs.length);
  const tieSizes: number[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && xs[order[end] as number] === xs[order[start] as number]) end++;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k] as number] = rank;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes };
}

/** Σ (t³ − t) over tie groups: zero when there are no ties. */
export function tieTerm(tieSizes: readonly number[]): number {
  let sum = 0;
  for (const t of tieSizes) sum += t * t * t - t;
  return sum;
}
