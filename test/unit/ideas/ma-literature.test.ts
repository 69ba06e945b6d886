import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { gatherLiterature } from '../../../src/ideas/ma-literature.ts';
import type { RetrievalSettings } from '../../../src/ideas/retrieval-settings.ts';
import { MA_CORPUS, MA_TOPIC } from '../../support/idea-ma-responder.ts';
import { type ScholarServer, startScholarServer } from '../../support/scholar-server.ts';

let scholar: ScholarServer;
beforeEach(() => {
  scholar = startScholarServer({ papers: MA_CORPUS });
});
afterEach(() => scholar.stop());

const settings = (over: Partial<RetrievalSettings> = {}): RetrievalSettings => ({ backend: 'scholar_a', scholarAUrl: scholar.url, scholarAKey: null, scholarBUrl: scholar.url, timeoutS: 30, library: null, ...over });
const asked = () => scholar.requests.map((r) => r.query.get('query'));

describe('gatherLiterature', () => {
  test('n_papers over 100: the topic, then the titles it found, one query each, until enough or none left', async () => {
    const got = await gatherLiterature(MA_TOPIC, [], 800, settings());
    const first = (await gatherLiterature(MA_TOPIC, [], 100, settings())).papers;
    expect(got.queries[0]).toBe(MA_TOPIC);
    expect(got.queries.slice(1)).toEqual(first.map((p) => p.title));
    expect(asked().slice(0, got.queries.length)).toEqual(got.queries);
    // the titles found papers the topic alone did not
    expect(first.length).toBeLessThan(12);
    expect(got.papers.length).toBeGreaterThan(first.length);
    expect(new Set(got.papers.map((p) => p.title)).size).toBe(got.papers.length);
    expect(got.note).toBeUndefined();
  });

  test('n_papers up to 100: one query; at most 100 papers asked for', async () => {
    const got = await gatherLiterature(MA_TOPIC, [], 100, settings());
    expect(got.queries).toEqual([MA_TOPIC]);
    expect(scholar.requests).toHaveLength(1);
    expect(scholar.requests[0]?.query.get('limit')).toBe('100');
  });

  test("the caller's papers come first, each title once", async () => {
    const given = [{ title: 'Cache tiling for matrix multiplication', abstract: 'Given first.', url: 'u' }, { title: 'A paper the provider lacks', abstract: '', url: '' }];
    const got = await gatherLiterature(MA_TOPIC, given, 150, settings());
    expect(got.papers.slice(0, 2)).toEqual(given);
    expect(got.papers.filter((p) => p.title === given[0]!.title)).toHaveLength(1);
  });

  test('a provider that fails is not asked again; the note says what failed', async () => {
    scholar.push({ status: 500 });
    const given = [{ title: 'Given', abstract: '', url: '' }];
    const got = await gatherLiterature(MA_TOPIC, given, 800, settings());
    expect(scholar.requests).toHaveLength(1);
    expect(got.papers).toEqual(given);
    expect(got.note).toMatch(/^no papers: scholar_a \(Semantic Scholar\)/);
  });
});
