import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import type { RetrievalSettings } from '../../../src/ideas/retrieval-settings.ts';
import { searchPaperRecords, survey } from '../../../src/ideas/survey.ts';
import { type ScholarPaper, type ScholarServer, startScholarServer } from '../../support/scholar-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { closedPort, rejection } from '../llm/helpers.ts';

const PAPERS: ScholarPaper[] = [
  { id: '2401.00001', title: 'Sparse Attention for Long Sequences', abstract: 'We make attention sparse.' },
  { id: '2401.00002', title: 'Cache-Aware Matrix Multiplication', abstract: 'Blocking for caches in matrix kernels.' },
  { id: '2401.00003', title: 'Attention Is Cheap: Linear Kernels', abstract: null },
];

let a: ScholarServer;
let b: ScholarServer;
beforeEach(() => {
  a = startScholarServer({ papers: PAPERS });
  b = startScholarServer({ papers: [...PAPERS.slice(2), { id: '2402.00009', title: 'Attention on Graphs', abstract: 'Graph attention.' }] });
});
afterEach(() => {
  a.stop();
  b.stop();
});

const settings = (over: Partial<RetrievalSettings> = {}): RetrievalSettings => ({ backend: 'scholar_a', scholarAUrl: a.url, scholarAKey: null, scholarBUrl: b.url, timeoutS: 10, library: null, ...over });

describe('survey through Semantic Scholar (scholar_a)', () => {
  test('asks the Graph API search with query, limit and fields and returns {title, abstract, url}', async () => {
    const r = await survey('sparse attention', 8, settings());
    expect(a.requests).toHaveLength(1);
    const req = a.requests[0]!;
    expect(req.path).toBe('/graph/v1/paper/search');
    expect(req.query.get('query')).toBe('sparse attention');
    expect(req.query.get('limit')).toBe('8');
    expect(req.query.get('fields')).toBe('title,abstract,url');
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(r.papers).toEqual([
      { title: 'Sparse Attention for Long Sequences', abstract: 'We make attention sparse.', url: 'https://www.semanticscholar.org/paper/2401.00001' },
      { title: 'Attention Is Cheap: Linear Kernels', abstract: '', url: 'https://www.semanticscholar.org/paper/2401.00003' },
    ]);
    expect(r.sources).toEqual([{ backend: 'scholar_a', provider: 'Semantic Scholar', url: a.url, papers: 2 }]);
    expect(r.offline).toBeUndefined();
    expect(r.note).toBeUndefined();
  });

  test('sends the key in x-api-key when there is one', async () => {
    a.stop();
    a = startScholarServer({ papers: PAPERS, apiKey: 'k-123' });
    const r = await survey('attention', 8, settings({ scholarAUrl: a.url, scholarAKey: 'k-123' }));
    expect(a.requests[0]?.headers['x-api-key']).toBe('k-123');
    expect(r.papers).toHaveLength(2);
  });

  test('a wrong key is a 403 noted, not thrown', async () => {
    a.stop();
    a = startScholarServer({ papers: PAPERS, apiKey: 'k-123' });
    const r = await survey('attention', 8, settings({ scholarAUrl: a.url, scholarAKey: 'wrong' }));
    expect(r.papers).toEqual([]);
    expect(r.offline).toBe(true);
    expect(r.sources[0]).toMatchObject({ error: expect.stringMatching(/answered 403: \{"message":"Forbidden"\}/), error_kind: 'http' });
    expect(r.note).toMatch(/\(check SVC_SCHOLAR_A_API_KEY, or unset it to use the public rate limit\)$/);
  });

  test('a 429 with Retry-After is waited out and asked again', async () => {
    a.push({ status: 429, retryAfter: 1 });
    const r = await survey('attention', 8, settings());
    expect(a.requests).toHaveLength(2);
    expect(r.papers).toHaveLength(2);
    expect(r.note).toBeUndefined();
  });

  test('a Retry-After beyond the timeout gives up at once and says so, with the key as the fix', async () => {
    a.push({ status: 429, retryAfter: 3600 });
    const r = await survey('attention', 8, settings());
    expect(a.requests).toHaveLength(1);
    expect(r).toMatchObject({ papers: [], offline: true });
    expect(r.note).toMatch(/^no papers: scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ answered 429 \(rate limited\) 1 time, last asking to wait 3600 s; continuing without literature \(set SVC_SCHOLAR_A_API_KEY/);
  });

  test('429 on every attempt stops after two retries', async () => {
    a.push({ status: 429, retryAfter: 0 }, { status: 429, retryAfter: 0 }, { status: 429, retryAfter: 0 });
    const r = await survey('attention', 8, settings());
    expect(a.requests).toHaveLength(3);
    expect(r.sources[0]).toMatchObject({ error: expect.stringMatching(/answered 429 \(rate limited\) 3 times/), error_kind: 'rate_limited' });
  });

  test('no match at all ({total: 0} without data) is zero papers, not a failure', async () => {
    const r = await survey('quantum chromodynamics', 8, settings());
    expect(r).toEqual({ papers: [], sources: [{ backend: 'scholar_a', provider: 'Semantic Scholar', url: a.url, papers: 0 }] });
  });

  test('an answer that is not JSON is noted', async () => {
    a.push({ raw: '<html>gateway</html>', contentType: 'text/html' });
    const r = await survey('attention', 8, settings());
    expect(r.offline).toBe(true);
    expect(r.note).toContain('Semantic Scholar answered something that is not JSON');
  });
});

describe('survey through arXiv (scholar_b)', () => {
  test('asks the Atom export API and reads title, summary and the abs URL', async () => {
    const r = await survey('Attention graphs', 5, settings({ backend: 'scholar_b' }));
    const req = b.requests[0]!;
    expect(req.path).toBe('/api/query');
    expect(req.query.get('search_query')).toBe('all:attention OR all:graphs');
    expect(req.query.get('max_results')).toBe('5');
    expect(r.papers).toEqual([
      { title: 'Attention Is Cheap: Linear Kernels', abstract: '', url: 'http://arxiv.org/abs/2401.00003v1' },
      { title: 'Attention on Graphs', abstract: 'Graph attention.', url: 'http://arxiv.org/abs/2402.00009v1' },
    ]);
    expect(r.sources).toEqual([{ backend: 'scholar_b', provider: 'arXiv', url: b.url, papers: 2 }]);
  });

  test('a 503 (arXiv\'s way of rate limiting) is retried after its Retry-After', async () => {
    b.push({ status: 503, retryAfter: 0 });
    const r = await survey('attention', 5, settings({ backend: 'scholar_b' }));
    expect(b.requests).toHaveLength(2);
    expect(r.papers).toHaveLength(2);
  });

  test('a 503 past the timeout suggests a longer timeout, not a key', async () => {
    b.push({ status: 503, retryAfter: 600 });
    const r = await survey('attention', 5, settings({ backend: 'scholar_b' }));
    expect(r.note).toMatch(/arXiv\): 127\.0\.0\.1:\d+ answered 503 \(rate limited\) 1 time, last asking to wait 600 s; continuing without literature \(raise SVC_RETRIEVAL_TIMEOUT_S or try again later\)$/);
  });

  test('an error entry in the feed is noted', async () => {
    b.push({ raw: '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#bad</id><title>Error</title><summary>bad query</summary></entry></feed>' });
    const r = await survey('attention', 5, settings({ backend: 'scholar_b' }));
    expect(r.offline).toBe(true);
    expect(r.note).toContain('arXiv refused the query: bad query');
    expect(r.note).toContain('SVC_SCHOLAR_B_URL or retrieval.endpoint');
  });
});

