import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { type GenerateParams, generateIdeas } from '../../../src/ideas/discussion.ts';
import { overallScore } from '../../../src/ideas/idea-file.ts';
import { ModelAnswerError } from '../../../src/llm/errors.ts';
import { discussionAnswer, ideaLoopScript, messagesOf, promptName, proposalAnswer, synthesisAnswer, synthesisValue } from '../../support/idea-model-responder.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from '../llm/helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const PAPERS = [
  { title: 'Tiling for caches', abstract: 'Blocking matrices to fit caches.', url: 'https://example.org/1' },
  { title: 'Autotuning GEMM', abstract: '', url: '' },
];

const params = (over: Partial<GenerateParams> = {}): GenerateParams => ({
  topic: 'faster small matrix multiplication',
  papers: PAPERS,
  experimentContext: 'One CPU, ten minutes per run.',
  nIdeas: 3,
  nAgents: 4,
  maxDiscussionRounds: 2,
  maxRecursionDepth: 0,
  ...over,
});

const run = (over: Partial<GenerateParams> = {}, withCheckpoint = false) =>
  generateIdeas(params(over), { client: client(box, { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'idea-model' }, withCheckpoint), maIntegrationStatus: 'reimpl', nodeId: 'node_r_root' });

const bodies = () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);

