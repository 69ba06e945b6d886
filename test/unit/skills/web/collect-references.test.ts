import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectReferencesTool } from '../../../../src/skills/web/collect-references.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { type ScholarPaper, type ScholarServer, startScholarServer } from '../../../support/scholar-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../../../support/scripted-researcher.ts';
import { promptName } from '../../../support/scripted-request.ts';
import { closedPort, rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { webSandbox } from './web-fixture.ts';

const PAPERS: ScholarPaper[] = [
  { id: '2401.00001', title: 'Cache Tiling for GEMM', abstract: 'Tiles that fit the cache.', authors: ['Ada Lovelace'], year: 2024, doi: '10.1145/1.2' },
  { id: '2401.00002', title: 'Loop Tiling Revisited', abstract: null, authors: ['Grace Hopper'], year: 2023 },
  { id: '2401.00003', title: 'Adaptive Sorting of Presorted Inputs', abstract: 'Runs in the input.', authors: ['Edsger Dijkstra'], year: 1982 },
  { id: '2401.00004', title: 'Lower Bounds for Comparison Sorting', abstract: 'n log n comparisons.', authors: ['Donald Knuth'], year: 1973 },
  { id: '2401.00005', title: 'Shellsort Gap Sequences', abstract: 'Gaps.', authors: ['Donald Shell'], year: 1959 },
];
/** Words no paper above holds: the summary's own query finds nothing new. */
const SUMMARY = 'Blocked kernels on small machines: blocked kernels beat naive kernels on small machines.';

const { box, env } = webSandbox();
let scholar: ScholarServer;
let model: ModelServer;
beforeEach(() => {
  scholar = startScholarServer({ papers: PAPERS });
  model = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
});
afterEach(() => {
  model.stop();
  scholar.stop();
});

const runEnv = (extra: Record<string, string> = {}) =>
  env({ SVC_RETRIEVAL_BACKEND: 'scholar_a', SVC_SCHOLAR_A_URL: scholar.url, SVC_SCHOLAR_B_URL: scholar.url, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${model.url}/v1`, SVC_MODEL: 'scripted-researcher', ...extra });
const collect = (args: Record<string, unknown>, extra: Record<string, string> = {}) => callTool(collectReferencesTool, { experiment_summary: SUMMARY, keywords: 'cache tiling', ...args }, runEnv(extra));
const chats = () => model.requests.filter((r) => r.path === '/v1/chat/completions');
const written = () => JSON.parse(readFileSync(join(box().checkpoint, 'related_refs.json'), 'utf8'));

describe('collect_references_iterative', () => {
  test('keywords, then the summary, then the queries the model proposes, until min_papers; files written', async () => {
    const r = await collect({ min_papers: 4 });
    expect(r.rounds).toEqual([
      { round: 1, query: 'cache tiling', origin: 'keywords', found: 2, new: 2 },
      { round: 2, query: 'kernels blocked small machines', origin: 'summary', found: 0, new: 0 },
      { round: 3, query: 'adaptive sorting presortedness', origin: 'model', found: 2, new: 2 },
    ]);
    expect(chats().map((c) => promptName(c.body as OpenAIChatRequest))).toEqual(['web/next_queries']);
    expect(r).toMatchObject({ count: 4, min_papers: 4, complete: true, backend: 'scholar_a', stopped: 'enough', bib_file: join(box().checkpoint, 'refs.bib') });
    expect(r.note).toBeUndefined();
    expect(r.papers[0]).toEqual({
      cite_key: 'lovelace2024cache',
      title: 'Cache Tiling for GEMM',
      abstract: 'Tiles that fit the cache.',
      url: 'https://www.semanticscholar.org/paper/2401.00001',
      authors: ['Ada Lovelace'],
      year: 2024,
      venue: '',
      doi: '10.1145/1.2',
      arxiv_id: '2401.00001',
      found_by: 'cache tiling',
    });
    expect(written()).toEqual(r);
    const bib = readFileSync(r.bib_file, 'utf8');
    for (const p of r.papers) expect(bib).toContain(`@misc{${p.cite_key},`);
    // written whole: no temp file is left beside them
    expect(readdirSync(box().checkpoint).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  test('duplicates across rounds and backends are kept once', async () => {
    const r = await collect({ keywords: ['tiling', 'cache tiling', 'loop tiling'], min_papers: 10, max_rounds: 3 }, { SVC_RETRIEVAL_BACKEND: 'both' });
    expect(r.rounds.map((x: { query: string; found: number; new: number }) => [x.query, x.found, x.new])).toEqual([
      ['tiling', 2, 2],
      ['cache tiling', 2, 0],
      ['loop tiling', 2, 0],
    ]);
    expect(r.papers.map((p: { title: string }) => p.title)).toEqual(['Cache Tiling for GEMM', 'Loop Tiling Revisited']);
    expect(r).toMatchObject({ complete: false, stopped: 'max_rounds', note: 'found 2 of the 10 papers asked for in 3 rounds: max_rounds (3) was reached' });
  });

  test('a model that fails is noted and derived queries carry on; no model call stops the search', async () => {
    model.stop();
    const r = await collect({ keywords: 'tiling', min_papers: 3, max_rounds: 6 }, { LLM_API_BASE: `http://127.0.0.1:${closedPort()}/v1`, SVC_LLM_MAX_RETRIES: '0' });
    expect(r.rounds.map((x: { origin: string }) => x.origin)).toEqual(['keywords', 'summary', 'derived', 'derived', 'derived', 'derived']);
    expect(r.rounds[2].query).toBe('tiling kernels');
    expect(r.stopped).toBe('max_rounds');
    expect(r.note).toMatch(/^found 2 of the 3 papers asked for in 6 rounds: max_rounds \(6\) was reached; the model proposed no queries \(.+\); derived queries from the summary and keywords instead$/);
  });

  test('a replay that did not record the request, then every query tried: the rounds stop and say what would help', async () => {
    const cassette = join(box().dir, 'cassette.jsonl');
    writeFileSync(cassette, '');
    const r = await collect({ experiment_summary: '', keywords: 'tiling', min_papers: 5 }, { SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: cassette });
    expect(r.rounds.map((x: { query: string }) => x.query)).toEqual(['tiling']);
    expect(r.stopped).toBe('out_of_queries');
    expect(r.note).toMatch(/^found 2 of the 5 papers asked for in 1 round: every query there was \(from the keywords, the summary and the model\) was tried; give more or other keywords; the model proposed no queries \(replay diverged from the recording: the paper request to scripted-researcher that the cassette .* does not hold/);
  });

  test('offline: zero papers at once, a note, valid files, and the model is not asked', async () => {
    const started = Date.now();
    const r = await collect({}, { SVC_SCHOLAR_A_URL: `http://127.0.0.1:${closedPort()}` });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r).toMatchObject({ papers: [], count: 0, complete: false, stopped: 'offline', offline: true });
    expect(r.rounds).toHaveLength(1);
    expect(r.note).toMatch(/^found 0 of the 10 papers asked for in 1 round: the literature search could not be reached, so the rounds stopped \(the paper goes on with no references\); no papers: scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ is not reachable/);
    expect(chats()).toEqual([]);
    expect(written()).toEqual(r);
    expect(readFileSync(join(box().checkpoint, 'refs.bib'), 'utf8')).not.toContain('@');
  });

  test('one backend down, the other answering: the rounds go on with a note', async () => {
    const r = await collect({ min_papers: 2 }, { SVC_RETRIEVAL_BACKEND: 'both', SVC_SCHOLAR_B_URL: `http://127.0.0.1:${closedPort()}` });
    expect(r).toMatchObject({ count: 2, stopped: 'enough', complete: true });
    expect(r.rounds[0].errors[0]).toMatch(/^scholar_b \(arXiv\): 127\.0\.0\.1:\d+ is not reachable/);
    expect(r.note).toMatch(/continuing with the papers of Semantic Scholar/);
  });

  test("offline with the researcher's library: its papers under their own keys in refs.bib, the dead provider asked once", async () => {
    const bib = readFileSync(join(import.meta.dir, '../../../../examples/demo/library.bib'), 'utf8');
    writeFileSync(join(box().checkpoint, 'library.bib'), bib);
    writeFileSync(join(box().checkpoint, 'workflow.yaml'), 'retrieval:\n  backend: scholar_a\n  library: library.bib\n');
    const r = await collect({ experiment_summary: 'Shell sort gap sequences with a geometric ratio', keywords: 'shell sort, gap sequence', max_rounds: 4 }, { SVC_SCHOLAR_A_URL: `http://127.0.0.1:${closedPort()}` });
    expect(r.offline).toBeUndefined();
    expect(r.count).toBe(8);
    expect(r.papers.map((p: { cite_key: string }) => p.cite_key)).toContain('ciura2001');
    expect(r.rounds[0].errors[0]).toMatch(/^scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ is not reachable/);
    expect(r.rounds.slice(1).every((x: { errors?: string[] }) => x.errors === undefined)).toBe(true);
    expect(r.note).toMatch(/^found 8 of the 10 papers asked for in \d+ rounds?: .*continuing with the papers of your library/);
    const refs = readFileSync(join(box().checkpoint, 'refs.bib'), 'utf8');
    expect(refs).toContain('@inproceedings{ciura2001,\n  author = {Ciura, Marcin},\n  title = {Best Increments for the Average Case of {Shellsort}},');
    expect(refs).toContain('@phdthesis{pratt1972,');
    expect(refs).not.toContain('keywords');
  });

  test('rate-limited past the timeout: the rounds stop at once with the papers so far', async () => {
    scholar.push({ status: 429, retryAfter: 600 });
    const r = await collect({}, { SVC_RETRIEVAL_TIMEOUT_S: '3' });
    expect(r).toMatchObject({ count: 0, stopped: 'rate_limited' });
    expect(r.note).toMatch(/^found 0 of the 10 papers asked for in 1 round: the literature search kept answering "too many requests", so the rounds stopped; no papers: scholar_a \(Semantic Scholar\): 127\.0\.0\.1:\d+ answered 429/);
  });

  test('without SVC_CHECKPOINT_DIR the result says the files were not written', async () => {
    const e = runEnv();
    delete e.SVC_CHECKPOINT_DIR;
    const r = await callTool(collectReferencesTool, { experiment_summary: SUMMARY, keywords: 'tiling', min_papers: 1 }, e);
    expect(r).toMatchObject({ count: 2, bib_file: null, note: 'SVC_CHECKPOINT_DIR is not set, so related_refs.json and refs.bib were not written' });
    expect(existsSync(join(box().checkpoint, 'related_refs.json'))).toBe(false);
  });

  test('bad arguments are refused before any search', async () => {
    expect((await rejection(collect({ experiment_summary: ' ', keywords: ' , ' }))).message).toBe('collect_references_iterative: experiment_summary and keywords are both empty');
    expect((await rejection(collect({ max_rounds: 0 }))).message).toBe('collect_references_iterative: max_rounds must be an integer from 1 to 100, got 0');
    expect((await rejection(collect({ min_papers: 201 }))).message).toBe('collect_references_iterative: min_papers must be an integer from 1 to 200, got 201');
    expect((await rejection(callTool(collectReferencesTool, { experiment_summary: SUMMARY }, runEnv()))).message).toBe("collect_references_iterative: missing argument 'keywords'");
    expect(scholar.requests).toEqual([]);
    expect(existsSync(join(box().checkpoint, 'related_refs.json'))).toBe(false);
  });
});
