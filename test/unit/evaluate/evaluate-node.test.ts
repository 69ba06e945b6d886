import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { evaluateNode } from '../../../src/evaluate/index.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { removeDir } from '../../support/svc.ts';
import { type Box, box, context, input, judgeReply, LEGACY, systemText, writeResults } from './helpers.ts';

let b: Box;
let server: ModelServer;
beforeEach(() => {
  b = box();
  server = startModelServer();
});
afterEach(() => {
  server.stop();
  removeDir(b.dir);
});

const scores = (values: number[]) => Object.fromEntries(LEGACY.map((k, i) => [k, values[i] as number]));
const FIVE = [0.9, 0.5, 0.4, 0.8, 1.0];
/** the default (dynamic) axes without an idea */
const DYN = { ...scores(FIVE), claim_implementation_alignment: 1 };
const legacy = (composite: string) => (w: { evaluator: { composite: string; axis_mode: string } }) => {
  w.evaluator.axis_mode = 'legacy';
  w.evaluator.composite = composite;
};

describe('evaluateNode: composites over the legacy axes', () => {
  for (const [composite, expected] of [
    ['harmonic_mean', 0.6360424028268552],
    ['arithmetic_mean', 0.72],
    ['weighted_min', 0.4],
    ['geometric_mean', 0.6786916380543178],
  ] as const) {
    test(composite, async () => {
      server.push(judgeReply(scores(FIVE)));
      const r = await evaluateNode(input(context(b, server, { workflow: legacy(composite) }), b));
      expect(r.metrics._scientific_score as number).toBeCloseTo(expected, 12);
      expect(r.metrics._axis_scores).toEqual(scores(FIVE));
      expect(r.axis_rationales).toEqual(Object.fromEntries(LEGACY.map((k) => [k, `why ${k}`])));
      expect(r.metrics._comparison_found).toBe(true);
    });
  }

  test('harmonic_mean is the default and SVC_COMPOSITE wins over the workflow', async () => {
    server.push(judgeReply(scores(FIVE)), judgeReply(scores(FIVE)));
    const byDefault = await evaluateNode(input(context(b, server, { workflow: (w) => void (w.evaluator.axis_mode = 'legacy') }), b));
    expect(byDefault.metrics._scientific_score as number).toBeCloseTo(0.6360424028268552, 12);
    const ctx = context(b, server, { workflow: legacy('arithmetic_mean'), env: { SVC_COMPOSITE: 'weighted_min' } });
    expect((await evaluateNode(input(ctx, b))).metrics._scientific_score).toBe(0.4);
  });

  test('axis scores outside [0, 1] are clamped; a zero counts as the 0.01 floor', async () => {
    server.push(judgeReply(scores([1.7, -0.5, 0, 1, 1])));
    const r = await evaluateNode(input(context(b, server, { workflow: legacy('arithmetic_mean') }), b));
    expect(r.metrics._axis_scores).toEqual(scores([1, 0, 0, 1, 1]));
    expect(r.metrics._scientific_score as number).toBeCloseTo((1 + 0.01 + 0.01 + 1 + 1) / 5, 12);
  });

  test('axis_weights overrides the weight of an axis it names: weight 0 leaves it out', async () => {
    server.push(judgeReply(scores(FIVE)));
    const ctx = context(b, server, {
      workflow: (w) => {
        legacy('weighted_min')(w);
        w.evaluator.axis_weights = { novelty: 0, measurement_validity: 3 };
      },
    });
    expect((await evaluateNode(input(ctx, b))).metrics._scientific_score).toBe(0.5);
  });
});