describe('generate_ideas: the discussion loop', () => {
  test('4 agents, 2 rounds: 4 proposals, 8 discussion turns, 1 synthesis, in that order, and the idea file', async () => {
    const scores: [number, number, number][] = [[0.9, 0.7, 0.8], [0.5, 0.9, 0.9], [0.95, 0.95, 0.95]];
    server.push(...ideaLoopScript(4, 2, scores));
    const file = await run();
    const [i1, i2, i3] = synthesisValue(scores).ideas;
    expect(bodies().map(promptName)).toEqual([...Array(4).fill('idea/agent'), ...Array(8).fill('idea/discussion'), 'idea/synthesis']);
    expect(bodies()).toHaveLength(4 + 2 * 4 + 1);
    expect(file).toEqual({
      gap_analysis: 'Cache-aware tiling is unexplored for small matrices.',
      ideas: [
        // best overall first: the first idea becomes the root of the search
        { ...i3!, overall_score: 0.95 },
        { ...i1!, overall_score: 0.83 },
        { ...i2!, overall_score: 0.7 },
      ],
      primary_metric: 'gflops',
      higher_is_better: true,
      metric_rationale: 'Throughput measures the speed-up the ideas claim.',
      papers_analyzed: 2,
      n_agents: 4,
      discussion_rounds: 2,
      ma_integration_status: 'reimpl',
    });
    for (const idea of file.ideas) expect(idea.experiment_plan).toMatch(/^§hypothesis/);
  });

  test('each agent has its own persona; a round reads the previous round\'s revisions and critiques', async () => {
    server.push(...ideaLoopScript(2, 2, [[0.5, 0.5, 0.5]]));
    await run({ nAgents: 2, nIdeas: 1 });
    const b = bodies();
    const systems = b.map((x) => messagesOf(x, 'system'));
    expect(systems[0]).toContain('Agent 1 of 2 in a research team: a methods researcher');
    expect(systems[1]).toContain('Agent 2 of 2 in a research team: a systems engineer');
    expect(systems[2]).toContain('This is discussion round 1 of 2');
    // both agents of a round see the same proposals
    expect(messagesOf(b[2], 'user')).toBe(messagesOf(b[3], 'user'));
    expect(messagesOf(b[2], 'user')).toContain('## Agent 2, idea 1: Idea 2.1\n');
    expect(messagesOf(b[2], 'user')).toContain('(none yet: this is the first round)');
    expect(messagesOf(b[4], 'user')).toContain('## Agent 1, idea 1: Idea 1.1 r1\n');
    expect(messagesOf(b[4], 'user')).toContain('## Agent 2\ncritique by 2 in round 1');
    expect(messagesOf(b[6], 'user')).toContain('# Final proposals\n## Agent 1, idea 1: Idea 1.1 r2\n');
    expect(messagesOf(b[6], 'user')).toContain('critique by 1 in round 2');
    // the literature and the context reach every agent
    expect(messagesOf(b[0], 'user')).toBe('# Topic\nfaster small matrix multiplication\n\n# Experiment context\nOne CPU, ten minutes per run.\n\n# Literature (2 papers)\n1. Tiling for caches <https://example.org/1>\n   Blocking matrices to fit caches.\n2. Autotuning GEMM\n   (no abstract)');
  });

  test('no discussion rounds: n_agents proposals then the synthesis', async () => {
    server.push(...ideaLoopScript(3, 0, [[0.2, 0.4, 0.6]]));
    const file = await run({ nAgents: 3, nIdeas: 1, maxDiscussionRounds: 0 });
    expect(bodies().map(promptName)).toEqual(['idea/agent', 'idea/agent', 'idea/agent', 'idea/synthesis']);
    expect(file.discussion_rounds).toBe(0);
    expect(file.ideas[0]?.overall_score).toBe(0.35);
  });

  test('more ideas than agents: each agent proposes its share', async () => {
    server.push(...ideaLoopScript(1, 1, [[1, 1, 1], [0, 0, 0], [0.5, 0.5, 0.5]]));
    const file = await run({ nAgents: 1, nIdeas: 3, maxDiscussionRounds: 1 });
    expect(messagesOf(bodies()[0], 'system')).toContain('Propose 3 research idea(s)');
    expect(file.ideas.map((i) => i.overall_score)).toEqual([1, 0.5, 0]);
  });

  test('requests are a pure function of the inputs: two runs send the same messages', async () => {
    server.push(...ideaLoopScript(2, 1, [[0.5, 0.5, 0.5]]), ...ideaLoopScript(2, 1, [[0.5, 0.5, 0.5]]));
    await run({ nAgents: 2, nIdeas: 1, maxDiscussionRounds: 1 });
    await run({ nAgents: 2, nIdeas: 1, maxDiscussionRounds: 1 });
    const msgs = bodies().map((x) => (x as { messages: unknown }).messages);
    expect(msgs.slice(5)).toEqual(msgs.slice(0, 5));
  });

  test('every call is in the cost ledger with phase idea, component idea, its op and the node', async () => {
    server.push(...ideaLoopScript(1, 1, [[0.5, 0.5, 0.5]]));
    await run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 1 }, true);
    const lines = readFileSync(join(box.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.phase, l.skill, l.component, l.op, l.node_id])).toEqual([
      ['idea', 'idea-skill', 'idea', 'propose', 'node_r_root'],
      ['idea', 'idea-skill', 'idea', 'discuss', 'node_r_root'],
      ['idea', 'idea-skill', 'idea', 'synthesize', 'node_r_root'],
    ]);
  });

  test('more than 20 papers: the prompt shows 20, abstracts cut, and papers_analyzed says 20', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ title: `P${i}`, abstract: 'x'.repeat(700), url: '' }));
    server.push(...ideaLoopScript(1, 0, [[0.5, 0.5, 0.5]]));
    const file = await run({ papers: many, nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 });
    const user = messagesOf(bodies()[0], 'user');
    expect(user).toContain('# Literature (20 papers)');
    expect(user).toContain(`20. P19\n   ${'x'.repeat(600)}…`);
    expect(user).not.toContain('P20');
    expect(file.papers_analyzed).toBe(20);
  });

  test('no papers: the agents are told so, and papers_analyzed is 0', async () => {
    server.push(...ideaLoopScript(1, 0, [[0.5, 0.5, 0.5]]));
    const file = await run({ papers: [], nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 });
    expect(messagesOf(bodies()[0], 'user')).toContain('# Literature (0 papers)\n(no papers were found');
    expect(file.papers_analyzed).toBe(0);
  });
});

