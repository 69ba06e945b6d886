import type { CheckpointEntry } from '../../types.ts';

export type SortKey = 'id' | 'status' | 'node_count' | 'best' | 'review' | 'repro' | 'cost' | 'mtime';
export type Sort = { key: SortKey; descending: boolean };

/** The value a column sorts by; a missing number sorts below every present one. */
const VALUE: Record<SortKey, (c: CheckpointEntry) => string | number | null> = {
  id: (c) => c.id,
  status: (c) => c.status,
  node_count: (c) => c.node_count,
  best: (c) => c.best_scientific_score ?? null,
  review: (c) => c.review_score,
  repro: (c) => c.reproducibility_score ?? null,
  cost: (c) => c.cost?.usd ?? null,
  mtime: (c) => Date.parse(c.mtime),
};

export function sortEntries(list: CheckpointEntry[], sort: Sort): CheckpointEntry[] {
  const value = VALUE[sort.key];
  const sign = sort.descending ? -1 : 1;
  // each value taken once, not once per comparison (a time is parsed from its text)
  const keyed = list.map((entry) => ({ entry, key: value(entry) }));
  keyed.sort(({ key: x }, { key: y }) => {
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  });
  return keyed.map((k) => k.entry);
}

/** Entries whose id or goal contains `text` (any case) and whose status is `status` ('' for any). */
export function filterEntries(list: CheckpointEntry[], text: string, status: string): CheckpointEntry[] {
  const needle = text.trim().toLowerCase();
  return list.filter((c) => (status === '' || c.status === status) && (needle === '' || c.id.toLowerCase().includes(needle) || (c.goal ?? '').toLowerCase().includes(needle)));
}
