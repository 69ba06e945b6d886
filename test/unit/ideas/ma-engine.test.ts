import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import type { GenerateParams } from '../../../src/ideas/discussion.ts';
import { type EngineDeps, generateIdeasWithEngine, MA_STATUS, TEAMS_FILE, wantsMaEngine } from '../../../src/ideas/ma-engine.ts';
import { SNAPSHOT_FILE } from '../../../src/ideas/ma-snapshot.ts';
import { cosine } from '../../../src/ideas/vectors.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { ideaModelReply, MA_CORPUS, MA_TOPIC } from '../../support/idea-ma-responder.ts';
import { messagesOf, promptName } from '../../support/idea-model-responder.ts';
import { researcherReply } from '../../support/scripted-researcher.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { scriptedEmbedding } from '../../support/model-server-embeddings.ts';
import { type ScholarServer, startScholarServer } from '../../support/scholar-server.ts';
import { rejection, type Sandbox, sandbox } from '../llm/helpers.ts';

let box: Sandbox;
let model: ModelServer;
let scholar: ScholarServer;
beforeEach(() => {
  box = sandbox();
  model = startModelServer([], { respond: ideaModelReply });
  scholar = startScholarServer({ papers: MA_CORPUS });
});
afterEach(() => {
  scholar.stop();
  model.stop();
  box.close();
});

/** The survey's papers as the run passes them on: the whole corpus (the provider's own search finds only some for the topic). */
const SURVEYED = MA_CORPUS.map((p) => ({ title: p.title, abstract: p.abstract ?? '', url: `https://arxiv.org/abs/${p.id}` }));

const params = (over: Partial<GenerateParams> = {}): GenerateParams => ({ topic: MA_TOPIC, papers: SURVEYED, experimentContext: 'One CPU, ten minutes per run.', nIdeas: 3, nAgents: 4, maxDiscussionRounds: 2, maxRecursionDepth: 0, ...over });

function envOf(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: join(box.dir, 'home'),
    SVC_BACKEND: 'openai-compatible',
    LLM_API_BASE: `${model.url}/v1`,
    SVC_MODEL: 'idea-model',
    SVC_SCHOLAR_A_URL: scholar.url,
    SVC_IDEA_MA_REAL: '1',
    SVC_IDEA_MA_EMBED_MODEL: 'scripted-embed',
    ...extra,
  };
}

function deps(extra: Record<string, string> = {}): EngineDeps {
  const env = envOf(extra);
  const cfg = box.load(env);
  return { client: createModelClient({ cfg, checkpointDir: box.checkpoint }), cfg, env, checkpointDir: box.checkpoint, nodeId: 'node_r_root' };
}

