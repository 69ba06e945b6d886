/** One paper as the idea skill hands it on: what a model needs to read it and where to find it. */
export type Paper = { title: string; abstract: string; url: string };

/** A title reduced to its words, so the same paper from two providers compares equal. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * The papers of several providers as one list of at most `max`: taken in turn from each list (so
 * every provider is represented), each title once; a duplicate without an abstract lends the
 * abstract of the one that has it. Untitled entries are dropped: nothing can cite them.
 */
export function mergePapers(lists: readonly (readonly Paper[])[], max: number): Paper[] {
  const byTitle = new Map<string, Paper>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      const p = list[i];
      if (!p) continue;
      const key = normalizeTitle(p.title);
      if (!key) continue;
      const seen = byTitle.get(key);
      if (!seen) byTitle.set(key, { ...p });
      else if (!seen.abstract && p.abstract) seen.abstract = p.abstract;
    }
  }
  return [...byTitle.values()].slice(0, max);
}