describe('evaluateNode: axis modes', () => {
  test('legacy asks for the five generic axes only', async () => {
    server.push(judgeReply(scores(FIVE)));
    await evaluateNode(input(context(b, server, { workflow: legacy('harmonic_mean') }), b));
    const axes = [...systemText(server, 0).matchAll(/^- (\w+):/gm)].map((m) => m[1]);
    expect(axes).toEqual(LEGACY);
  });

  test("dynamic: the five, claim_implementation_alignment and one axis per distinct §-tag of the active idea's plan, 0.05 each", async () => {
    const idea = {
      ideas: [
        { title: 'first', experiment_plan: '§unused' },
        { title: 'chosen', experiment_plan: '## §baseline\nRun it.\n## § ablation-study\nDrop parts. Then §baseline again.' },
      ],
      _root_choice: { decision: { target_idea_index: 1 } },
    };
    const all = { ...scores(Array(5).fill(0.8)), claim_implementation_alignment: 0.5, plan_baseline: 1, plan_ablation_study: 0.25 };
    server.push(judgeReply(all), judgeReply(all));
    const r = await evaluateNode(input(context(b, server, { idea }), b));
    const axes = [...systemText(server, 0).matchAll(/^- (\w+):/gm)].map((m) => m[1]);
    expect(axes).toEqual([...LEGACY, 'claim_implementation_alignment', 'plan_baseline', 'plan_ablation_study']);
    // harmonic: 1.15 / (1.0/0.8 + 0.05/0.5 + 0.05/1 + 0.05/0.25)
    expect(r.metrics._scientific_score as number).toBeCloseTo(0.71875, 12);
    const arith = await evaluateNode(input(context(b, server, { idea, env: { SVC_COMPOSITE: 'arithmetic_mean' } }), b));
    expect(arith.metrics._scientific_score as number).toBeCloseTo(0.8875 / 1.15, 12);
  });

  test('dynamic without an idea is the five plus claim_implementation_alignment', async () => {
    const all = { ...scores(Array(5).fill(1)), claim_implementation_alignment: 0.2 };
    server.push(judgeReply(all));
    const r = await evaluateNode(input(context(b, server, { env: { SVC_COMPOSITE: 'arithmetic_mean' } }), b));
    expect(r.metrics._scientific_score as number).toBeCloseTo((1 + 0.05 * 0.2) / 1.05, 12);
  });

  test('custom: the workflow axes with their weights; axis_weights keys are not translated to custom names', async () => {
    server.push(judgeReply({ speed: 0.6, accuracy_gain: 0.9, novelty: 0 }));
    const ctx = context(b, server, {
      workflow: (w) => {
        w.evaluator.axis_mode = 'custom';
        w.evaluator.composite = 'arithmetic_mean';
        w.evaluator.custom_axes = [
          { name: 'speed', description: 'runs faster than the baseline', weight: 2 },
          { name: 'accuracy_gain', description: 'more accurate', weight: 1 },
        ];
        // novelty is no custom axis: its weight applies to nothing; accuracy_gain is matched by name
        w.evaluator.axis_weights = { novelty: 5, accuracy_gain: 3 };
      },
    });
    const r = await evaluateNode(input(ctx, b));
    expect(r.metrics._scientific_score as number).toBeCloseTo((2 * 0.6 + 3 * 0.9) / 5, 12);
    expect(r.metrics._axis_scores).toEqual({ speed: 0.6, accuracy_gain: 0.9 });
    const axes = [...systemText(server, 0).matchAll(/^- (\w+):/gm)].map((m) => m[1]);
    expect(axes).toEqual(['speed', 'accuracy_gain']);
  });

  test('SVC_AXIS_MODE wins over the workflow', async () => {
    server.push(judgeReply(scores(FIVE)));
    await evaluateNode(input(context(b, server, { env: { SVC_AXIS_MODE: 'legacy' } }), b));
    expect(systemText(server, 0)).not.toContain('claim_implementation_alignment');
  });

  test('bad settings are refused naming what to fix, before any model call', async () => {
    const bad = [
      context(b, server, { env: { SVC_COMPOSITE: 'median' } }),
      context(b, server, { env: { SVC_AXIS_MODE: 'weird' } }),
      context(b, server, { workflow: (w) => void (w.evaluator.axis_mode = 'custom') }),
    ];
    const errors = await Promise.all(bad.map((ctx) => evaluateNode(input(ctx, b)).catch((e: unknown) => e)));
    for (const e of errors) expect(e).toBeInstanceOf(InputError);
    expect((errors[0] as Error).message).toBe("SVC_COMPOSITE must be one of harmonic_mean, arithmetic_mean, weighted_min, geometric_mean, got 'median'");
    expect((errors[1] as Error).message).toBe("SVC_AXIS_MODE must be one of dynamic, legacy, custom, got 'weird'");
    expect((errors[2] as Error).message).toBe('evaluator axis_mode is custom but evaluator.custom_axes is empty');
    expect(server.requests).toHaveLength(0);
  });
});

