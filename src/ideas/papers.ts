/** One paper as the idea skill hands it on: what a model needs to read it and where to find it. */
export type Paper = { title: string; abstract: string; url: string };

/**
 * A paper with what a citation of it needs. A field the provider did not give is empty ('', [],
 * null), never guessed: a reference list must not invent an author or a year.
 */
export type PaperRecord = Paper & {
  authors: string[];
  year: number | null;
  venue: string;
  doi: string;
  arxiv_id: string;
  /** from the researcher's own library: its cite key, entry type and fields (name, value as written in TeX), cited as they are */
  library?: { key: string; type: string; fields: [string, string][] };
};

/** A record as the idea skill hands it on, without its citation fields. */
export const paperOf = ({ title, abstract, url }: Paper): Paper => ({ title, abstract, url });

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
 * every provider is represented), each title once; a duplicate lends the fields the kept one
 * lacks (an abstract, a DOI, the authors). Untitled entries are dropped: nothing can cite them.
 */
export function mergePapers<P extends Paper>(lists: readonly (readonly P[])[], max: number): P[] {
  const byTitle = new Map<string, P>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      const p = list[i];
      if (!p) continue;
      const key = normalizeTitle(p.title);
      if (!key) continue;
      const seen = byTitle.get(key);
      if (!seen) byTitle.set(key, { ...p });
      else fillMissing(seen, p);
    }
  }
  return [...byTitle.values()].slice(0, max);
}

/** Copies into `kept` each field it has empty and `other` has filled. */
export function fillMissing<P extends Paper>(kept: P, other: P): void {
  const into = kept as Record<string, unknown>;
  for (const [field, value] of Object.entries(other)) {
    if (isEmpty(into[field]) && !isEmpty(value)) into[field] = value;
  }
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}