const run = (extra: Record<string, string> = {}, over: Partial<GenerateParams> = {}) => generateIdeasWithEngine(params(over), deps(extra));
const chats = () => model.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);
const embedInputs = () => model.requests.filter((r) => r.path === '/v1/embeddings').map((r) => (r.body as { input: string[] }).input);
const teamsFile = () => JSON.parse(readFileSync(join(box.checkpoint, TEAMS_FILE), 'utf8'));
const snapshotLines = () => readFileSync(join(box.checkpoint, SNAPSHOT_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

/** The prompt names one team asks in order: the leader proposes, then every other turn revises. */
const teamCalls = (k: number, size: number) => ['idea/ma_propose', ...Array(k * size - 1).fill('idea/ma_turn')];

describe('wantsMaEngine', () => {
  test('SVC_IDEA_MA_REAL decides when set; else SVC_IDEA_MA_LIVE set (by --ma-live/--no-ma-live) asks for it', () => {
    expect(wantsMaEngine({})).toBe(false);
    expect(wantsMaEngine({ SVC_IDEA_MA_REAL: 'off' })).toBe(false);
    expect(wantsMaEngine({ SVC_IDEA_MA_REAL: 'on' })).toBe(true);
    expect(wantsMaEngine({ SVC_IDEA_MA_LIVE: '1' })).toBe(true);
    expect(wantsMaEngine({ SVC_IDEA_MA_LIVE: '0' })).toBe(true);
    expect(wantsMaEngine({ SVC_IDEA_MA_REAL: '0', SVC_IDEA_MA_LIVE: '1' })).toBe(false);
  });

  test('a value neither on nor off is refused, naming the variable', () => {
    expect(() => wantsMaEngine({ SVC_IDEA_MA_REAL: 'maybe' })).toThrow("SVC_IDEA_MA_REAL must be on or off, got 'maybe'");
  });
});

describe('the multi-agent engine', () => {
  test('defaults (k 7, teams of 3, n_ideas teams): a snapshot, 3 teams, 21 turns each with a novelty check per round, one panel; real_wrap', async () => {
    const file = await run();
    expect(chats().map(promptName)).toEqual([...teamCalls(7, 3), ...teamCalls(7, 3), ...teamCalls(7, 3), 'idea/ma_synthesis']);
    // one snapshot batch (the topic and 12 papers), then one novelty check per team and round
    const inputs = embedInputs();
    expect(inputs).toHaveLength(1 + 3 * 7);
    expect(inputs[0]).toHaveLength(13);
    expect(inputs.slice(1).every((i) => i.length === 1)).toBe(true);
    expect(file).toMatchObject({ n_agents: 3, discussion_rounds: 7, papers_analyzed: 12, ma_integration_status: MA_STATUS, primary_metric: 'gflops', higher_is_better: true });
    expect(MA_STATUS).toBe('real_wrap');
    // each team's final idea scored by the panel, best first: team 3 got the highest scores
    expect(file.ideas.map((i) => i.overall_score)).toEqual([0.73, 0.68, 0.63]);
    expect(file.ideas.map((i) => i.title.slice(0, 10))).toEqual(['Panel: T3 ', 'Panel: T2 ', 'Panel: T1 ']);

    const teams = teamsFile();
    expect(teams).toMatchObject({ engine: 'multi-agent', ran: true, settings: { k: 7, team_size: 3, n_authors: 16, n_papers: 800, max_teams: 3, embed_model: 'scripted-embed', live: true } });
    expect(teams.snapshot).toMatchObject({ source: 'live', topic: MA_TOPIC, embed_model: 'scripted-embed', corpus: 12 });
    // 12 papers in four fields: the pool has at most one author per paper, each with its expertise
    expect(teams.authors.length).toBeGreaterThanOrEqual(4);
    expect(teams.authors.length).toBeLessThanOrEqual(12);
    expect(teams.teams.map((t: { leader: string }) => t.leader)).toEqual(['A1', 'A2', 'A3']);
    for (const t of teams.teams) {
      expect(t.members).toHaveLength(3);
      expect(t.members[0].author).toBe(t.leader);
      expect(new Set(t.members.map((m: { author: string }) => m.author)).size).toBe(3);
      expect(t.turns).toHaveLength(21);
      expect(t.turns.map((x: { round: number }) => x.round)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7]);
      expect(t.novelty_checks.map((c: { round: number }) => c.round)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(t.final_idea.title).toBe(t.turns.at(-1).title);
    }
    // the ideas of the whole engine are about cache tiling: their nearest paper is a tiling paper
    expect(teams.teams[0].novelty_checks[0].nearest[0].title).toMatch(/[Tt]il/);
  });

  test('each turn reads the team idea, the teammates before it and the last novelty check, figures computed from the vectors', async () => {
    await run({ SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2', SVC_IDEA_MA_MAX_TEAMS: '1' }, { nIdeas: 1 });
    const b = chats();
    expect(b.map(promptName)).toEqual(['idea/ma_propose', 'idea/ma_turn', 'idea/ma_turn', 'idea/ma_turn', 'idea/ma_synthesis']);
    const teams = teamsFile();
    const [leader, mate] = teams.teams[0].members.map((m: { author: string }) => m.author);
    expect(messagesOf(b[0], 'system')).toContain(`You are ${leader}, a member of research team 1 of 1, with 2 member(s). Your own papers: "`);
    expect(messagesOf(b[1], 'system')).toContain(`You are ${mate},`);
    expect(messagesOf(b[1], 'user')).toContain(`# The team's current idea\nT1 ${leader} r1\n`);
    expect(messagesOf(b[1], 'user')).toContain('(none yet: the first check follows this round)');
    // round 2: the leader reads round 1's check; the teammate also reads what the leader said
    const check = teams.teams[0].novelty_checks[0];
    const ideaText = `T1 ${mate} r1. Tile the matrix multiplication loops for the cache (team 1). new tiling order`;
    const sims = MA_CORPUS.map((p) => cosine(scriptedEmbedding(ideaText), scriptedEmbedding(`${p.title}. ${p.abstract}`)));
    const best = Math.max(...sims);
    expect(check.nearest[0]).toMatchObject({ title: MA_CORPUS[sims.indexOf(best)]!.title, similarity: Math.round(best * 1000) / 1000 });
    expect(check.novelty).toBe(Math.round((1 - check.nearest[0].similarity) * 1000) / 1000);
    expect(messagesOf(b[2], 'user')).toContain(`after round 1, the closest corpus papers to "T1 ${mate} r1":\n1. ${check.nearest[0].title} (similarity ${check.nearest[0].similarity.toFixed(3)})`);
    expect(messagesOf(b[2], 'user')).toContain('(nothing yet: you speak first in this round)');
    expect(messagesOf(b[3], 'user')).toContain(`## ${leader}\n${leader} on "T1 ${mate} r1"; closest: ${check.nearest[0].title}`);
    expect(teams.teams[0].turns.map((t: { op: string; author: string }) => `${t.op} ${t.author}`)).toEqual([`propose ${leader}`, `revise ${mate}`, `revise ${leader}`, `revise ${mate}`]);
  });

  test('--ma-k 2 --ma-team-size 2 against the defaults: fewer, shorter discussions, and the files say so', async () => {
    const file = await run({ SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2' });
    expect(chats().map(promptName)).toEqual([...teamCalls(2, 2), ...teamCalls(2, 2), ...teamCalls(2, 2), 'idea/ma_synthesis']);
    expect(chats()).toHaveLength(13);
    expect(embedInputs()).toHaveLength(1 + 3 * 2);
    expect(file).toMatchObject({ n_agents: 2, discussion_rounds: 2, ma_integration_status: 'real_wrap' });
    const teams = teamsFile();
    expect(teams.settings).toMatchObject({ k: 2, team_size: 2 });
    for (const t of teams.teams) {
      expect(t.members).toHaveLength(2);
      expect(t.turns.map((x: { round: number }) => x.round)).toEqual([1, 1, 2, 2]);
    }
  });

  test('the snapshot is cached in the checkpoint: a second call (a resume) neither searches nor embeds the corpus again', async () => {
    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1' });
    const [header, ...papers] = snapshotLines();
    expect(header.snapshot).toMatchObject({ topic: MA_TOPIC, embed_model: 'scripted-embed', n_papers: 800, papers: 12 });
    expect(papers).toHaveLength(12);
    expect(papers[0].vector).toHaveLength(128);
    const searches = scholar.requests.length;
    expect(searches).toBeGreaterThan(0);
    const before = embedInputs().length;

    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1' });
    expect(scholar.requests).toHaveLength(searches);
    // only the novelty checks (one per team) were embedded the second time
    expect(embedInputs().slice(before).map((i) => i.length)).toEqual([1, 1, 1]);
    expect(teamsFile().snapshot.source).toBe('cached');
  });

  test('a recorded run replays from its cassette with no model server: the same questions in the same order, the same idea file', async () => {
    const recorded = await run({ SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2' });
    const asked = model.requests.length;
    model.stop();
    const again = join(box.dir, 'replayed');
    mkdirSync(again);
    const env = envOf({ SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: join(box.checkpoint, 'llm_cassette.jsonl'), SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2' });
    const cfg = box.load(env);
    const replayed = await generateIdeasWithEngine(params(), { client: createModelClient({ cfg, checkpointDir: again }), cfg, env, checkpointDir: again, nodeId: 'node_r_root' });
    expect(replayed).toEqual(recorded);
    expect(model.requests).toHaveLength(asked);
    expect(JSON.parse(readFileSync(join(again, TEAMS_FILE), 'utf8')).teams).toEqual(teamsFile().teams);
  });

  test('n_papers keeps the papers nearest the topic; the papers passed in join the corpus', async () => {
    const passed = { title: 'Cache-oblivious matrix multiplication', abstract: 'Recursive blocking for every cache level.', url: 'https://example.org/co' };
    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1', SVC_IDEA_MA_N_PAPERS: '4' }, { papers: [passed] });
    const papers = snapshotLines().slice(1);
    expect(papers).toHaveLength(4);
    const topic = scriptedEmbedding(MA_TOPIC);
    const ranked = [passed, ...SURVEYED]
      .map((p) => ({ title: p.title, sim: cosine(topic, scriptedEmbedding(`${p.title}. ${p.abstract}`)) }))
      .sort((a, b) => b.sim - a.sim);
    expect(papers.map((p: { title: string }) => p.title)).toEqual(ranked.slice(0, 4).map((r) => r.title));
    expect(papers.map((p: { title: string }) => p.title)).toContain(passed.title);
  });

  test('live: a cached snapshot of another topic is retaken; not live (SVC_IDEA_MA_LIVE 0): it is used as it is', async () => {
    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1' }, { topic: 'sorting with fewer comparisons' });
    const searches = scholar.requests.length;
    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1', SVC_IDEA_MA_LIVE: '0' });
    expect(scholar.requests).toHaveLength(searches);
    expect(snapshotLines()[0].snapshot.topic).toBe('sorting with fewer comparisons');
    await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1', SVC_IDEA_MA_LIVE: '1' });
    expect(scholar.requests.length).toBeGreaterThan(searches);
    expect(snapshotLines()[0].snapshot.topic).toBe(MA_TOPIC);
  });

  test('a cached snapshot with zero papers is never reused, not even when not live', async () => {
    mkdirSync(join(box.checkpoint, 'idea_snapshot'));
    writeFileSync(join(box.checkpoint, SNAPSHOT_FILE), `${JSON.stringify({ snapshot: { topic: MA_TOPIC, embed_model: 'scripted-embed', n_papers: 800, papers: 0, taken_at: '2026-01-01T00:00:00Z' } })}\n`);
    const file = await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1', SVC_IDEA_MA_LIVE: '0' });
    expect(file.ma_integration_status).toBe('real_wrap');
    expect(scholar.requests.length).toBeGreaterThan(0);
    expect(snapshotLines()[0].snapshot.papers).toBe(12);
  });

  test('a damaged cached snapshot is retaken, not trusted', async () => {
    mkdirSync(join(box.checkpoint, 'idea_snapshot'));
    writeFileSync(join(box.checkpoint, SNAPSHOT_FILE), '{"snapshot": {"topic": "x", "embed_model": "scripted-embed", "papers": 3}}\n{"title": "half');
    const file = await run({ SVC_IDEA_MA_K: '1', SVC_IDEA_MA_TEAM_SIZE: '1', SVC_IDEA_MA_LIVE: '0' });
    expect(file.ma_integration_status).toBe('real_wrap');
    expect(snapshotLines()[0].snapshot.papers).toBe(12);
  });
});

describe('the demo researcher', () => {
  test("answers the engine's prompts: each team works on one demo idea, the panel keeps the demo's metric", async () => {
    model.stop();
    model = startModelServer([], { respond: (body) => researcherReply(body) });
    const file = await run({ SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2' }, { topic: 'sorting with fewer comparisons' });
    expect(file.ma_integration_status).toBe('real_wrap');
    expect(file).toMatchObject({ primary_metric: 'comparisons', higher_is_better: false });
    expect(file.ideas.map((i) => i.title)).toEqual(['Geometric gap ratio for Shell sort', 'Binary insertion sort', 'Merge-insertion (Ford-Johnson) ordering']);
  });
});

describe('fallbacks to the built-in loop', () => {
  const loopCalls = ['idea/agent', 'idea/agent', 'idea/discussion', 'idea/discussion', 'idea/synthesis'];
  const small = { nAgents: 2, maxDiscussionRounds: 1 };

  test('SVC_IDEA_MA_EMBED_MODEL none: the loop runs, idea.json says why, nothing is searched or embedded', async () => {
    const file = await run({ SVC_IDEA_MA_EMBED_MODEL: 'none' }, small);
    expect(file.ma_integration_status).toBe('reimpl: the multi-agent engine did not run: SVC_IDEA_MA_EMBED_MODEL is none (name an embedding model, or unset it for the default); the built-in discussion loop ran instead');
    expect(chats().map(promptName)).toEqual(loopCalls);
    expect(embedInputs()).toHaveLength(0);
    expect(scholar.requests).toHaveLength(0);
    expect(teamsFile()).toEqual({ engine: 'multi-agent', ran: false, reason: file.ma_integration_status.slice('reimpl: '.length) });
  });

  test('unset: the default scientific-document model, which this server does not serve (404): the loop runs', async () => {
    const env = envOf();
    delete env.SVC_IDEA_MA_EMBED_MODEL;
    const cfg = box.load(env);
    const file = await generateIdeasWithEngine(params(small), { client: createModelClient({ cfg, checkpointDir: box.checkpoint }), cfg, env, checkpointDir: box.checkpoint });
    expect(file.ma_integration_status).toMatch(/^reimpl: the multi-agent engine did not run: .*allenai\/specter2_base/);
    expect(file.ma_integration_status).toMatch(/404/);
    expect((model.requests.find((r) => r.path === '/v1/embeddings')?.body as { model: string }).model).toBe('allenai/specter2_base');
    expect(chats().map(promptName)).toEqual(loopCalls);
  });

  test('a live snapshot with zero papers: the loop runs, and no empty snapshot is cached', async () => {
    scholar.stop();
    scholar = startScholarServer({ papers: [] });
    const file = await run({ SVC_SCHOLAR_A_URL: scholar.url }, { ...small, papers: [] });
    expect(file.ma_integration_status).toMatch(/^reimpl: the multi-agent engine did not run: the live literature snapshot holds zero papers; the built-in discussion loop ran instead$/);
    expect(embedInputs()).toHaveLength(0);
    expect(existsSync(join(box.checkpoint, SNAPSHOT_FILE))).toBe(false);
  });

  test('the embedding endpoint failing during the discussion: the loop runs with the reason', async () => {
    model.failEmbeddings({ status: 400 });
    const file = await run({}, small);
    expect(file.ma_integration_status).toMatch(/^reimpl: the multi-agent engine did not run: .*400/);
    expect(chats().map(promptName)).toEqual(loopCalls);
  });

  test('a team member that never answers usable JSON: the loop runs with the reason', async () => {
    model.push({ text: 'no idea' }, { text: 'still no idea' });
    const file = await run({}, small);
    expect(file.ma_integration_status).toMatch(/^reimpl: the multi-agent engine did not run: generate_ideas: team 1, A1 in round 1 \(proposal\): the idea model gave no usable JSON in 2 attempts/);
    expect(chats().map(promptName)).toEqual(['idea/ma_propose', 'idea/ma_propose', ...loopCalls]);
  });

  test('a bad setting is refused before any request, as a bad parameter is', async () => {
    for (const [name, value, message] of [
      ['SVC_IDEA_MA_K', '0', "SVC_IDEA_MA_K must be an integer from 1 to 20, got '0'"],
      ['SVC_IDEA_MA_TEAM_SIZE', 'three', "SVC_IDEA_MA_TEAM_SIZE must be an integer from 1 to 8, got 'three'"],
      ['SVC_IDEA_MA_MAX_TEAMS', '1.5', "SVC_IDEA_MA_MAX_TEAMS must be an integer from 1 to 16, got '1.5'"],
      ['SVC_IDEA_MA_LIVE', 'sometimes', "SVC_IDEA_MA_LIVE must be on or off, got 'sometimes'"],
    ] as const) {
      const err = await rejection(run({ [name]: value }));
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toBe(message);
    }
    expect(model.requests).toHaveLength(0);
    expect(scholar.requests).toHaveLength(0);
    expect(existsSync(join(box.checkpoint, TEAMS_FILE))).toBe(false);
  });

  test('SVC_IDEA_MA_REAL off: the built-in loop, plain reimpl, no teams file', async () => {
    const file = await run({ SVC_IDEA_MA_REAL: 'off' }, small);
    expect(file.ma_integration_status).toBe('reimpl');
    expect(existsSync(join(box.checkpoint, TEAMS_FILE))).toBe(false);
  });
});
