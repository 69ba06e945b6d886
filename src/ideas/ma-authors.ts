import { persona } from './personas.ts';
import type { SnapshotPaper } from './ma-snapshot.ts';
import { centroid, cosine, rounded } from './vectors.ts';

/** One author of the pool: a group of similar corpus papers and the viewpoint it speaks from. */
export type Author = {
  /** `A1`, `A2`, ... in pool order (the first holds the paper nearest the topic) */
  id: string;
  /** indices into the corpus, nearest the author's centre first */
  papers: number[];
  /** the titles of its three most central papers: what it knows */
  expertise: string[];
  viewpoint: string;
  centre: number[];
};

export type TeamMember = { author: string; similarity_to_leader: number };
export type Team = { team: number; leader: string; members: TeamMember[] };

const KMEANS_ITERATIONS = 25;
const EXPERTISE_TITLES = 3;

/**
 * At most `n` authors from the corpus, without a model call: k-means over the paper vectors by
 * cosine, seeded by farthest-point choice from the paper nearest the topic, so the same corpus
 * always gives the same pool and each author covers a different part of the literature. A group
 * left empty is dropped, so a small corpus gives fewer authors.
 */
export function authorPool(corpus: readonly SnapshotPaper[], n: number): Author[] {
  const vectors = corpus.map((p) => p.vector);
  let centres = farthestPointSeeds(vectors, Math.min(n, vectors.length)).map((i) => vectors[i] as number[]);
  let groups: number[][] = [];
  for (let it = 0; it < KMEANS_ITERATIONS; it++) {
    groups = centres.map(() => []);
    vectors.forEach((v, i) => groups[closest(v, centres)]?.push(i));
    const next = groups.map((g, c) => (g.length ? centroid(g.map((i) => vectors[i] as number[])) : (centres[c] as number[])));
    const moved = next.some((c, i) => cosine(c, centres[i] as number[]) < 1 - 1e-12);
    centres = next;
    if (!moved) break;
  }
  return groups
    .map((g, c) => ({ g, centre: centres[c] as number[] }))
    .filter(({ g }) => g.length > 0)
    .map(({ g, centre }, a) => {
      const papers = [...g].sort((x, y) => cosine(vectors[y] as number[], centre) - cosine(vectors[x] as number[], centre) || x - y);
      return { id: `A${a + 1}`, papers, expertise: papers.slice(0, EXPERTISE_TITLES).map((i) => (corpus[i] as SnapshotPaper).title), viewpoint: persona(a), centre };
    });
}

/**
 * Up to `maxTeams` teams of `teamSize`: team t is led by author t; its other members are picked
 * in turn as the most similar remaining author (shared expertise to build on) and the least
 * similar (another field to borrow from), by cosine between author centres.
 */
export function formTeams(authors: readonly Author[], teamSize: number, maxTeams: number): Team[] {
  const size = Math.min(teamSize, authors.length);
  return authors.slice(0, Math.min(maxTeams, authors.length)).map((leader, t) => {
    const others = authors
      .filter((a) => a !== leader)
      .map((a) => ({ author: a.id, similarity_to_leader: rounded(cosine(a.centre, leader.centre)) }))
      .sort((x, y) => y.similarity_to_leader - x.similarity_to_leader || x.author.localeCompare(y.author, 'en', { numeric: true }));
    const members: TeamMember[] = [{ author: leader.id, similarity_to_leader: 1 }];
    for (let pick = 0; members.length < size; pick++) members.push((pick % 2 === 0 ? others.shift() : others.pop()) as TeamMember);
    return { team: t + 1, leader: leader.id, members };
  });
}

function farthestPointSeeds(vectors: readonly (readonly number[])[], n: number): number[] {
  const seeds = n > 0 ? [0] : [];
  const best = vectors.map((v) => cosine(v, vectors[0] as number[]));
  while (seeds.length < n) {
    let pick = -1;
    best.forEach((s, i) => {
      if (!seeds.includes(i) && (pick < 0 || s < (best[pick] as number))) pick = i;
    });
    seeds.push(pick);
    vectors.forEach((v, i) => {
      best[i] = Math.max(best[i] as number, cosine(v, vectors[pick] as number[]));
    });
  }
  return seeds;
}

function closest(v: readonly number[], centres: readonly (readonly number[])[]): number {
  let at = 0;
  centres.forEach((c, i) => {
    if (cosine(v, c) > cosine(v, centres[at] as number[])) at = i;
  });
  return at;
}
