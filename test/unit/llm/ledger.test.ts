import { describe, expect, test } from 'bun:test';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError } from '../../../src/core/errors.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { CostLedger, type CostRecord, costRecordOf, flushCostSummaries } from '../../../src/llm/ledger.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const traceLines = () => readFileSync(join(box.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as CostRecord);
const summaryOnDisk = () => JSON.parse(readFileSync(join(box.checkpoint, 'cost_summary.json'), 'utf8'));
/** the summary once this process has written what it owes, as it does at exit */
const summary = () => {
  flushCostSummaries();
  return summaryOnDisk();
};
const hostedA = (s: ModelServer, extra: Record<string, string> = {}) => ({ SVC_BACKEND: 'providera', PROVIDERA_API_KEY: 'k', LLM_API_BASE: `${s.url}/v1`, SVC_MODEL: 'gpt-4o-mini', SVC_LLM_RECORD: 'off', ...extra });
const ask = (role: 'run' | 'bfts' = 'run', meta = {}) => ({ role, messages: [{ role: 'user' as const, content: 'hi' }], meta });
const record = (over: Partial<CostRecord> = {}): CostRecord => ({
  ...costRecordOf({ role: 'bfts', model: 'm', backend: 'providera', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, price: { costUsd: 0.001, source: 'override' }, latencyMs: 1 }),
  ...over,
});

describe('cost_trace.jsonl and cost_summary.json through real calls', () => {
  test('one ARI record per call, priced from the maintained table; the summary by phase and by model', async () => {
    server.push({ text: 'a', usage: { prompt: 1000, completion: 1000 } }, { text: 'b', usage: { prompt: 2000, completion: 0 } });
    const c = client(box, hostedA(server, { SVC_CURRENT_NODE_ID: 'node_7' }), true);
    const first = await c.complete(ask('bfts', { skill: 'coding-skill', op: 'react' }));
    expect(first.costUsd).toBeCloseTo(0.00075, 10); // gpt-4o-mini: $0.15 and $0.60 per million tokens
    await c.complete(ask('run', { phase: 'paper', node_id: 'node_9' }));
    const [a, b] = traceLines();
    expect(Object.keys(a as object)).toEqual(['timestamp', 'node_id', 'phase', 'skill', 'model', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'estimated_cost_usd', 'component', 'op', 'backend', 'embedding_tokens', 'latency_ms', 'price_source']);
    expect(a).toMatchObject({ node_id: 'node_7', phase: 'bfts', skill: 'coding-skill', model: 'gpt-4o-mini', prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000, component: 'llm', op: 'react', backend: 'providera', embedding_tokens: 0, price_source: 'genai-prices' });
    expect(a?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(b).toMatchObject({ node_id: 'node_9', phase: 'paper', skill: null, op: 'completion', estimated_cost_usd: 0.0003 });
    expect(summary()).toEqual({
      total_cost_usd: 0.00105,
      total_tokens: 4000,
      call_count: 2,
      by_phase: { bfts: { cost_usd: 0.00075, tokens: 2000 }, paper: { cost_usd: 0.0003, tokens: 2000 } },
      by_model: { 'gpt-4o-mini': { cost_usd: 0.00105, tokens: 4000 } },
    });
    expect(readdirSync(box.checkpoint).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('the local daemon costs 0; an unknown hosted model costs 0 and says so', async () => {
    server.push({ text: 'a' }, { text: 'b' });
    await client(box, { LOCALLLM_HOST: server.url.slice(7), SVC_LLM_RECORD: 'off' }, true).complete(ask());
    await client(box, { SVC_BACKEND: 'vllm', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'my-org/fine-tune-7b', SVC_LLM_RECORD: 'off' }, true).complete(ask());
    expect(traceLines().map((r) => [r.backend, r.estimated_cost_usd, r.price_source])).toEqual([
      ['localllm', 0, 'local'],
      ['openai-compatible', 0, 'unknown'],
    ]);
    expect(summary()).toMatchObject({ call_count: 2, total_cost_usd: 0, by_phase: { unknown: { cost_usd: 0, tokens: 30 } } });
  });

  test('a client given no checkpoint (a skill process) uses SVC_CHECKPOINT_DIR', async () => {
    server.push({ text: 'a' });
    const cfg = box.load({ LOCALLLM_HOST: server.url.slice(7), SVC_CHECKPOINT_DIR: box.checkpoint });
    await createModelClient({ cfg }).complete(ask('run', { skill: 'idea-skill' }));
    expect(traceLines()).toMatchObject([{ skill: 'idea-skill', backend: 'localllm' }]);
  });

  test('a failed call is not in the ledger', async () => {
    server.push({ status: 400 });
    await rejection(client(box, hostedA(server), true).complete(ask()));
    expect(existsSync(join(box.checkpoint, 'cost_trace.jsonl'))).toBe(false);
  });
});

describe('price overrides', () => {
  test('SVC_MODEL_PRICES wins over the table: the first key contained in the lower-cased id', async () => {
    const file = join(box.dir, 'prices.yaml');
    writeFileSync(file, '# per 1K tokens\ngpt-4o: [1.0, 2.0]\ngpt-4o-mini: [9, 9]\n');
    server.push({ text: 'a', usage: { prompt: 500, completion: 250 } });
    const c = await client(box, hostedA(server, { SVC_MODEL_PRICES: file, SVC_MODEL: 'GPT-4o-mini' }), true).complete(ask());
    expect(c.costUsd).toBe(1.0);
    expect(traceLines()[0]).toMatchObject({ estimated_cost_usd: 1.0, price_source: 'override' });
  });

  test('<checkpoint>/model_prices.yaml when SVC_MODEL_PRICES is unset, local models included', async () => {
    writeFileSync(join(box.checkpoint, 'model_prices.yaml'), 'qwen3: [0.001, 0.002]\n');
    server.push({ text: 'a', usage: { prompt: 1000, completion: 1000 } });
    const c = await client(box, { LOCALLLM_HOST: server.url.slice(7) }, true).complete(ask());
    expect(c.costUsd).toBeCloseTo(0.003, 10);
  });

  test('a bad price file is an input error naming it', () => {
    const file = join(box.dir, 'prices.yaml');
    writeFileSync(file, 'gpt-4o: 0.5\n');
    expect(() => client(box, { SVC_MODEL_PRICES: file }, true)).toThrow(`${file}: the price of 'gpt-4o' must be [input, output] USD per 1K tokens, two numbers of at least 0`);
    expect(() => client(box, { SVC_MODEL_PRICES: join(box.dir, 'absent.yaml') }, true)).toThrow(`SVC_MODEL_PRICES names ${join(box.dir, 'absent.yaml')}, which cannot be read (ENOENT)`);
  });
});

describe('several writers, torn lines, resume', () => {
  test('two ledgers on one trace: each summary counts every line', () => {
    const one = new CostLedger(box.checkpoint, null);
    const two = new CostLedger(box.checkpoint, null);
    for (let i = 0; i < 5; i++) {
      one.append(record({ phase: 'bfts' }));
      two.append(record({ phase: 'paper' }));
    }
    expect(summary()).toMatchObject({ call_count: 10, total_cost_usd: 0.01, by_phase: { bfts: { tokens: 75 }, paper: { tokens: 75 } } });
    expect(one.summary().call_count).toBe(10);
  });

  test('a burst of answers shares one summary write: the first at once, the rest when the span ends, none lost', async () => {
    const ledger = new CostLedger(box.checkpoint, null);
    for (let i = 0; i < 50; i++) ledger.append(record());
    expect(traceLines()).toHaveLength(50);
    expect(summaryOnDisk()).toMatchObject({ call_count: 1 });
    // the pending write comes by itself, without a flush
    for (let waited = 0; summaryOnDisk().call_count < 50 && waited < 100; waited++) await Bun.sleep(50);
    expect(summaryOnDisk()).toMatchObject({ call_count: 50, total_cost_usd: 0.05 });
    expect(readdirSync(box.checkpoint).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('a process that exits right after a burst leaves a summary that counts it all', async () => {
    const writer = join(import.meta.dir, 'ledger-writer.ts');
    const proc = Bun.spawn([process.execPath, writer, box.checkpoint, '30', 'burst'], { stdout: 'ignore', stderr: 'pipe' });
    expect(await proc.exited).toBe(0);
    expect(summaryOnDisk()).toMatchObject({ call_count: 30, by_phase: { burst: { tokens: 450 } } });
  });

  test('processes appending at once: no line lost, the last summary counts them all', async () => {
    const writer = join(import.meta.dir, 'ledger-writer.ts');
    const procs = [1, 2, 3].map((n) => Bun.spawn([process.execPath, writer, box.checkpoint, '200', `p${n}`], { stdout: 'ignore', stderr: 'pipe' }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0]);
    expect(traceLines()).toHaveLength(600);
    expect(summaryOnDisk()).toMatchObject({ call_count: 600, total_tokens: 9000, by_phase: { p1: { tokens: 3000 }, p2: { tokens: 3000 }, p3: { tokens: 3000 } } });
  });

  test('a torn line is skipped; a record glued to it still counts; a line still being written waits', () => {
    const trace = join(box.checkpoint, 'cost_trace.jsonl');
    writeFileSync(trace, `${JSON.stringify(record())}\nnot json at all\n{"timestamp": "2025-01-01T00:00:00Z", "model": "cut-off`);
    const ledger = new CostLedger(box.checkpoint, null);
    expect(ledger.summary().call_count).toBe(1);
    ledger.append(record({ model: 'after' }));
    expect(summary()).toMatchObject({ call_count: 2, by_model: { m: { tokens: 15 }, after: { tokens: 15 } } });
  });

  test('a resumed run counts the existing trace, ARI lines included', () => {
    const ari = '{"timestamp": "2025-01-01T00:00:05Z", "node_id": null, "phase": "idea", "skill": "idea-skill", "model": "gpt-x", "prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150, "estimated_cost_usd": 0.001, "component": "llm", "op": "completion", "backend": "openai", "embedding_tokens": 0, "latency_ms": 900}\n';
    appendFileSync(join(box.checkpoint, 'cost_trace.jsonl'), ari.repeat(3));
    new CostLedger(box.checkpoint, null).append(record());
    expect(summary()).toMatchObject({ call_count: 4, total_cost_usd: 0.004, total_tokens: 465, by_phase: { idea: { cost_usd: 0.003, tokens: 450 }, bfts: { cost_usd: 0.001, tokens: 15 } } });
  });
});

describe('files of the checkpoint that are not what they should be', () => {
  test('a cost trace, summary or cassette that is a symlink out of the checkpoint is refused before any call; the file outside is untouched', async () => {
    const outside = join(box.dir, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    for (const name of ['cost_trace.jsonl', 'cost_summary.json', 'llm_cassette.jsonl']) {
      const link = join(box.checkpoint, name);
      symlinkSync(outside, link);
      const err = await rejection((async () => client(box, hostedA(server, { SVC_LLM_RECORD: 'on' }), true).complete(ask()))());
      expect(err).toBeInstanceOf(InvalidRecordError);
      expect(err.message).toBe(`${link} is a symlink that leads out of the checkpoint`);
      rmSync(link);
    }
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(server.requests).toHaveLength(0);
  });

  test('a symlink that stays inside the checkpoint is followed', () => {
    writeFileSync(join(box.checkpoint, 'real_trace.jsonl'), '');
    symlinkSync('real_trace.jsonl', join(box.checkpoint, 'cost_trace.jsonl'));
    new CostLedger(box.checkpoint, null).append(record());
    expect(readFileSync(join(box.checkpoint, 'real_trace.jsonl'), 'utf8').split('\n')).toHaveLength(2);
  });

  test('a directory where the trace should be is named, not a raw read error', () => {
    mkdirSync(join(box.checkpoint, 'cost_trace.jsonl'));
    expect(() => new CostLedger(box.checkpoint, 5)).toThrow(new InvalidRecordError(`${join(box.checkpoint, 'cost_trace.jsonl')} is not a regular file`));
  });
});