describe('evaluateNode: metrics', () => {
  test("the node's results.json wins over the artifacts and the judge, and sets has_real_data", async () => {
    writeFileSync(join(b.checkpoint, 'metric_contract.json'), JSON.stringify({ key: 'accuracy', metric_keyword: 'accuracy', required_measured: ['accuracy'] }));
    writeResults(b, { schema_version: '1.0', params: { lr: 0.1 }, measurements: { accuracy: [0.9, 0.95], f1: 0.8 }, predictions: {}, scores: {} });
    server.push(judgeReply(DYN, { has_real_data: false, metrics: { accuracy: 0.5, loss: 1.2, _scientific_score: 9 }, params: { lr: 1, seed: 3 }, measurements: { accuracy: 0.5 } }));
    const r = await evaluateNode(input(context(b, server), b, [{ type: 'result', stdout: 'accuracy: 0.7' }]));
    expect(r.reason).toBe('measured against a baseline');
    expect(r.has_real_data).toBe(true);
    expect(r.metrics.accuracy).toBeCloseTo(0.925, 12);
    expect(r.metrics.f1).toBe(0.8);
    expect(r.metrics.loss).toBe(1.2);
    expect(r.metrics._params_dict).toEqual({ lr: 0.1, seed: 3 });
    expect(r.metrics._measurements_dict).toEqual({ accuracy: [0.9, 0.95], f1: 0.8 });
    // the contract reaches the judge
    expect(systemText(server, 0)).toContain('"required_measured":["accuracy"]');
  });

  test('without results.json the primary metric comes from the artifacts (the last value printed) over the judge', async () => {
    writeFileSync(join(b.checkpoint, 'metric_contract.json'), JSON.stringify({ key: 'speedup', metric_keyword: 'speedup' }));
    server.push(judgeReply(DYN, { has_real_data: false, metrics: { speedup: 9, note: 'text' } }));
    const r = await evaluateNode(input(context(b, server), b, [{ type: 'result', stdout: 'speedup: 1.5\nwarmup\nSpeedup = 2.25x\n' }]));
    expect(r.metrics.speedup).toBe(2.25);
    expect(r.metrics).not.toHaveProperty('note');
    expect(r.has_real_data).toBe(false);
    expect(r.metrics._measurements_dict).toEqual({});
  });

  test("the idea's primary metric is searched for when there is no contract", async () => {
    server.push(judgeReply(DYN));
    const r = await evaluateNode(input(context(b, server, { idea: { ideas: [], primary_metric: 'Top-1 Accuracy' } }), b, ['"top_1_accuracy": 0.81']));
    expect(r.metrics.top_1_accuracy).toBe(0.81);
  });

  test('a malformed results.json is left out and the reason says so; the judge still scores', async () => {
    writeResults(b, '{"measurements": {"acc": 0.9');
    server.push(judgeReply(scores(FIVE)));
    const r = await evaluateNode(input(context(b, server, { workflow: legacy('arithmetic_mean') }), b));
    expect(r.metrics._scientific_score as number).toBeCloseTo(0.72, 12);
    expect(r.metrics).not.toHaveProperty('acc');
    expect(r.reason).toStartWith('measured against a baseline; ');
    expect(r.reason).toContain(`${join(b.workDir, 'results.json')}: is not valid JSON`);
    expect(r.reason).not.toContain('\n');
    expect(b.logs.some((l) => l.startsWith('node_a: ') && l.includes('is not valid JSON'))).toBe(true);
  });

  test('results.json measurements that are not numbers are left out; the rest count', async () => {
    writeResults(b, { params: 'nope', measurements: { acc: 'high', empty: [], loss: 0.3 } });
    server.push(judgeReply(DYN, { has_real_data: false }));
    const r = await evaluateNode(input(context(b, server), b));
    expect(r.metrics.loss).toBe(0.3);
    expect(r.metrics).not.toHaveProperty('acc');
    expect(r.has_real_data).toBe(true);
    expect(r.metrics._params_dict).toEqual({});
    expect(r.reason).toContain("measurements 'acc', 'empty' not a number or list of numbers, left out");
  });

  test('a results.json that is not an object, or whose measurements are not an object, is left out', async () => {
    for (const bad of ['[1, 2]', '{"measurements": [0.5]}']) {
      writeResults(b, bad);
      server.push(judgeReply(DYN, { has_real_data: false }));
      const r = await evaluateNode(input(context(b, server), b));
      expect(r.has_real_data).toBe(false);
      expect(r.reason).toStartWith('measured against a baseline; ');
      expect(r.reason).toMatch(/results\.json: (is not a JSON object|measurements is not an object)$/);
    }
  });
});

