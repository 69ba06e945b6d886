import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelClient } from '../../../src/llm/client.ts';
import type { ChatMessage, ToolSpec } from '../../../src/llm/types.ts';
import { emitResults } from '../../../src/skills/coding/emit-results.ts';
import { runCode } from '../../../src/coding/run-code.ts';
import { writeCode } from '../../../src/coding/write-code.ts';
import type { ToolDef } from '../../../src/mcp/tool.ts';
import { parseProgramOutput, PROGRAM_FILE, programFor, variantOf } from '../../support/demo-program.ts';
import { type ModelServer, type ReplyStep, startModelServer } from '../../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../../support/scripted-researcher.ts';
import type { OpenAIMessage } from '../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { sandbox, type Sandbox } from '../llm/helpers.ts';
import { callTool } from '../skills/coding/tool-call.ts';

const system = (name: string, rest = 'Answer as asked.') => ({ role: 'system', content: `<!-- prompt: ${name} -->\n${rest}` });
const ask = (name: string, user: string, rest?: string): OpenAIChatRequest => ({ model: 'm', messages: [system(name, rest), { role: 'user', content: user }] });
const text = (step: ReplyStep): string => ('text' in step ? (step.text ?? '') : '');
const json = (step: ReplyStep): any => JSON.parse(text(step));

const NODE_OUTPUT = `shell sort of 2000 integers (seed 42): 33064 comparisons\n{"params":{"algorithm":"shell","gap_ratio":2.25,"seed":42,"n":2000},"measurements":{"comparisons":33064,"moves":16151,"passes":10,"sorted":1}}`;

describe('the demo program', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('svc-demo-prog-');
  });
  afterEach(() => removeDir(dir));

  const run = (code: string) => {
    const file = join(dir, PROGRAM_FILE);
    writeFileSync(file, code);
    const p = Bun.spawnSync(['node', file], { cwd: dir });
    expect(p.exitCode).toBe(0);
    return p.stdout.toString();
  };

  test('runs under node and prints the same measurements twice', () => {
    for (const direction of ['', 'gap_ratio=2.25', 'gap_ratio=2.4 seed=9']) {
      const code = programFor(variantOf(direction));
      const first = run(code);
      expect(run(code)).toBe(first);
      const parsed = parseProgramOutput(first);
      expect(parsed?.measurements.sorted).toBe(1);
      expect(parsed?.measurements.comparisons).toBeGreaterThan(0);
    }
  });

  test('the baseline and a gap ratio differ by orders of magnitude, two ratios by less', () => {
    const count = (d: string) => parseProgramOutput(run(programFor(variantOf(d))))?.measurements.comparisons ?? 0;
    expect(count('')).toBe(1013583);
    expect(count('gap_ratio=2.25')).toBe(33064);
    expect(count('gap_ratio=2.4')).toBe(30850);
  });

  test('directions choose the variant; out-of-range ratios fall back to the baseline', () => {
    expect(variantOf('improve: gap_ratio=2.6, seed=7')).toEqual({ algorithm: 'shell', gapRatio: 2.6, seed: 7, n: 2000 });
    expect(variantOf('gap_ratio=1')).toMatchObject({ algorithm: 'insertion', gapRatio: null });
    expect(variantOf('gap_ratio=99')).toMatchObject({ algorithm: 'insertion' });
    expect(programFor(variantOf('gap_ratio=2.2'))).not.toBe(programFor(variantOf('gap_ratio=2.4')));
  });

  test('output parsing takes the last JSON line, drops nulls, and refuses output without measurements', () => {
    expect(parseProgramOutput(`{"measurements":{"comparisons":1}}\n${NODE_OUTPUT}`)).toEqual({ params: { algorithm: 'shell', gap_ratio: 2.25, seed: 42, n: 2000 }, measurements: { comparisons: 33064, moves: 16151, passes: 10, sorted: 1 } });
    expect(parseProgramOutput('{"params":{"gap_ratio":null},"measurements":{"comparisons":5}}')).toEqual({ params: {}, measurements: { comparisons: 5 } });
    expect(parseProgramOutput('no json here')).toBeNull();
    expect(parseProgramOutput('{"measurements": {broken')).toBeNull();
    expect(parseProgramOutput('{"measurements":{"note":"text only"}}')).toBeNull();
  });
});

