import { describe, expect, test } from 'bun:test';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { carriedWorkflow } from '../../../src/cli/run-args.ts';
import { InputError, NotFoundError } from '../../../src/core/errors.ts';
import { CassettePlayer, canonicalJson, checkReplayWorkflow, readCassetteHeader, requestKey, startCassette, workflowDigest } from '../../../src/llm/cassette.ts';
import { ReplayDivergedError } from '../../../src/llm/errors.ts';
import type { ChatMessage, Completion, CompletionRequest, ToolSpec } from '../../../src/llm/types.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const live = () => ({ LOCALLLM_HOST: server.url.slice(7) });
const cassette = () => join(box.checkpoint, 'llm_cassette.jsonl');
const RUN: ToolSpec = { name: 'run_code', description: 'run it', parameters: { type: 'object', properties: { code: { type: 'string' } } } };
const SECRET_PROMPT = 'a long experiment description that must not be copied into the cassette';

/** A short agent episode: a tool call, its result, a final answer, and a JSON judgement from another role. */
async function episode(c: ReturnType<typeof client>): Promise<Completion[]> {
  const messages: ChatMessage[] = [{ role: 'user', content: SECRET_PROMPT }];
  const first = await c.complete({ role: 'bfts', messages, tools: [RUN], temperature: 0 });
  messages.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls }, { role: 'tool', toolCallId: first.toolCalls[0]?.id ?? '', name: 'run_code', content: 'ok' });
  const second = await c.complete({ role: 'bfts', messages, tools: [RUN], temperature: 0 });
  const third = await c.complete({ role: 'eval', messages: [{ role: 'user', content: 'score it' }] });
  return [first, second, third];
}

const comparable = (c: Completion) => ({ ...c, backend: undefined, costUsd: undefined });

