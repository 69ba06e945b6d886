import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ideaModelReply, MA_CORPUS, MA_TOPIC } from '../support/idea-ma-responder.ts';
import { ideaLoopScript, promptName } from '../support/idea-model-responder.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { type ScholarServer, startScholarServer } from '../support/scholar-server.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

let dir: string;
let checkpoint: string;
let scholar: ScholarServer;
let model: ModelServer;
beforeEach(() => {
  dir = tempDir();
  checkpoint = join(dir, 'workspace', 'checkpoints', '20260101000000_demo');
  mkdirSync(checkpoint, { recursive: true });
  scholar = startScholarServer({ papers: [{ id: '2401.1', title: 'Cache Tiling for GEMM', abstract: 'Tiles fit the cache.' }] });
  model = startModelServer();
});
afterEach(() => {
  model.stop();
  scholar.stop();
  removeDir(dir);
});

async function connect(extra: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    SVC_ROOT: dir,
    SVC_CHECKPOINT_DIR: checkpoint,
    SVC_RETRIEVAL_BACKEND: 'both',
    SVC_SCHOLAR_A_URL: scholar.url,
    SVC_SCHOLAR_B_URL: scholar.url,
    SVC_BACKEND: 'openai-compatible',
    LLM_API_BASE: `${model.url}/v1`,
    SVC_MODEL: 'idea-model',
    ...extra,
  };
  await client.connect(new StdioClientTransport({ command: SVC, args: ['skill', 'serve', 'idea-skill'], env, cwd: dir, stderr: 'pipe' }));
  return client;
}

const json = (r: Record<string, unknown>) => JSON.parse(((r.content as { text: string }[])[0] ?? { text: '' }).text);

