import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledWorkflow } from '../../../../src/core/config/workflow.ts';
import { BUILTIN_SKILLS, loadSkill } from '../../../../src/skills/catalog.ts';
import { generateIdeasTool } from '../../../../src/skills/idea/generate-ideas.ts';
import { surveyTool } from '../../../../src/skills/idea/survey.ts';
import { ideaModelReply } from '../../../support/idea-ma-responder.ts';
import { ideaLoopScript } from '../../../support/idea-model-responder.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { type ScholarServer, startScholarServer } from '../../../support/scholar-server.ts';
import { type Sandbox, closedPort, rejection, sandbox } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';

let box: Sandbox;
let scholar: ScholarServer;
let model: ModelServer;
beforeEach(() => {
  box = sandbox();
  scholar = startScholarServer({ papers: [{ id: '2401.1', title: 'Cache Tiling', abstract: 'Tiles.' }] });
  model = startModelServer();
});
afterEach(() => {
  model.stop();
  scholar.stop();
  box.close();
});

/** A skill process's environment: the sandbox project, the run's checkpoint, the local servers. */
const env = (extra: Record<string, string> = {}) => ({
  HOME: join(box.dir, 'home'),
  SVC_ROOT: box.project,
  SVC_CHECKPOINT_DIR: box.checkpoint,
  SVC_SCHOLAR_A_URL: scholar.url,
  SVC_SCHOLAR_B_URL: scholar.url,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${model.url}/v1`,
  SVC_MODEL: 'idea-model',
  ...extra,
});

describe('idea-skill in the catalogue', () => {
  test('served as idea-skill with survey and generate_ideas, phase bfts, using a model', async () => {
    expect(BUILTIN_SKILLS.has('idea-skill')).toBe(true);
    const skill = await loadSkill('idea-skill');
    expect(skill?.name).toBe('idea-skill');
    expect(skill?.phases).toEqual(['bfts']);
    expect(skill?.usesModel).toBe(true);
    expect(skill?.tools.map((t) => t.name)).toEqual(['survey', 'generate_ideas']);
  });

  test('the bundled workflow names it as a built-in skill of phase bfts', () => {
    expect(bundledWorkflow().skills.find((s) => s.name === 'idea-skill')).toMatchObject({ path: 'builtin', phase: 'bfts' });
  });
});

describe('survey tool', () => {
  test('max_papers defaults to 8; the backend comes from SVC_RETRIEVAL_BACKEND', async () => {
    const r = await callTool(surveyTool, { topic: 'cache tiling' }, env({ SVC_RETRIEVAL_BACKEND: 'both' }));
    expect(scholar.requests.map((q) => q.path).sort()).toEqual(['/api/query', '/graph/v1/paper/search']);
    expect(scholar.requests.find((q) => q.path === '/graph/v1/paper/search')?.query.get('limit')).toBe('8');
    expect(r.papers).toEqual([{ title: 'Cache Tiling', abstract: 'Tiles.', url: 'https://www.semanticscholar.org/paper/2401.1' }]);
    expect(r.sources.map((s: { backend: string }) => s.backend)).toEqual(['scholar_a', 'scholar_b']);
  });

  test('offline: zero papers and a note, not an error', async () => {
    const r = await callTool(surveyTool, { topic: 'cache tiling' }, env({ SVC_SCHOLAR_A_URL: `http://127.0.0.1:${closedPort()}` }));
    expect(r).toMatchObject({ papers: [], offline: true });
    expect(r.note).toMatch(/^no papers: scholar_a/);
  });

  test('a mistyped max_papers is refused by the argument check', async () => {
    await expect(callTool(surveyTool, { topic: 'x', max_papers: 'many' }, env())).rejects.toThrow(/max_papers/);
  });
});