describe('record, then replay offline', () => {
  test('the replayed run gets identical answers with no server at all', async () => {
    server.push({ toolCalls: [{ name: 'run_code', args: { code: 'print(1)' }, id: 'call_9' }], usage: { prompt: 20, completion: 4 } }, { text: 'done', usage: { prompt: 30, completion: 2 } }, { text: '{"score": 0.7}' });
    const recorded = await episode(client(box, live(), true));
    server.stop();
    const lines = readFileSync(cassette(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ role: 'bfts', model: 'qwen3:4b', backend: 'localllm', message_count: 1, response: { toolCalls: [{ id: 'call_9' }] } });
    expect(readFileSync(cassette(), 'utf8')).not.toContain(SECRET_PROMPT);

    const replayed = await episode(client(box, { SVC_BACKEND: 'replay', LOCALLLM_HOST: '127.0.0.1:1' }, true));
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
    expect(replayed.map((c) => [c.backend, c.costUsd])).toEqual([['replay', 0], ['replay', 0], ['replay', 0]]);
    // replaying does not record again; the ledger has the replayed calls at cost 0
    expect(readFileSync(cassette(), 'utf8').trim().split('\n')).toHaveLength(3);
    const trace = readFileSync(join(box.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(trace.slice(3).map((r) => [r.backend, r.estimated_cost_usd, r.price_source, r.total_tokens])).toEqual([['replay', 0, 'replay', 24], ['replay', 0, 'replay', 32], ['replay', 0, 'replay', 15]]);
  });

  test('SVC_REPLAY_CASSETTE replays into another checkpoint', async () => {
    server.push({ text: 'one' });
    await client(box, live(), true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    const other = join(box.project, 'workspace', 'checkpoints', 'run2');
    mkdirSync(other);
    const cfg = box.load({ SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: cassette() });
    const { createModelClient } = await import('../../../src/llm/client.ts');
    const c = await createModelClient({ cfg, checkpointDir: other }).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    expect(c.text).toBe('one');
    expect(existsSync(join(other, 'llm_cassette.jsonl'))).toBe(false);
    expect(existsSync(join(other, 'cost_trace.jsonl'))).toBe(true);
  });

  test('a served id that starts like a backend name replays under the same model setting', async () => {
    server.push({ text: 'from vllm' });
    const ask: CompletionRequest = { role: 'run', messages: [{ role: 'user', content: 'q' }] };
    await client(box, { SVC_BACKEND: 'vllm', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'openai/gpt-oss-20b' }, true).complete(ask);
    expect((server.requests[0]?.body as { model: string }).model).toBe('openai/gpt-oss-20b');
    const c = await client(box, { SVC_BACKEND: 'replay', SVC_MODEL: 'openai/gpt-oss-20b' }, true).complete(ask);
    expect(c).toMatchObject({ text: 'from vllm', model: 'openai/gpt-oss-20b', backend: 'replay' });
  });

  test('the same request asked again gets the recorded answers in recorded order', async () => {
    server.push({ text: 'first' }, { text: 'second' });
    const ask: CompletionRequest = { role: 'idea', messages: [{ role: 'user', content: 'an idea please' }] };
    const rec = client(box, live(), true);
    await rec.complete(ask);
    await rec.complete(ask);
    const rep = client(box, { SVC_BACKEND: 'replay' }, true);
    const answers = await Promise.all([rep.complete(ask), rep.complete(ask)]);
    expect(answers.map((a) => a.text)).toEqual(['first', 'second']);
    const third = await rejection(rep.complete(ask));
    expect(third.message).toBe(`replay diverged from the recording: the idea request to qwen3:4b that the cassette ${cassette()} does not hold (its 2 recorded answers are used up)`);
  });
});

describe('divergence and missing cassettes', () => {
  test('a request the recording does not hold', async () => {
    server.push({ text: 'x' });
    await client(box, live(), true).complete({ role: 'run', messages: [{ role: 'user', content: 'recorded' }] });
    const err = await rejection(client(box, { SVC_BACKEND: 'replay' }, true).complete({ role: 'paper', messages: [{ role: 'user', content: 'something else' }] }));
    expect(err).toBeInstanceOf(ReplayDivergedError);
    expect(err.message).toBe(`replay diverged from the recording: the paper request to qwen3:4b that the cassette ${cassette()} does not hold (it has no recorded answer)`);
    expect(err.message).not.toContain('\n');
  });

  test('no cassette file, no checkpoint', async () => {
    const missing = await rejection(client(box, { SVC_BACKEND: 'replay' }, true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`no cassette to replay at ${cassette()}`);
    const none = await rejection(client(box, { SVC_BACKEND: 'replay' }, false).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] }));
    expect(none).toBeInstanceOf(InputError);
    expect(none.message).toBe('the replay backend needs a cassette');
  });

  test('a torn last line of a killed run is skipped', async () => {
    server.push({ text: 'kept' });
    await client(box, live(), true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    appendFileSync(cassette(), '{"key": "abc", "response": {"te');
    const c = await client(box, { SVC_BACKEND: 'replay' }, true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    expect(c.text).toBe('kept');
  });

  test('SVC_LLM_RECORD=off and a client without a checkpoint record nothing', async () => {
    server.push({ text: 'a' }, { text: 'b' });
    await client(box, { ...live(), SVC_LLM_RECORD: 'off' }, true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    await client(box, live(), false).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    expect(existsSync(cassette())).toBe(false);
  });
});

test('the key covers what decides the answer, in any key order', () => {
  const base: CompletionRequest = { role: 'run', messages: [{ role: 'user', content: 'x' }], temperature: 0.5 };
  expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: undefined } })).toBe('{"a":{"d":[1,{"e":3,"f":2}]},"b":1}');
  expect(requestKey('m', base)).toBe(requestKey('m', { temperature: 0.5, messages: [{ content: 'x', role: 'user' }], role: 'eval', meta: { node_id: 'n' } }));
  expect(requestKey('m', base)).not.toBe(requestKey('m2', base));
  expect(requestKey('m', base)).not.toBe(requestKey('m', { ...base, temperature: 0.6 }));
  expect(requestKey('m', base)).not.toBe(requestKey('m', { ...base, maxOutputTokens: 10 }));
  expect(requestKey('m', base)).not.toBe(requestKey('m', { ...base, tools: [RUN] }));
  expect(requestKey('m', base)).not.toBe(requestKey('m', { ...base, toolChoice: 'required' }));
  // a seed counts when given; a request without one keys as it did before seeds were sent
  expect(requestKey('m', base)).not.toBe(requestKey('m', { ...base, seed: 0 }));
  expect(requestKey('m', { ...base, seed: 1 })).not.toBe(requestKey('m', { ...base, seed: 0 }));
  expect(requestKey('m', base)).toBe(new Bun.CryptoHasher('sha256').update(canonicalJson({ model: 'm', messages: base.messages, tools: null, toolChoice: null, temperature: 0.5, maxOutputTokens: null })).digest('hex'));
});

test('the key leaves out what names the run and how long a command took, and nothing else', () => {
  const ask = (ckpt: string, elapsed: number, stdout = 'comparisons=412'): CompletionRequest => {
    const result = JSON.stringify({ exit_code: 0, stdout, elapsed_s: elapsed, file: `${ckpt.replace('checkpoints', 'experiments')}/node_1/sort.js` });
    return {
      role: 'bfts',
      messages: [
        { role: 'system', content: `work in ${ckpt} (run ${ckpt.split('/').pop()})` },
        { role: 'tool', toolCallId: 'c1', name: 'run_code', content: JSON.stringify({ result }) },
      ],
    };
  };
  const parts = (ckpt: string) =>
    [
      [ckpt, '{checkpoint}'],
      [ckpt.replace('checkpoints', 'experiments'), '{experiments}'],
      [ckpt.split('/').pop() ?? '', '{run_id}'],
    ] as const;
  const a = '/home/u/workspace/checkpoints/20261122130000_sort_study';
  const b = '/tmp/x/workspace/checkpoints/20261123090501_sort_study';
  expect(requestKey('m', ask(a, 0.031), parts(a))).toBe(requestKey('m', ask(b, 12.5), parts(b)));
  expect(requestKey('m', ask(a, 0.031), parts(a))).not.toBe(requestKey('m', ask(b, 0.031, 'comparisons=413'), parts(b)));
  // without the parts the paths decide the key
  expect(requestKey('m', ask(a, 0.031))).not.toBe(requestKey('m', ask(b, 0.031)));
});