describe('each prompt kind', () => {
  test('the judge scores the node from the comparisons it reported, the last quoted', () => {
    const good = json(researcherReply(ask('evaluator/judge', `Recent: {"comparisons": 1013583}\nArtifacts: ${NODE_OUTPUT}`, 'Score these axes:\n- measurement_validity\n- plan_alignment_score: the plan')));
    expect(good).toMatchObject({ has_real_data: true, measurements: { comparisons: 33064, moves: 16151 }, metrics: { comparisons: 33064 }, params: { gap_ratio: 2.25, seed: 42, n: 2000 }, comparison_found: true });
    expect(Object.keys(good.axis_scores)).toEqual(expect.arrayContaining(['measurement_validity', 'comparative_rigor', 'novelty', 'reproducibility', 'clarity_of_contribution', 'plan_alignment_score']));
    expect(Object.keys(good.axis_rationales).sort()).toEqual(Object.keys(good.axis_scores).sort());
    const baseline = json(researcherReply(ask('evaluator/judge', 'stdout: {"measurements":{"comparisons":1013583,"sorted":1}}')));
    expect(baseline.comparison_found).toBe(false);
    expect(good.axis_scores.comparative_rigor).toBeGreaterThan(baseline.axis_scores.comparative_rigor);
    expect(good.axis_scores.plan_alignment_score).toBeGreaterThan(0.8);
    expect(baseline.axis_scores.claim_implementation_alignment).toBeLessThan(0.3);
  });

  test('the judge gives no real data when nothing was measured', () => {
    const none = json(researcherReply(ask('evaluator/judge', 'the node crashed before printing anything')));
    expect(none).toMatchObject({ has_real_data: false, measurements: {}, metrics: {}, comparison_found: false });
    expect(Object.values(none.axis_scores).every((s) => s === 0.1)).toBe(true);
  });

  test('selection picks the best readable score, ties to the lower index, else 0', () => {
    const candidates = '[0] id=aa, depth=1, metrics={"_scientific_score": 0.4}\n[1] id=bb, metrics={"_scientific_score": 0.81}\n[2] id=cc, metrics={"_scientific_score": 0.81}';
    expect(text(researcherReply(ask('orchestrator/bfts_select', candidates)))).toBe('1');
    expect(text(researcherReply(ask('orchestrator/bfts_expand_select', '[0] comparisons: 50000\n[1] comparisons: 31000')))).toBe('1');
    expect(text(researcherReply(ask('orchestrator/custom_pick', '0. score=0.2\n1. score=0.9', 'Reply with one zero-based index.')))).toBe('1');
    expect(text(researcherReply(ask('orchestrator/bfts_select', 'no candidates listed')))).toBe('0');
  });

  test('expansion gives one child with a concrete change, cycling improve, ablation, validation', () => {
    const child = (user: string) => json(researcherReply(ask('orchestrator/bfts_expand', user)));
    const first = child('Parent: insertion sort baseline, comparisons 1013583.');
    expect(first).toEqual([{ label: 'improve', direction: expect.stringContaining('gap_ratio=2.25') }]);
    expect(child('Parent direction: gap_ratio=2.25\nChildren so far: improve gap_ratio=2.4')[0]).toMatchObject({ label: 'ablation', direction: expect.stringContaining('gap_ratio=2,') });
    const third = child('Parent direction: gap_ratio=2.25\nChildren: gap_ratio=2.4; gap_ratio=2')[0];
    expect(variantOf(third.direction)).toEqual({ algorithm: 'shell', gapRatio: 2.25, seed: 9, n: 2000 });
    expect(third.label).toBe('validation');
  });

  test('lineage continues, the root idea is the first, the metric spec names the metric', () => {
    expect(json(researcherReply(ask('orchestrator/lineage_decision', 'state')))).toMatchObject({ action: 'continue' });
    expect(json(researcherReply(ask('orchestrator/root_idea_selector', 'ideas')))).toMatchObject({ index: 0 });
    expect(json(researcherReply(ask('evaluator/metric_spec', 'Primary metric: comparisons (lower is better)')))).toMatchObject({ metric_keyword: 'comparisons', min_expected_metric: 0, higher_is_better: false, scoring_guide: expect.any(String) });
  });

  test('the idea prompts give ideas; synthesis gives the whole idea file', () => {
    expect(json(researcherReply(ask('idea/agent', 'goal')))).toMatchObject({ title: 'Geometric gap ratio for Shell sort', ideas: expect.any(Array) });
    expect(json(researcherReply(ask('idea/agent', 'goal'))).ideas).toHaveLength(3);
    expect(json(researcherReply(ask('idea/discussion', 'round 1')))).toMatchObject({ ideas: expect.any(Array), critique: expect.any(String) });
    const file = json(researcherReply(ask('idea/synthesis', 'all proposals')));
    expect(file).toMatchObject({ gap_analysis: expect.any(String), primary_metric: 'comparisons', higher_is_better: false, metric_rationale: expect.any(String) });
    expect(file.ideas).toHaveLength(3);
    for (const idea of file.ideas) {
      expect(idea.overall_score).toBe(Math.round(((2 * idea.novelty_score + idea.feasibility_score + idea.clarity_score) / 4) * 100) / 100);
      expect(idea).toMatchObject({ title: expect.any(String), experiment_plan: expect.stringContaining('§'), novelty_score: expect.any(Number), feasibility_score: expect.any(Number) });
    }
  });

  test('an unknown or missing prompt name is named in the answer', () => {
    expect(text(researcherReply(ask('paper/write', 'x')))).toContain("unknown prompt 'paper/write'");
    expect(text(researcherReply({ messages: [{ role: 'system', content: 'no marker' }, { role: 'user', content: 'x' }] }))).toContain('has no <!-- prompt');
    expect(text(researcherReply({}))).toContain('unknown prompt');
  });

  test('the same request gets the same answer', () => {
    const requests = [ask('evaluator/judge', NODE_OUTPUT), ask('orchestrator/bfts_expand', 'gap_ratio=2.25'), ask('agent/system', 'Direction: gap_ratio=2.6')];
    requests[2]!.tools = [{ type: 'function', function: { name: 'write_code' } }];
    for (const r of requests) expect(researcherReply(structuredClone(r))).toEqual(researcherReply(r));
  });
});