describe('svc skill serve idea-skill', () => {
  test('the multi-agent engine in the binary: --ma-k 2 --ma-team-size 2 as variables, teams discuss, real_wrap, the snapshot reused by a second call', async () => {
    model.stop();
    model = startModelServer([], { respond: ideaModelReply });
    scholar.stop();
    scholar = startScholarServer({ papers: MA_CORPUS });
    const ma = { SVC_IDEA_MA_LIVE: '1', SVC_IDEA_MA_EMBED_MODEL: 'scripted-embed', SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2', SVC_IDEA_MA_N_AUTHORS: '4' };
    const client = await connect({ ...ma, SVC_SCHOLAR_A_URL: scholar.url, SVC_SCHOLAR_B_URL: scholar.url, LLM_API_BASE: `${model.url}/v1` });
    try {
      const args = { topic: MA_TOPIC, papers: MA_CORPUS.map((p) => ({ title: p.title, abstract: p.abstract })), n_ideas: 2 };
      const idea = json(await client.callTool({ name: 'generate_ideas', arguments: args }));
      expect(idea).toMatchObject({ ma_integration_status: 'real_wrap', n_agents: 2, discussion_rounds: 2, papers_analyzed: 12 });
      expect(idea.ideas).toHaveLength(2);
      const chats = model.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => promptName(r.body));
      const team = ['idea/ma_propose', 'idea/ma_turn', 'idea/ma_turn', 'idea/ma_turn'];
      expect(chats).toEqual([...team, ...team, 'idea/ma_synthesis']);
      const teams = JSON.parse(readFileSync(join(checkpoint, 'idea_teams.json'), 'utf8'));
      expect(teams.authors).toHaveLength(4);
      expect(teams.teams.map((t: { members: unknown[] }) => t.members.length)).toEqual([2, 2]);

      const searches = scholar.requests.length;
      const again = json(await client.callTool({ name: 'generate_ideas', arguments: args }));
      expect(again.ma_integration_status).toBe('real_wrap');
      expect(scholar.requests).toHaveLength(searches);
      expect(JSON.parse(readFileSync(join(checkpoint, 'idea_teams.json'), 'utf8')).snapshot.source).toBe('cached');
    } finally {
      await client.close();
    }
  });

  test('survey then generate_ideas over stdio, as a run calls them', async () => {
    model.push(...ideaLoopScript(2, 1, [[0.8, 0.6, 0.7], [0.4, 0.9, 0.9]]));
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['survey', 'generate_ideas']);
      expect(tools.find((t) => t.name === 'generate_ideas')?.inputSchema.required).toEqual(['topic']);

      const found = await client.callTool({ name: 'survey', arguments: { topic: 'cache tiling', max_papers: 4 } });
      expect(found.isError).toBeFalsy();
      const s = json(found);
      expect(s.papers).toEqual([{ title: 'Cache Tiling for GEMM', abstract: 'Tiles fit the cache.', url: 'https://www.semanticscholar.org/paper/2401.1' }]);
      expect(s.sources.map((x: { backend: string; papers: number }) => [x.backend, x.papers])).toEqual([['scholar_a', 1], ['scholar_b', 1]]);

      const made = await client.callTool({ name: 'generate_ideas', arguments: { topic: 'cache tiling', papers: s.papers, experiment_context: 'one CPU', n_ideas: 2, n_agents: 2, max_discussion_rounds: 1 } });
      expect(made.isError).toBeFalsy();
      const idea = json(made);
      expect(Object.keys(idea)).toEqual(['gap_analysis', 'ideas', 'primary_metric', 'higher_is_better', 'metric_rationale', 'papers_analyzed', 'n_agents', 'discussion_rounds', 'ma_integration_status']);
      expect(idea.ideas.map((i: { title: string; overall_score: number }) => [i.title, i.overall_score])).toEqual([['Final 1', 0.73], ['Final 2', 0.65]]);
      expect(idea).toMatchObject({ papers_analyzed: 1, n_agents: 2, discussion_rounds: 1, ma_integration_status: 'reimpl' });
      const chats = model.requests.filter((r) => r.path === '/v1/chat/completions');
      expect(chats.map((r) => promptName(r.body))).toEqual(['idea/agent', 'idea/agent', 'idea/discussion', 'idea/discussion', 'idea/synthesis']);
      const ledger = readFileSync(join(checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n');
      expect(ledger).toHaveLength(5);
    } finally {
      await client.close();
    }
  });

  test('offline survey, the real engine asked for, bad arguments, a failing model: answers and errors, and the server goes on', async () => {
    const client = await connect({ SVC_LLM_MAX_RETRIES: '1', SVC_RETRIEVAL_BACKEND: 'scholar_a', SVC_SCHOLAR_A_URL: 'http://127.0.0.1:9', SVC_IDEA_MA_REAL: '1' });
    try {
      const offline = json(await client.callTool({ name: 'survey', arguments: { topic: 'cache tiling' } }));
      expect(offline).toMatchObject({ papers: [], offline: true });
      expect(offline.note).toMatch(/^no papers: scholar_a \(Semantic Scholar\): 127\.0\.0\.1:9 is not reachable/);
      expect(offline.note).not.toContain('multi-agent');

      const bad = await client.callTool({ name: 'generate_ideas', arguments: { topic: 'cache tiling', n_agents: 0 } });
      expect(bad.isError).toBe(true);
      expect(json(bad).error).toMatch(/^generate_ideas: n_agents must be an integer from 1 to 8, got 0/);

      const modelDown = await client.callTool({ name: 'generate_ideas', arguments: { topic: 'cache tiling', n_ideas: 1, n_agents: 1, max_discussion_rounds: 0 } });
      expect(modelDown.isError).toBe(true);
      expect(json(modelDown).error).toMatch(/^openai-compatible answered HTTP 500 \d+ times to the idea request to idea-model/);

      model.push(...ideaLoopScript(1, 0, [[0.5, 0.5, 0.5]]));
      const ok = json(await client.callTool({ name: 'generate_ideas', arguments: { topic: 'cache tiling', n_ideas: 1, n_agents: 1, max_discussion_rounds: 0 } }));
      // the engine's live snapshot is empty with every provider down: the built-in loop stood in
      expect(ok.ma_integration_status).toMatch(/^reimpl: the multi-agent engine did not run: the live literature snapshot holds zero papers \(no papers: scholar_a/);
    } finally {
      await client.close();
    }
  });
});