test('a short run name is left out inside its paths and its root node id, and nowhere else', () => {
  const ask = (run: string, text: string): CompletionRequest => ({ role: 'bfts', messages: [{ role: 'user', content: `expand node_${run}_root in /w/checkpoints/${run}: ${text}` }] });
  const parts = (run: string) =>
    [
      [`/w/checkpoints/${run}`, '{checkpoint}'],
      [`/w/experiments/${run}`, '{experiments}'],
      [`node_${run}_root`, 'node_{run_id}_root'],
      [run, '{run_id}'],
    ] as const;
  const long = '20261122130000_sort_study';
  expect(requestKey('m', ask('abc', 'sort it'), parts('abc'))).toBe(requestKey('m', ask(long, 'sort it'), parts(long)));
  // a run called run: the word run in the text is the text's own
  expect(requestKey('m', ask('run', 'run the program'), parts('run'))).toBe(requestKey('m', ask(long, 'run the program'), parts(long)));
});

describe('the workflow a cassette carries', () => {
  const WF = 'llm:\n  model: m\nbfts:\n  max_nodes: 5\n';

  test('with the files it names: a replay without --config finds them beside the workflow; a name leading out is refused', () => {
    const files = { 'library.bib': '@book{k, title={T}}\n', 'prompts/bfts_select_prompt.md': 'pick {candidates}' };
    startCassette(cassette(), WF, files);
    expect(readCassetteHeader(cassette())).toEqual({ svc_cassette: 1, workflow_sha256: workflowDigest(WF), workflow: WF, files });
    const carried = carriedWorkflow(cassette());
    try {
      expect(readFileSync(carried?.path ?? '', 'utf8')).toBe(WF);
      expect(readFileSync(join(dirname(carried?.path ?? ''), 'prompts/bfts_select_prompt.md'), 'utf8')).toBe('pick {candidates}');
      expect(readFileSync(join(dirname(carried?.path ?? ''), 'library.bib'), 'utf8')).toBe(files['library.bib']);
    } finally {
      carried?.remove();
    }
    const hostile = join(box.dir, 'hostile.jsonl');
    writeFileSync(hostile, `${JSON.stringify({ svc_cassette: 1, workflow_sha256: workflowDigest(WF), workflow: WF, files: { '../../escaped.txt': 'x' } })}\n`);
    expect(() => carriedWorkflow(hostile)).toThrow(/leads outside|outside/);
    expect(existsSync(join(box.dir, '..', 'escaped.txt'))).toBe(false);
  });

  test('a file that would make the header longer than a replay reads is left out, and named; the others are carried', () => {
    const small = { 'prompts/bfts_select_prompt.md': 'pick {candidates}' };
    expect(startCassette(cassette(), WF, { 'library.bib': 'x'.repeat(17 * 1024 * 1024), ...small })).toEqual(['library.bib']);
    expect(readCassetteHeader(cassette())).toEqual({ svc_cassette: 1, workflow_sha256: workflowDigest(WF), workflow: WF, files: small });
  });

  test('a new cassette starts with the workflow and its digest; players skip that line', async () => {
    server.push({ text: 'one' });
    startCassette(cassette(), WF);
    await client(box, live(), true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    startCassette(cassette(), 'other'); // a cassette that has lines keeps them
    const lines = readFileSync(cassette(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(readCassetteHeader(cassette())).toEqual({ svc_cassette: 1, workflow_sha256: workflowDigest(WF), workflow: WF });
    const answer = await client(box, { SVC_BACKEND: 'replay', LOCALLLM_HOST: '127.0.0.1:1' }, true).complete({ role: 'run', messages: [{ role: 'user', content: 'q' }] });
    expect(answer.text).toBe('one');
  });

  test('replaying under the same workflow passes; under another it is refused naming both digests and the fix', () => {
    startCassette(cassette(), WF);
    expect(() => checkReplayWorkflow(cassette(), WF)).not.toThrow();
    const err = (() => {
      try {
        checkReplayWorkflow(cassette(), WF.replace('5', '9'));
        return null;
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(err?.message).toBe(`the cassette ${cassette()} was recorded with another workflow (sha256 ${workflowDigest(WF).slice(0, 12)}, this run's is ${workflowDigest(WF.replace('5', '9')).slice(0, 12)}): its answers would not fit this run's requests`);
    expect(err?.hint).toBe('replay it with the workflow it carries: leave out --config');
  });

  test('a cassette without a header (recorded before there were headers) is replayed without the check', () => {
    writeFileSync(cassette(), '{"key":"k","role":"run","model":"m","backend":"x","recorded_at":"t","message_count":1,"response":{"text":"a","toolCalls":[],"usage":{}}}\n');
    expect(readCassetteHeader(cassette())).toBeNull();
    expect(() => checkReplayWorkflow(cassette(), 'anything')).not.toThrow();
    expect(new CassettePlayer(cassette()).next('k', 'run', 'm').text).toBe('a');
  });
});
