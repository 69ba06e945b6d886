import { expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BudgetExceededError } from '../../../src/llm/errors.ts';
import { flushCostSummaries } from '../../../src/llm/ledger.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
  writeFileSync(join(box.dir, 'prices.yaml'), 'priced: [1.0, 1.0]\n');
});

// every call costs (10 + 5) / 1000 * $1 = $0.015
const env = (budget: string) => ({ LOCALLLM_HOST: server.url.slice(7), SVC_MODEL: 'priced-model', SVC_MODEL_PRICES: join(box.dir, 'prices.yaml'), SVC_BUDGET_USD: budget });
const ASK = { role: 'run' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
const trace = () => join(box.checkpoint, 'cost_trace.jsonl');

test('calls stop cleanly once the budget is spent; the refused call sends and appends nothing', async () => {
  server.push({ text: 'a' }, { text: 'b' }, { text: 'never sent' });
  const c = client(box, env('0.03'), true);
  await c.complete(ASK);
  await c.complete(ASK);
  const before = readFileSync(trace(), 'utf8');
  flushCostSummaries();
  const summaryBefore = readFileSync(join(box.checkpoint, 'cost_summary.json'), 'utf8');
  const err = await rejection(c.complete(ASK));
  expect(err).toBeInstanceOf(BudgetExceededError);
  expect(err.message).toBe('model budget reached: $0.030000 spent of SVC_BUDGET_USD=0.03');
  expect((err as BudgetExceededError).hint).toBe(`raise or unset SVC_BUDGET_USD to allow more calls (spend counted from ${trace()})`);
  expect(server.requests).toHaveLength(2);
  expect(readFileSync(trace(), 'utf8')).toBe(before);
  flushCostSummaries();
  expect(readFileSync(join(box.checkpoint, 'cost_summary.json'), 'utf8')).toBe(summaryBefore);
  expect(c.spentUsd()).toBe(0.03);
});

test("another process's spend on the same checkpoint counts, a resumed trace too", async () => {
  writeFileSync(trace(), `${JSON.stringify({ timestamp: '2025-01-01T00:00:00Z', model: 'x', estimated_cost_usd: 0.5, total_tokens: 1 })}\n`);
  const c = client(box, env('1'), true);
  server.push({ text: 'a' });
  await c.complete(ASK);
  // a skill process appends while this client lives
  writeFileSync(trace(), `${readFileSync(trace(), 'utf8')}${JSON.stringify({ timestamp: '2025-01-01T00:00:01Z', model: 'x', estimated_cost_usd: 0.6, total_tokens: 1 })}\n`);
  const err = await rejection(c.complete(ASK));
  expect(err.message).toBe('model budget reached: $1.115000 spent of SVC_BUDGET_USD=1');
  expect(server.requests).toHaveLength(1);
});

test('without a checkpoint the budget counts this client in memory, and no file is written', async () => {
  server.push({ text: 'a' }, { text: 'never sent' });
  const c = client(box, env('0.01'), false);
  await c.complete(ASK);
  const err = await rejection(c.complete(ASK));
  expect(err).toBeInstanceOf(BudgetExceededError);
  expect((err as BudgetExceededError).hint).toContain('spend of this process');
  expect(server.requests).toHaveLength(1);
  expect(existsSync(trace())).toBe(false);
});

test('a budget of 0 refuses the first call; a bad budget is an input error', async () => {
  expect((await rejection(client(box, env('0'), true).complete(ASK))).message).toBe('model budget reached: $0.000000 spent of SVC_BUDGET_USD=0');
  expect(() => client(box, env('ten dollars'), true)).toThrow("SVC_BUDGET_USD must be a number of at least 0, got 'ten dollars'");
  expect(() => client(box, env('-1'), true)).toThrow("SVC_BUDGET_USD must be a number of at least 0, got '-1'");
  expect(server.requests).toHaveLength(0);
});