describe('the agent', () => {
  const TOOLS = [{ type: 'function', function: { name: 'coding-skill__write_code' } }, { type: 'function', function: { name: 'run_code' } }, { type: 'function', function: { name: 'emit_results' } }];
  const node = (direction: string, more: OpenAIMessage[] = []): OpenAIChatRequest => ({ messages: [system('agent/system'), { role: 'user', content: `Direction: ${direction}` }, ...more], tools: TOOLS });
  const called = (name: string, args: object, id = 'c1') => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
  const result = (content: unknown, id = 'c1') => ({ role: 'tool', tool_call_id: id, content: typeof content === 'string' ? content : JSON.stringify(content) });
  const call = (step: ReplyStep) => ('toolCalls' in step ? step.toolCalls[0] : undefined);

  test('writes the variant, runs it, emits what it printed, then answers success', () => {
    const write = call(researcherReply(node('improve with gap_ratio=2.6')));
    expect(write).toMatchObject({ name: 'coding-skill__write_code', id: 'call_1_write_code', args: { filename: PROGRAM_FILE } });
    expect((write?.args as { code: string }).code).toContain('const GAP_RATIO = 2.6;');
    const wrote = [called('coding-skill__write_code', write?.args ?? {}), result({ path: '/w/x', bytes: 10 })];
    expect(call(researcherReply(node('gap_ratio=2.6', wrote)))).toMatchObject({ name: 'run_code', id: 'call_2_run_code', args: { filename: PROGRAM_FILE } });
    const ran = [...wrote, called('run_code', { filename: PROGRAM_FILE }, 'c2'), result({ exit_code: 0, stdout: NODE_OUTPUT, stderr: '' }, 'c2')];
    expect(call(researcherReply(node('gap_ratio=2.6', ran)))).toMatchObject({ name: 'emit_results', args: { params: { algorithm: 'shell', gap_ratio: 2.25 }, measurements: { comparisons: 33064 } } });
    const emitted = [...ran, called('emit_results', {}, 'c3'), result({ result: { path: '/w/results.json' } }, 'c3')];
    const done = json(researcherReply(node('gap_ratio=2.6', emitted)));
    expect(done).toMatchObject({ status: 'success', artifacts: [PROGRAM_FILE, 'results.json'] });
    expect(done.summary).toContain('33064 comparisons');
    expect(done.summary).not.toContain('gap_ratio=');
  });

  test('a failed run is fixed once, a second failure ends the node saying why', () => {
    const failedRun = [called('write_code', { filename: PROGRAM_FILE }), result({ path: 'p' }), called('run_code', {}, 'c2'), result({ exit_code: 1, stdout: '', stderr: 'SyntaxError' }, 'c2')];
    expect(call(researcherReply(node('gap_ratio=2.2', failedRun)))?.name).toBe('coding-skill__write_code');
    const twice = [...failedRun, called('write_code', { filename: PROGRAM_FILE }, 'c3'), result({ path: 'p' }, 'c3'), called('run_code', {}, 'c4'), result({ error: 'node is not on PATH' }, 'c4')];
    expect(json(researcherReply(node('gap_ratio=2.2', twice)))).toMatchObject({ status: 'failed', summary: expect.stringContaining('node is not on PATH') });
    const badWrite = [called('write_code', {}), result('Error: disk full'), called('write_code', {}, 'c2'), result('error: disk full', 'c2')];
    expect(json(researcherReply(node('gap_ratio=2.2', badWrite)))).toMatchObject({ status: 'failed', summary: expect.stringContaining('write_code failed') });
  });

  test('a refused emit_results is retried once without params', () => {
    const ran = [called('write_code', {}), result({ path: 'p' }), called('run_code', {}, 'c2'), result({ exit_code: 0, stdout: NODE_OUTPUT }, 'c2'), called('emit_results', {}, 'c3'), result({ error: 'emit_results: bad params' }, 'c3')];
    const retry = call(researcherReply(node('x', ran)));
    expect(retry).toMatchObject({ name: 'emit_results', args: { measurements: { comparisons: 33064 } } });
    expect(retry?.args).not.toHaveProperty('params');
    const again = [...ran, called('emit_results', {}, 'c4'), result({ error: 'no' }, 'c4')];
    expect(json(researcherReply(node('x', again))).status).toBe('failed');
  });

  test('without tools it answers the final JSON at once', () => {
    const body = node('gap_ratio=2.4');
    body.tool_choice = 'none';
    expect(json(researcherReply(body))).toMatchObject({ status: 'failed' });
  });
});

