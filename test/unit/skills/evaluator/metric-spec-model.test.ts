import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../../../../src/core/errors.ts';
import { makeMetricSpec } from '../../../../src/skills/evaluator/make-metric-spec.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';

let base: string;
let checkpoint: string;
let server: ModelServer;
beforeEach(() => {
  base = tempDir();
  checkpoint = join(base, 'checkpoint');
  mkdirSync(checkpoint);
  mkdirSync(join(base, 'home'));
  server = startModelServer();
});
afterEach(() => {
  server.stop();
  removeDir(base);
});

/** The skill process's environment: the run's checkpoint and the model the run uses. */
const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: join(base, 'home'),
  SVC_CHECKPOINT_DIR: checkpoint,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'eval-model',
  SVC_LLM_MAX_RETRIES: '0',
  ...more,
});
const contractFile = () => join(checkpoint, 'metric_contract.json');
const NO_METRIC = '# Cartpole\nTrain a controller that keeps the pole up for as long as possible.\n';
const answer = { metric_keyword: 'Episode Length', higher_is_better: true, min_expected_metric: 195, scoring_guide: ' Judge a node by its mean episode length over 100 episodes. ' };
type Sent = { messages: { role: string; content: string }[] };

describe('make_metric_spec: the model path', () => {
  test('a text that names no metric: the eval model chooses, and the contract is minted once', async () => {
    server.push({ text: JSON.stringify(answer) });
    const r = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, env({ SVC_CURRENT_NODE_ID: 'node_x' }));
    const written = JSON.parse(readFileSync(contractFile(), 'utf8'));
    expect(written).toMatchObject({
      key: 'episode_length',
      formula: 'episode_length',
      required_measured: ['episode_length'],
      metric_keyword: 'episode_length',
      higher_is_better: true,
      min_expected_metric: 195,
      scoring_guide: 'Judge a node by its mean episode length over 100 episodes.',
      source: 'model',
      keyword_found_in: 'model',
    });
    expect(r).toEqual({ ...written, contract_path: contractFile(), contract_frozen: false });

    const messages = (server.requests[0]?.body as Sent).messages;
    const prompt = messages.find((m) => m.role === 'system' && m.content.startsWith('<!-- prompt: evaluator/metric_spec -->\n'));
    expect(prompt?.content).toContain('Train a controller that keeps the pole up');
    expect((server.requests[0]?.body as { model: string }).model).toBe('eval-model');
    const ledger = readFileSync(join(checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ phase: 'bfts', skill: 'evaluator-skill', component: 'evaluator', op: 'metric_spec', node_id: 'node_x' });

    // frozen: the next call asks no model
    const again = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, env());
    expect(again).toEqual({ ...written, contract_path: contractFile(), contract_frozen: true });
    expect(server.requests).toHaveLength(1);
  });

  test('a text that names its metric asks no model', async () => {
    const r = await callTool(makeMetricSpec, { experiment_text: 'Primary metric: accuracy' }, env());
    expect(r.source).toBe('deterministic');
    expect(server.requests).toHaveLength(0);
  });

  test('an unusable answer gets one corrective retry naming what was wrong', async () => {
    server.push({ text: JSON.stringify({ ...answer, min_expected_metric: 'high' }) }, { text: JSON.stringify({ ...answer, higher_is_better: false }) });
    const r = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, env());
    expect(r.higher_is_better).toBe(false);
    expect((server.requests[1]?.body as Sent).messages.at(-1)?.content).toBe('Your answer was rejected: min_expected_metric must be a number. Answer again with only the corrected JSON value.');
  });

  test('without SVC_CHECKPOINT_DIR the model still chooses and nothing is written', async () => {
    server.push({ text: JSON.stringify({ ...answer, higher_is_better: undefined }) });
    const { SVC_CHECKPOINT_DIR: _, ...rest } = env();
    const r = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, rest);
    expect(r).toMatchObject({ metric_keyword: 'episode_length', higher_is_better: true, source: 'model', contract_path: null });
    expect(readdirSync(checkpoint)).toEqual([]);
  });

  test('no usable answer after the retry: an error saying how to name the metric, and no contract', async () => {
    server.push({ text: 'episode length, I guess' }, { text: '{"metric_keyword": ""}' });
    const err = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as SvcError).message).toStartWith('no metric keyword found in experiment_text and the eval model chose none: the eval model eval-model gave no acceptable JSON in 2 attempts');
    expect((err as SvcError).hint).toContain('<!-- metric: name -->');
    expect(readdirSync(checkpoint).filter((f) => f.startsWith('metric_contract'))).toEqual([]);
  });

  test('a model that cannot be reached: the same error, naming the failure', async () => {
    server.push({ status: 401 });
    const err = await callTool(makeMetricSpec, { experiment_text: NO_METRIC }, env()).catch((e: unknown) => e);
    expect((err as SvcError).message).toStartWith('no metric keyword found in experiment_text and the eval model chose none: ');
    expect(readdirSync(checkpoint).filter((f) => f.startsWith('metric_contract'))).toEqual([]);
  });
});