describe('evaluateNode: the judge request and its failure', () => {
  test('the request: the evaluator/judge template first, bounded inputs, meta in the cost ledger', async () => {
    server.push(judgeReply(scores(Array(5).fill(0.5)), { axis_scores: { ...scores(Array(5).fill(0.5)), claim_implementation_alignment: 0.5 } }));
    const ctx = context(b, server, { goal: 'g'.repeat(600) });
    await evaluateNode(input(ctx, b, [{ type: 'code', content: 'x'.repeat(5000) }], 's'.repeat(900)));
    const messages = (server.requests[0]?.body as { messages: { role: string; content: string }[] }).messages;
    const template = messages.find((m) => m.role === 'system' && m.content.startsWith('<!-- prompt: evaluator/judge -->\n'));
    expect(template).toBeDefined();
    const text = template?.content ?? '';
    expect(text).toContain(`\n${'g'.repeat(500)}\n`);
    expect(text).not.toContain('g'.repeat(501));
    expect(text).not.toContain('s'.repeat(501));
    expect(text.match(/x+/g)?.reduce((a, s) => Math.max(a, s.length), 0)).toBeLessThan(2000);
    expect(text).toContain('## Metric contract\n(none)');
    const ledger = readFileSync(join(b.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ledger[0]).toMatchObject({ phase: 'bfts', node_id: 'node_a', component: 'evaluator', op: 'judge' });
  });

  test('an answer that fails the check gets one corrective retry', async () => {
    server.push(judgeReply({ novelty: 1 }), judgeReply(scores(FIVE)));
    const r = await evaluateNode(input(context(b, server, { workflow: legacy('weighted_min') }), b));
    expect(r.metrics._scientific_score).toBe(0.4);
    const retry = (server.requests[1]?.body as { messages: { content: string }[] }).messages.at(-1)?.content;
    expect(retry).toContain('axis_scores lacks a number for measurement_validity, comparative_rigor, reproducibility, clarity_of_contribution');
  });

  test('bad JSON twice: score 0, metrics from results.json, the reason and the log say the judge failed', async () => {
    writeResults(b, { params: { n: 4 }, measurements: { speedup: 1.8 } });
    server.push({ text: 'I think it is good' }, { text: 'still not json' });
    const r = await evaluateNode(input(context(b, server), b));
    expect(r.metrics).toMatchObject({ speedup: 1.8, _scientific_score: 0, _axis_scores: {}, _comparison_found: false, _params_dict: { n: 4 } });
    expect(r.has_real_data).toBe(true);
    expect(r.reason).toStartWith('the judge failed: the eval model judge-model gave no acceptable JSON in 2 attempts');
    expect(r.reason).not.toContain('\n');
    expect(r.axis_rationales).toEqual({});
    expect(b.logs).toHaveLength(1);
    expect(b.logs[0]).toStartWith('node_a: the judge failed, score 0 (');
    expect(server.requests).toHaveLength(2);
  });

  test('a model error: score 0 and the reason names it', async () => {
    server.push({ status: 400 });
    const r = await evaluateNode(input(context(b, server), b));
    expect(r.metrics._scientific_score).toBe(0);
    expect(r.has_real_data).toBe(false);
    expect(r.reason).toStartWith('the judge failed: ');
  });

  test('a stopped node (aborted signal) is not degraded: the evaluation throws', async () => {
    server.push({ delayMs: 5000 }, judgeReply(DYN));
    const stop = new AbortController();
    const pending = evaluateNode({ ...input(context(b, server), b), signal: stop.signal });
    setTimeout(() => stop.abort(new Error('node stopped')), 50);
    await expect(pending).rejects.toThrow('node stopped');
  });
});
