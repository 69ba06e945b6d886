import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { searchArxivTool, searchPapersTool, searchScholarTool } from '../../../../src/skills/web/literature.ts';
import { setRetrievalBackendTool } from '../../../../src/skills/web/retrieval.ts';
import { type ScholarPaper, type ScholarServer, startScholarServer } from '../../../support/scholar-server.ts';
import { closedPort, rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { webSandbox } from './web-fixture.ts';

const PAPERS: ScholarPaper[] = [
  { id: '2401.00001', title: 'Cache Tiling for Matrix Multiplication', abstract: 'Tiles fit the cache.', authors: ['Ada Lovelace', 'Alan Turing'], year: 2024, venue: 'SC', doi: '10.1145/1234.5678' },
  { id: '2401.00002', title: 'Loop Blocking Revisited', abstract: null, authors: ['Grace Hopper'], year: 2023 },
  { id: '2401.00003', title: 'Autotuning Tile Sizes', abstract: 'Search over tile sizes.', authors: ['Edsger Dijkstra'], year: 2022 },
];

const { env } = webSandbox();
let server: ScholarServer;
beforeEach(() => {
  server = startScholarServer({ papers: PAPERS });
});
afterEach(() => server.stop());

const retrievalEnv = (extra: Record<string, string> = {}) => env({ SVC_SCHOLAR_A_URL: server.url, SVC_SCHOLAR_B_URL: server.url, ...extra });

describe('search_arxiv', () => {
  test('asks the arXiv API only, whatever the backend, and returns what a citation needs', async () => {
    const r = await callTool(searchArxivTool, { query: 'cache tiling' }, retrievalEnv({ SVC_RETRIEVAL_BACKEND: 'scholar_a' }));
    expect(server.requests.map((q) => q.path)).toEqual(['/api/query']);
    expect(server.requests[0]?.query.get('max_results')).toBe('5');
    expect(r.query).toBe('cache tiling');
    expect(r.papers[0]).toEqual({
      title: 'Cache Tiling for Matrix Multiplication',
      abstract: 'Tiles fit the cache.',
      url: 'http://arxiv.org/abs/2401.00001v1',
      authors: ['Ada Lovelace', 'Alan Turing'],
      year: 2024,
      venue: 'SC',
      doi: '10.1145/1234.5678',
      arxiv_id: '2401.00001',
    });
    expect(r.sources).toEqual([{ backend: 'scholar_b', provider: 'arXiv', url: server.url, papers: 1 }]);
  });
});

describe('search_scholar', () => {
  test('the query, then each extra query, up to limit papers each, each paper once', async () => {
    const r = await callTool(searchScholarTool, { query: 'tiling', limit: 2, extra_queries: ['blocking', ' ', 'autotuning'] }, retrievalEnv());
    expect(server.requests.map((q) => [q.path, q.query.get('query'), q.query.get('limit')])).toEqual([
      ['/graph/v1/paper/search', 'tiling', '2'],
      ['/graph/v1/paper/search', 'blocking', '2'],
      ['/graph/v1/paper/search', 'autotuning', '2'],
    ]);
    expect(server.requests[0]?.query.get('fields')).toBe('title,abstract,url,year,venue,authors,externalIds');
    expect(r.queries).toEqual(['tiling', 'blocking', 'autotuning']);
    expect(r.papers.map((p: { title: string }) => p.title)).toEqual(['Cache Tiling for Matrix Multiplication', 'Loop Blocking Revisited', 'Autotuning Tile Sizes']);
    expect(r.papers[1]).toEqual({ title: 'Loop Blocking Revisited', abstract: '', url: 'https://www.semanticscholar.org/paper/2401.00002', authors: ['Grace Hopper'], year: 2023, venue: '', doi: '', arxiv_id: '2401.00002' });
    expect(r.note).toBeUndefined();
  });

  test('a 429 is retried after its Retry-After; one past the timeout is a note, and the extra queries are not sent', async () => {
    server.push({ status: 429, retryAfter: 1 });
    const started = Date.now();
    const ok = await callTool(searchScholarTool, { query: 'tile' }, retrievalEnv());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(ok.papers).toHaveLength(2);

    server.requests.length = 0;
    server.push({ status: 429, retryAfter: 120 });
    const limited = await callTool(searchScholarTool, { query: 'tiling', extra_queries: ['blocking'] }, retrievalEnv({ SVC_RETRIEVAL_TIMEOUT_S: '5' }));
    expect(server.requests).toHaveLength(1);
    expect(limited).toMatchObject({ papers: [], offline: true });
    expect(limited.note).toMatch(/^no papers: scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ answered 429 \(rate limited\) 1 time, last asking to wait 120 s; continuing without literature \(set SVC_SCHOLAR_A_API_KEY for a higher Semantic Scholar rate limit, or raise SVC_RETRIEVAL_TIMEOUT_S\); 1 query was not searched/);
  });

  test('too many extra queries is an error', async () => {
    expect((await rejection(callTool(searchScholarTool, { query: 'x', extra_queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, retrievalEnv()))).message).toBe('search_scholar: at most 5 extra_queries, got 6');
  });
});

describe('search_papers', () => {
  test('both backends merged, each paper once', async () => {
    const r = await callTool(searchPapersTool, { query: 'tile blocking' }, retrievalEnv({ SVC_RETRIEVAL_BACKEND: 'both' }));
    expect(r.backend).toBe('both');
    expect(r.sources.map((s: { backend: string; papers: number }) => [s.backend, s.papers])).toEqual([
      ['scholar_a', 3],
      ['scholar_b', 3],
    ]);
    expect(r.papers.map((p: { title: string }) => p.title).sort()).toEqual(PAPERS.map((p) => p.title).sort());
    expect(server.requests.find((q) => q.path === '/graph/v1/paper/search')?.query.get('limit')).toBe('10');
  });

  test('a server that does not answer in time, or a closed port, gives zero papers and a note, promptly', async () => {
    server.push({ delayMs: 5000 });
    const started = Date.now();
    const slow = await callTool(searchPapersTool, { query: 'tiling' }, retrievalEnv({ SVC_RETRIEVAL_TIMEOUT_S: '1' }));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(slow).toMatchObject({ papers: [], offline: true, note: expect.stringMatching(/^no papers: scholar_a \(Semantic Scholar\): no answer from 127\.0\.0\.1:\d+ before the timeout/) });

    const closed = await callTool(searchPapersTool, { query: 'tiling' }, retrievalEnv({ SVC_RETRIEVAL_BACKEND: 'scholar_b', SVC_SCHOLAR_B_URL: `http://127.0.0.1:${closedPort()}` }));
    expect(closed).toMatchObject({ backend: 'scholar_b', papers: [], offline: true, note: expect.stringContaining('is not reachable') });
  });

  test('bad arguments: an empty query, too many results', async () => {
    expect((await rejection(callTool(searchPapersTool, { query: ' ' }, retrievalEnv()))).message).toBe('search_papers: query is empty');
    expect((await rejection(callTool(searchArxivTool, { query: 'x', max_results: 101 }, retrievalEnv()))).message).toBe('search_arxiv: max_results must be an integer from 1 to 100, got 101');
  });
});

describe('set_retrieval_backend', () => {
  // switching is shown through a real skill process (test/e2e/web-skill.test.ts): it lasts for the process
  test('a value other than scholar_a, scholar_b or both is refused, naming them', async () => {
    const err = await rejection(callTool(setRetrievalBackendTool, { backend: 'google' }, retrievalEnv()));
    expect(err.message).toBe("set_retrieval_backend: backend must be scholar_a, scholar_b or both, got 'google'");
  });
});
