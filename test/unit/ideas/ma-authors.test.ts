import { describe, expect, test } from 'bun:test';
import { authorPool, formTeams } from '../../../src/ideas/ma-authors.ts';
import type { SnapshotPaper } from '../../../src/ideas/ma-snapshot.ts';
import { cosine } from '../../../src/ideas/vectors.ts';
import { MA_CORPUS } from '../../support/idea-ma-responder.ts';
import { scriptedEmbedding } from '../../support/model-server-embeddings.ts';

const corpus: SnapshotPaper[] = MA_CORPUS.map((p) => ({ title: p.title, abstract: p.abstract ?? '', url: '', vector: scriptedEmbedding(`${p.title}. ${p.abstract}`) }));
/** The field of each corpus paper: MA_CORPUS holds four fields of three papers, in order. */
const fieldOf = (title: string) => Math.floor(MA_CORPUS.findIndex((p) => p.title === title) / 3);

describe('authorPool', () => {
  test('four authors from four fields: each author holds the three papers of one field', () => {
    const pool = authorPool(corpus, 4);
    expect(pool.map((a) => a.id)).toEqual(['A1', 'A2', 'A3', 'A4']);
    for (const a of pool) {
      expect(a.papers).toHaveLength(3);
      expect(new Set(a.papers.map((i) => fieldOf(corpus[i]!.title))).size).toBe(1);
      expect(a.expertise).toEqual(a.papers.map((i) => corpus[i]!.title));
    }
    expect(new Set(pool.map((a) => fieldOf(a.expertise[0]!))).size).toBe(4);
    // the first author is seeded by the first paper (the one nearest the topic in a snapshot)
    expect(pool[0]!.papers).toContain(0);
    // each a different viewpoint
    expect(new Set(pool.map((a) => a.viewpoint)).size).toBe(4);
  });

  test('deterministic: the same corpus gives the same pool', () => {
    expect(authorPool(corpus, 6)).toEqual(authorPool(corpus, 6));
  });

  test('more authors asked for than papers: one author per paper at most; every paper has one author', () => {
    const pool = authorPool(corpus.slice(0, 5), 16);
    expect(pool.length).toBe(5);
    expect(pool.flatMap((a) => a.papers).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4]);
  });

  test('one author: every paper, most central first', () => {
    const [only] = authorPool(corpus, 1);
    expect(only!.papers).toHaveLength(12);
    const sims = only!.papers.map((i) => cosine(corpus[i]!.vector, only!.centre));
    expect(sims).toEqual([...sims].sort((a, b) => b - a));
  });
});

describe('formTeams', () => {
  const pool = authorPool(corpus, 6);

  test('team t is led by author t; teammates alternate the most and the least similar to the leader', () => {
    const teams = formTeams(pool, 3, 2);
    expect(teams.map((t) => t.leader)).toEqual(['A1', 'A2']);
    for (const t of teams) {
      const leader = pool.find((a) => a.id === t.leader)!;
      const others = pool.filter((a) => a !== leader).map((a) => ({ id: a.id, s: cosine(a.centre, leader.centre) })).sort((a, b) => b.s - a.s);
      expect(t.members.map((m) => m.author)).toEqual([leader.id, others[0]!.id, others.at(-1)!.id]);
      expect(t.members[1]!.similarity_to_leader).toBeGreaterThanOrEqual(t.members[2]!.similarity_to_leader);
    }
  });

  test('caps: no more teams than authors, no team larger than the pool', () => {
    expect(formTeams(pool.slice(0, 2), 5, 10).map((t) => t.members.length)).toEqual([2, 2]);
    expect(formTeams(pool, 1, 10)).toHaveLength(6);
    expect(formTeams(pool, 1, 10).every((t) => t.members.length === 1)).toBe(true);
  });
});