describe('survey through both', () => {
  test('merges the two, each normalized title once, filling a missing abstract', async () => {
    b.stop();
    b = startScholarServer({ papers: [{ id: '2402.00009', title: 'Attention on Graphs', abstract: 'Graph attention.' }, { id: '2401.00003', title: 'attention is cheap -- linear kernels', abstract: 'Linear attention.' }] });
    const r = await survey('attention', 8, settings({ backend: 'both', scholarBUrl: b.url }));
    // the two lists are taken in turn: a1, b1, a2 (no abstract), b2 (the same title: lends its abstract)
    expect(r.papers.map((p) => p.title)).toEqual(['Sparse Attention for Long Sequences', 'Attention on Graphs', 'Attention Is Cheap: Linear Kernels']);
    expect(r.papers[2]).toEqual({ title: 'Attention Is Cheap: Linear Kernels', abstract: 'Linear attention.', url: 'https://www.semanticscholar.org/paper/2401.00003' });
    expect(r.sources.map((s) => [s.backend, s.papers])).toEqual([['scholar_a', 2], ['scholar_b', 2]]);
  });

  test('max_papers caps the merged list', async () => {
    const r = await survey('attention', 2, settings({ backend: 'both' }));
    expect(r.papers).toHaveLength(2);
    expect(a.requests[0]?.query.get('limit')).toBe('2');
    expect(b.requests[0]?.query.get('max_results')).toBe('2');
  });

  test('one backend down: the other one\'s papers and a note naming the one that failed', async () => {
    const r = await survey('attention', 8, settings({ backend: 'both', scholarAUrl: `http://127.0.0.1:${closedPort()}` }));
    expect(r.offline).toBeUndefined();
    expect(r.papers.map((p) => p.title)).toEqual(['Attention Is Cheap: Linear Kernels', 'Attention on Graphs']);
    expect(r.note).toMatch(/^scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ is not reachable .*; continuing with the papers of arXiv \(check the network or SVC_SCHOLAR_A_URL/);
  });
});

describe("the researcher's library", () => {
  const dir = tempDir('svc-survey-lib-');
  afterAll(() => removeDir(dir));
  const library = join(dir, 'lib.bib');
  writeFileSync(library, '@article{mine2020, author={Me, Myself}, title={Attention Is Cheap: Linear Kernels}, journal={J. Mine}, year=2020}\n@book{other, title={Gardening for attention spans}, year=1999}\n');

  test('searched beside the backend and first: a paper both have is cited as the library has it', async () => {
    const r = await searchPaperRecords('search_papers', 'attention kernels', 8, settings({ library }));
    expect(r.sources.map((s) => [s.backend, s.provider, s.papers])).toEqual([['library', 'your library', 1], ['scholar_a', 'Semantic Scholar', 3]]);
    expect(r.papers[0]).toMatchObject({ title: 'Attention Is Cheap: Linear Kernels', venue: 'J. Mine', year: 2020, library: { key: 'mine2020', type: 'article' } });
    expect(r.papers.map((p) => p.title)).toEqual(['Attention Is Cheap: Linear Kernels', 'Sparse Attention for Long Sequences', 'Cache-Aware Matrix Multiplication']);
    // the provider's copy lends what the library's lacks
    expect(r.papers[0]?.url).toBe('https://www.semanticscholar.org/paper/2401.00003');
  });

  test('offline, the library still answers: not offline, and the note names what failed and what answered', async () => {
    const r = await survey('attention kernels', 8, settings({ library, scholarAUrl: `http://127.0.0.1:${closedPort()}` }));
    expect(r.offline).toBeUndefined();
    // the survey's shape: what a model reads of a paper, not the library's entry
    expect(r.papers).toEqual([{ title: 'Attention Is Cheap: Linear Kernels', abstract: '', url: '' }]);
    expect(r.note).toMatch(/^scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ is not reachable .*; continuing with the papers of your library \(check the network/);
  });

  test('a broken library is reported as a source, with its fix, and the backend answers', async () => {
    const broken = join(dir, 'broken.bib');
    writeFileSync(broken, '@article{a, title={A}\n');
    const r = await survey('attention', 8, settings({ library: broken }));
    expect(r.papers).toHaveLength(2);
    expect(r.sources[0]).toMatchObject({ backend: 'library', papers: 0, error_kind: 'bad_answer' });
    expect(r.note).toMatch(/^library \(your library\): the library .*broken\.bib:1:1 is not valid BibTeX.*continuing with the papers of Semantic Scholar \(fix the file retrieval\.library names\)$/);
  });

  test('a search of one named backend leaves the library out', async () => {
    const r = await searchPaperRecords('search_arxiv', 'attention', 8, settings({ library }), { backends: ['scholar_b'] });
    expect(r.sources.map((s) => s.backend)).toEqual(['scholar_b']);
  });
});

describe('offline', () => {
  test('an unreachable backend gives zero papers, offline and a note with the fix', async () => {
    const r = await survey('attention', 8, settings({ scholarAUrl: `http://127.0.0.1:${closedPort()}` }));
    expect(r.papers).toEqual([]);
    expect(r.offline).toBe(true);
    expect(r.sources[0]?.error).toMatch(/is not reachable/);
    expect(r.note).toMatch(/^no papers: scholar_a \(Semantic Scholar\): .* continuing without literature \(check the network or SVC_SCHOLAR_A_URL, or choose another backend with SVC_RETRIEVAL_BACKEND\)$/);
  });

  test('a server that does not answer in time counts as offline', async () => {
    a.push({ delayMs: 5000 });
    b.push({ delayMs: 5000 });
    const r = await survey('attention', 8, settings({ backend: 'both', timeoutS: 0.3 }));
    expect(r.offline).toBe(true);
    expect(r.sources.map((s) => s.error)).toEqual([expect.stringMatching(/no answer from .* before the timeout/), expect.stringMatching(/no answer from .* before the timeout/)]);
  });

  test('a cancelled survey stops with the cancellation, not a note', async () => {
    a.push({ delayMs: 5000 });
    const ctl = new AbortController();
    const p = survey('attention', 8, settings(), ctl.signal);
    setTimeout(() => ctl.abort(new Error('cancelled by the caller')), 50);
    expect((await rejection(p)).message).toBe('cancelled by the caller');
  });
});

describe('bad inputs', () => {
  test.each([
    ['', 8, /survey: topic is empty/],
    ['  ', 8, /survey: topic is empty/],
    ['attention', 0, /max_papers must be an integer from 1 to 100, got 0/],
    ['attention', 101, /got 101/],
    ['attention', 2.5, /got 2.5/],
  ])('survey(%p, %p) is an InputError', async (topic, max, msg) => {
    const err = await rejection(survey(topic, max, settings()));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(msg);
    expect(a.requests).toHaveLength(0);
  });
});