describe('generate_ideas: answers that cannot be used', () => {
  test('bad JSON once: one corrective request naming the problem, then the loop goes on', async () => {
    server.push({ text: 'Here are my ideas: none yet' }, ...ideaLoopScript(1, 0, [[0.5, 0.5, 0.5]]));
    const file = await run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 });
    expect(bodies()).toHaveLength(3);
    const retry = bodies()[1] as { messages: { role: string; content: string }[] };
    expect(retry.messages.at(-2)).toEqual({ role: 'assistant', content: 'Here are my ideas: none yet' });
    expect(retry.messages.at(-1)?.content).toMatch(/^Your answer was not valid JSON .*Answer again with only the corrected JSON object\.$/);
    expect(promptName(retry)).toBe('idea/agent');
    expect(file.ideas).toHaveLength(1);
  });

  test('bad JSON twice: a clear error naming the step', async () => {
    server.push(proposalAnswer(1), { text: 'nope' }, { text: '{"ideas": []}' });
    const err = await rejection(run({ nAgents: 2, nIdeas: 1, maxDiscussionRounds: 0 }));
    expect(err).toBeInstanceOf(ModelAnswerError);
    expect(err.message).toBe('generate_ideas: agent 2\'s proposal: the idea model gave no usable JSON in 2 attempts: "ideas" must hold 1 idea(s), it holds 0');
    expect(bodies()).toHaveLength(3);
  });

  test('a plan without §-tags is sent back', async () => {
    const untagged = JSON.stringify({ ideas: [{ title: 't', description: 'd', novelty: 'n', feasibility: 'f', experiment_plan: 'just do it' }] });
    server.push({ text: untagged }, { text: untagged });
    const err = await rejection(run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 }));
    expect(err.message).toMatch(/ideas\[0\]\.experiment_plan must be Markdown sections starting with §-tags/);
  });

  test('a discussion answer without its critique is sent back', async () => {
    const noCritique = { text: JSON.stringify({ ideas: JSON.parse((discussionAnswer(1, 1) as { text: string }).text).ideas }) };
    server.push(proposalAnswer(1), noCritique, noCritique);
    const err = await rejection(run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 1 }));
    expect(err.message).toBe('generate_ideas: agent 1 in discussion round 1: the idea model gave no usable JSON in 2 attempts: "critique" must be a string');
  });

  test.each([
    [{ ...synthesisValue([[0.5, 0.5, 1.5]]) }, 'ideas[0].clarity_score must be a number from 0 to 1'],
    [{ ...synthesisValue([[0.5, 0.5, 0.5]]), higher_is_better: 'yes' }, '"higher_is_better" must be true or false'],
    [{ ...synthesisValue([[0.5, 0.5, 0.5]]), primary_metric: '' }, '"primary_metric" must be a non-empty string'],
    [synthesisValue([]), '"ideas" must hold 1 idea(s), it holds 0'],
    [[1, 2], 'the answer must be a JSON object'],
  ])('synthesis %#: %s', async (value, problem) => {
    server.push(proposalAnswer(1), { text: JSON.stringify(value) }, { text: JSON.stringify(value) });
    const err = await rejection(run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 }));
    expect(err.message).toBe(`generate_ideas: the synthesis: the idea model gave no usable JSON in 2 attempts: ${problem}`);
  });

  test('a synthesis with more ideas than asked keeps the first n_ideas', async () => {
    server.push(proposalAnswer(1), synthesisAnswer([[0.1, 0.1, 0.1], [0.9, 0.9, 0.9]]));
    const file = await run({ nAgents: 1, nIdeas: 1, maxDiscussionRounds: 0 });
    expect(file.ideas.map((i) => i.title)).toEqual(['Final 1']);
  });
});

describe('generate_ideas: bad parameters are refused before any model call', () => {
  test.each([
    [{ topic: ' ' }, 'generate_ideas: topic is empty'],
    [{ nAgents: 0 }, 'generate_ideas: n_agents must be an integer from 1 to 8, got 0'],
    [{ nAgents: 9 }, 'generate_ideas: n_agents must be an integer from 1 to 8, got 9'],
    [{ nIdeas: 0 }, 'generate_ideas: n_ideas must be an integer from 1 to 10, got 0'],
    [{ nIdeas: 1.5 }, 'generate_ideas: n_ideas must be an integer from 1 to 10, got 1.5'],
    [{ maxDiscussionRounds: -1 }, 'generate_ideas: max_discussion_rounds must be an integer from 0 to 5, got -1'],
    [{ maxDiscussionRounds: 6 }, 'generate_ideas: max_discussion_rounds must be an integer from 0 to 5, got 6'],
    [{ maxRecursionDepth: -1 }, 'generate_ideas: max_recursion_depth must be an integer from 0 to 3, got -1'],
  ])('%p', async (over, message) => {
    const err = await rejection(run(over));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(message);
    expect(bodies()).toHaveLength(0);
  });
});

describe('overallScore', () => {
  test('(2·novelty + feasibility + clarity) / 4, rounded half up to 2 decimals', () => {
    expect(overallScore(0.9, 0.7, 0.8)).toBe(0.83);
    expect(overallScore(0.5, 0.2, 0.3)).toBe(0.38);
    expect(overallScore(1, 1, 1)).toBe(1);
    expect(overallScore(0, 0, 0)).toBe(0);
    expect(overallScore(0.33, 0.1, 0.2)).toBe(0.24);
  });
});