describe('generate_ideas tool', () => {
  test('defaults (3 ideas, 4 agents, 2 rounds): 13 model calls, the idea file, and the ledger in the checkpoint', async () => {
    model.push(...ideaLoopScript(4, 2, [[0.5, 0.5, 0.5], [0.6, 0.6, 0.6], [0.7, 0.7, 0.7]]));
    const r = await callTool(generateIdeasTool, { topic: 'cache tiling', papers: [{ title: 'Cache Tiling' }] }, env({ SVC_CURRENT_NODE_ID: 'node_x_root' }));
    expect(model.requests.filter((q) => q.path === '/v1/chat/completions')).toHaveLength(13);
    expect(r).toMatchObject({ n_agents: 4, discussion_rounds: 2, papers_analyzed: 1, ma_integration_status: 'reimpl', primary_metric: 'gflops' });
    expect(r.ideas.map((i: { overall_score: number }) => i.overall_score)).toEqual([0.7, 0.6, 0.5]);
    const ledger = join(box.checkpoint, 'cost_trace.jsonl');
    expect(existsSync(ledger)).toBe(true);
    const first = JSON.parse(readFileSync(ledger, 'utf8').split('\n')[0]!);
    expect(first).toMatchObject({ phase: 'idea', component: 'idea', op: 'propose', node_id: 'node_x_root', model: 'idea-model' });
  });

  test('SVC_IDEA_MA_REAL on: the multi-agent engine runs with the SVC_IDEA_MA_* settings; idea.json says real_wrap, idea_teams.json holds the discussion', async () => {
    model.stop();
    model = startModelServer([], { respond: ideaModelReply });
    const ma = { SVC_IDEA_MA_REAL: 'on', SVC_IDEA_MA_EMBED_MODEL: 'scripted-embed', SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2', SVC_IDEA_MA_N_AUTHORS: '3', SVC_IDEA_MA_N_PAPERS: '10', SVC_IDEA_MA_MAX_TEAMS: '2' };
    const papers = [{ title: 'Cache Tiling' }, { title: 'Shell sort gap sequences', abstract: 'Fewer comparisons.' }, { title: 'Warmup schedules', abstract: 'Stable training.' }];
    const r = await callTool(generateIdeasTool, { topic: 'cache tiling', papers, n_ideas: 1 }, env({ ...ma, LLM_API_BASE: `${model.url}/v1`, SVC_CURRENT_NODE_ID: 'node_x_root' }));
    // three papers (the survey's one among them) make three authors: two teams of two, the best idea kept
    expect(r).toMatchObject({ ma_integration_status: 'real_wrap', n_agents: 2, discussion_rounds: 2, papers_analyzed: 3 });
    expect(r.ideas).toHaveLength(1);
    expect(model.requests.filter((q) => q.path === '/v1/chat/completions')).toHaveLength(2 * 2 * 2 + 1);
    const teams = JSON.parse(readFileSync(join(box.checkpoint, 'idea_teams.json'), 'utf8'));
    expect(teams.settings).toEqual({ k: 2, team_size: 2, n_authors: 3, n_papers: 10, max_teams: 2, embed_model: 'scripted-embed', live: true });
    expect(teams.teams).toHaveLength(2);
    const ledger = readFileSync(join(box.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ledger.filter((l) => l.op === 'ma_snapshot')).toHaveLength(1);
    expect(ledger.find((l) => l.op === 'ma_snapshot')).toMatchObject({ phase: 'idea', component: 'idea', node_id: 'node_x_root', model: 'scripted-embed' });
  });

  test('SVC_IDEA_MA_REAL on without a served embedding model: the built-in loop runs and idea.json says reimpl with the reason', async () => {
    model.push(...ideaLoopScript(1, 0, [[0.5, 0.5, 0.5]]));
    const r = await callTool(generateIdeasTool, { topic: 'cache tiling', n_ideas: 1, n_agents: 1, max_discussion_rounds: 0 }, env({ SVC_IDEA_MA_REAL: 'on', SVC_IDEA_MA_EMBED_MODEL: 'none' }));
    expect(r.ma_integration_status).toBe('reimpl: the multi-agent engine did not run: SVC_IDEA_MA_EMBED_MODEL is none (name an embedding model, or unset it for the default); the built-in discussion loop ran instead');
  });

  test('SVC_IDEA_MA_REAL neither on nor off is an error before any model call', async () => {
    const err = await rejection(callTool(generateIdeasTool, { topic: 'cache tiling' }, env({ SVC_IDEA_MA_REAL: 'maybe' })));
    expect(err.message).toBe("SVC_IDEA_MA_REAL must be on or off, got 'maybe'");
    expect(model.requests).toHaveLength(0);
  });

  test('n_agents 0 is refused naming the range', async () => {
    const err = await rejection(callTool(generateIdeasTool, { topic: 'cache tiling', n_agents: 0 }, env()));
    expect(err.message).toBe('generate_ideas: n_agents must be an integer from 1 to 8, got 0');
  });

  test('a paper without a title is refused by the argument check', async () => {
    await expect(callTool(generateIdeasTool, { topic: 'x', papers: [{ abstract: 'a' }] }, env())).rejects.toThrow(/title/);
  });
});
