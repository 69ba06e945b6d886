import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { type ScholarServer, startScholarServer } from '../support/scholar-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { promptName } from '../support/scripted-request.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';

// The bundled workflow's search_related_work stage, run by svc paper as after a search: it was
// "unavailable" before the web skill existed.

let dir: string;
let run: string;
let scholar: ScholarServer;
let model: ModelServer;
beforeEach(() => {
  dir = tempDir();
  run = join(dir, 'workspace', 'checkpoints', '20260101000000_sort');
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'experiment.md'), '# Fewer comparisons\n\nSort a seeded array of 1000 numbers with as few comparisons as possible.\n');
  writeFileSync(join(run, 'idea.json'), JSON.stringify({ ideas: [{ title: 'Binary insertion sort', description: 'Find each slot by binary search.' }], primary_metric: 'comparisons' }));
  writeFileSync(join(run, 'tree.json'), JSON.stringify({ run_id: '20260101000000_sort', nodes: [{ id: 'n1', status: 'success', has_real_data: true, metrics: { _scientific_score: 0.7, comparisons: 8700 } }] }));
  scholar = startScholarServer({
    papers: [
      { id: '1', title: 'Binary Insertion Sort Revisited', abstract: 'Insertion with binary search.', authors: ['Ada Lovelace'], year: 2001 },
      { id: '2', title: 'Adaptive Sorting of Presorted Inputs', abstract: 'Runs.', authors: ['Edsger Dijkstra'], year: 1982 },
      { id: '3', title: 'Comparison Sorting Lower Bounds', abstract: 'n log n.', authors: ['Donald Knuth'], year: 1973 },
    ],
  });
  model = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
});
afterEach(() => {
  model.stop();
  scholar.stop();
  removeDir(dir);
});

const env = (extra: Record<string, string> = {}) => ({ SVC_ROOT: dir, SVC_SCHOLAR_A_URL: scholar.url, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${model.url}/v1`, SVC_MODEL: 'scripted-researcher', ...extra });

describe('the search_related_work stage of the bundled workflow', () => {
  test('runs: its keywords and context come from the checkpoint, the paper model proposes more queries, related_refs.json and refs.bib are written', async () => {
    const r = await svc(['paper', run, '--stage', 'search_related_work'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`search_related_work: done (${join(run, 'related_refs.json')})`);
    const refs = JSON.parse(readFileSync(join(run, 'related_refs.json'), 'utf8'));
    // the keywords the pre-flight asked of the paper model come first
    expect(refs.rounds.slice(0, 2).map((x: { query: string; origin: string }) => [x.query, x.origin])).toEqual([
      ['Shell sort gap sequence', 'keywords'],
      ['geometric gap ratio', 'keywords'],
    ]);
    expect(refs.rounds.some((x: { origin: string }) => x.origin === 'model')).toBe(true);
    // the model ran out of queries to propose (an empty list): that is an answer, not a failure
    expect(refs.note).not.toContain('the model proposed no queries');
    const asked = model.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => promptName(q.body as OpenAIChatRequest));
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set(['pipeline/keywords', 'web/next_queries']));
    expect(refs.papers.map((p: { title: string }) => p.title).sort()).toEqual(['Adaptive Sorting of Presorted Inputs', 'Binary Insertion Sort Revisited', 'Comparison Sorting Lower Bounds']);
    const bib = readFileSync(join(run, 'refs.bib'), 'utf8');
    for (const p of refs.papers) expect(bib).toContain(`@misc{${p.cite_key},`);
    // a cost ledger line for each model call, in the run's checkpoint
    expect(readFileSync(join(run, 'cost_trace.jsonl'), 'utf8').trim().split('\n')).toHaveLength(asked.length);
  });

  test('offline: done with zero papers and a note; run again, its usable output skips it', async () => {
    const r = await svc(['paper', run], { cwd: dir, env: env({ SVC_SCHOLAR_A_URL: 'http://127.0.0.1:9' }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('search_related_work: done');
    expect(r.stderr).not.toContain('search_related_work: unavailable');
    const refs = JSON.parse(readFileSync(join(run, 'related_refs.json'), 'utf8'));
    expect(refs).toMatchObject({ papers: [], count: 0, offline: true, stopped: 'offline' });
    expect(refs.note).toMatch(/^found 0 of the 10 papers asked for in 1 round: the literature search could not be reached/);
    // offline, only the keywords were asked of the model: no literature came back to ask more about
    expect(model.requests.map((r) => promptName(r.body as OpenAIChatRequest))).toEqual(['pipeline/keywords']);
    const again = await svc(['paper', run, '--stage', 'search_related_work'], { cwd: dir, env: env({ SVC_SCHOLAR_A_URL: 'http://127.0.0.1:9' }) });
    expect(again.stderr).toContain(`search_related_work: skipped (${join(run, 'related_refs.json')} is already there; delete it to run the stage again)`);
  });
});