describe('a node run through the real model client and coding tools', () => {
  let box: Sandbox;
  let server: ModelServer;
  let work: string;
  beforeEach(() => {
    box = sandbox();
    work = tempDir('svc-demo-work-');
    server = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
  });
  afterEach(() => {
    server.stop();
    box.close();
    removeDir(work);
  });

  const TOOLS: ToolDef<any>[] = [writeCode, runCode, emitResults];
  const specs: ToolSpec[] = TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: JSON.parse(JSON.stringify(t.params)) }));

  /** The agent's loop in miniature: ask, run the tool it called, until it answers in text. */
  async function episode(env: Record<string, string>, task = 'Direction: improve with gap_ratio=2.4', dir = work): Promise<{ final: string; steps: string[] }> {
    const c = createModelClient({ cfg: box.load(env), checkpointDir: box.checkpoint });
    const messages: ChatMessage[] = [{ role: 'system', content: '<!-- prompt: agent/system -->\nYou are a researcher.' }, { role: 'user', content: task }];
    const steps: string[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await c.complete({ role: 'bfts', messages, tools: specs, toolChoice: 'auto', temperature: 0 });
      messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
      if (answer.toolCalls.length === 0) return { final: answer.text, steps };
      for (const tc of answer.toolCalls) {
        steps.push(tc.name);
        const tool = TOOLS.find((t) => t.name === tc.name);
        const out = tool ? await callTool(tool, tc.args as Record<string, unknown>, { PATH: process.env.PATH, SVC_WORK_DIR: dir }).then((r) => ({ result: r })).catch((e: Error) => ({ error: e.message })) : { error: 'no such tool' };
        // a run's elapsed_s is a time: a model request holding it could not be replayed
        messages.push({ role: 'tool', toolCallId: tc.id, name: tc.name, content: JSON.stringify(out, (k, v) => (k === 'elapsed_s' ? undefined : v)) });
      }
    }
    throw new Error('the scripted agent did not finish in 8 steps');
  }

  test('writes a real program, measures it, records results.json, and replays identically', async () => {
    const live = await episode({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted' });
    expect(live.steps).toEqual(['write_code', 'run_code', 'emit_results']);
    expect(JSON.parse(live.final)).toMatchObject({ status: 'success' });
    const results = JSON.parse(readFileSync(join(work, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ params: { algorithm: 'shell', gap_ratio: 2.4, seed: 42, n: 2000 }, measurements: { comparisons: 30850, sorted: 1 } });
    server.stop();
    const replayed = await episode({ SVC_BACKEND: 'replay', SVC_MODEL: 'scripted' });
    expect(replayed).toEqual(live);
  });

  test('a small tree: each expansion asks for another variant, so every child changes the program and the count', async () => {
    const env = { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted' };
    const c = createModelClient({ cfg: box.load(env), checkpointDir: box.checkpoint });
    const nodes: { direction: string; program: string; comparisons: number }[] = [];
    const runNode = async (direction: string) => {
      const dir = join(work, `node${nodes.length}`);
      const done = await episode(env, `Goal: fewer comparisons.\nDirection: ${direction}`, dir);
      expect(JSON.parse(done.final).status).toBe('success');
      const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
      nodes.push({ direction, program: readFileSync(join(dir, PROGRAM_FILE), 'utf8'), comparisons: results.measurements.comparisons });
    };
    await runNode('(root: no direction)');
    const children: string[] = [];
    for (let i = 0; i < 4; i++) {
      const parent = nodes[0];
      const prompt = `Parent: comparisons=${parent?.comparisons}\nChildren so far:\n${children.map((d, k) => `[${k}] ${d}`).join('\n')}`;
      const answer = await c.complete({ role: 'bfts', messages: [{ role: 'system', content: '<!-- prompt: orchestrator/bfts_expand -->\nPropose one child.' }, { role: 'user', content: prompt }] });
      const [child] = JSON.parse(answer.text) as { label: string; direction: string }[];
      children.push(`${child?.label}: ${child?.direction}`);
      await runNode(child?.direction ?? '');
    }
    expect(children.map((d) => d.split(':')[0])).toEqual(['improve', 'ablation', 'validation', 'improve']);
    expect(new Set(nodes.map((n) => n.program)).size).toBe(5);
    expect(new Set(nodes.map((n) => n.comparisons)).size).toBe(5);
    expect(Math.min(...nodes.map((n) => n.comparisons))).toBeLessThan(nodes[0]?.comparisons ?? 0);
  });
});

describe('the model server responder', () => {
  let server: ModelServer;
  afterEach(() => server.stop());
  const chat = async (body: object) => (await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', ...body }) })) as Response;

  test('a script answers first, then the responder, given the body and protocol', async () => {
    const seen: string[] = [];
    server = startModelServer([{ text: 'scripted' }], {
      respond: (body, protocol) => {
        seen.push(`${protocol}:${(body.messages as { content: string }[])[0]?.content}`);
        return { text: 'responded' };
      },
    });
    const first = (await (await chat({ messages: [{ role: 'user', content: 'a' }] })).json()) as any;
    const second = (await (await chat({ messages: [{ role: 'user', content: 'b' }] })).json()) as any;
    expect([first.choices[0].message.content, second.choices[0].message.content]).toEqual(['scripted', 'responded']);
    expect(seen).toEqual(['openai:b']);
  });

  test('a responder that gives no answer is a 500 naming the request', async () => {
    server = startModelServer([], { respond: () => ({ delayMs: 1 }) });
    const res = await chat({ messages: [] });
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).toContain('responder gave no answer for request 1');
  });
});
