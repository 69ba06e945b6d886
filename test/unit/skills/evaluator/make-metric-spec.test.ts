import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError, NotFoundError } from '../../../../src/core/errors.ts';
import { makeMetricSpec } from '../../../../src/skills/evaluator/make-metric-spec.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';

let base: string;
let checkpoint: string;
beforeEach(() => {
  base = tempDir();
  checkpoint = join(base, 'checkpoint');
  mkdirSync(checkpoint);
});
afterEach(() => removeDir(base));

const env = () => ({ PATH: process.env.PATH, SVC_CHECKPOINT_DIR: checkpoint });
const contractFile = () => join(checkpoint, 'metric_contract.json');
const EXPERIMENT = '# Sorting\n<!-- metric: speedup -->\n<!-- min_expected_metric: 1.5 -->\nMake the sort faster.\n';

describe('make_metric_spec', () => {
  test('finds the metric and writes the checkpoint contract with the claim-gate fields', async () => {
    const r = await callTool(makeMetricSpec, { experiment_text: EXPERIMENT }, env());
    const written = JSON.parse(readFileSync(contractFile(), 'utf8'));
    expect(written).toEqual({
      key: 'speedup',
      formula: 'speedup',
      ceiling_select: null,
      invariants: [],
      correctness: { expr: null, requires: [] },
      required_measured: ['speedup'],
      claims: [],
      correctness_required: false,
      ceiling_must_be_measured: false,
      tolerance: { absolute: 0, relative: 0.02 },
      metric_keyword: 'speedup',
      min_expected_metric: 1.5,
      scoring_guide: expect.stringContaining('Judge each node by speedup (higher is better)'),
      higher_is_better: true,
      source: 'deterministic',
      keyword_found_in: 'metric marker',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(written.scoring_guide).toContain('below 1.5 falls short');
    expect(r).toEqual({ ...written, contract_path: contractFile(), contract_frozen: false });
    expect(readdirSync(checkpoint)).toEqual(['metric_contract.json']);
  });

  test('mint-once: a later call returns the same contract, frozen, whatever text it gets', async () => {
    const first = await callTool(makeMetricSpec, { experiment_text: EXPERIMENT }, env());
    const bytes = readFileSync(contractFile(), 'utf8');
    const second = await callTool(makeMetricSpec, { experiment_text: 'Primary metric: accuracy' }, env());
    expect(second).toEqual({ ...first, contract_frozen: true });
    // even a text without a metric gets the frozen contract
    expect((await callTool(makeMetricSpec, { experiment_text: 'no metric here' }, env())).metric_keyword).toBe('speedup');
    expect(readFileSync(contractFile(), 'utf8')).toBe(bytes);
  });

  test('concurrent first calls in separate processes: one contract, every answer agrees', async () => {
    const go = join(base, 'race', 'go');
    mkdirSync(join(base, 'race'));
    const child = join(import.meta.dir, 'mint-contract-child.ts');
    const runs = Array.from({ length: 6 }, () =>
      Bun.spawn([process.execPath, child, go, EXPERIMENT], { env: { ...env() }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' }),
    );
    while (readdirSync(join(base, 'race')).length < runs.length) await Bun.sleep(5);
    writeFileSync(go, '');
    const answers = await Promise.all(
      runs.map(async (p) => {
        const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
        expect(err).toBe('');
        expect(code).toBe(0);
        return JSON.parse(out);
      }),
    );
    const written = JSON.parse(readFileSync(contractFile(), 'utf8'));
    expect(answers.filter((a) => a.contract_frozen === false)).toHaveLength(1);
    for (const a of answers) {
      const { contract_frozen: _, contract_path, ...contract } = a;
      expect(contract_path).toBe(contractFile());
      expect(contract).toEqual(written);
    }
    expect(readdirSync(checkpoint)).toEqual(['metric_contract.json']);
  });

  test('without SVC_CHECKPOINT_DIR the spec comes back and says no contract was written', async () => {
    const r = await callTool(makeMetricSpec, { experiment_text: 'We minimize latency.' }, { PATH: process.env.PATH });
    expect(r).toEqual({
      metric_keyword: 'latency',
      min_expected_metric: 0,
      scoring_guide:
        'Judge each node by latency (lower is better), the value a node reports under "latency" in the measurements of its results.json. A node that did not measure latency has no result to compare.',
      higher_is_better: false,
      source: 'deterministic',
      keyword_found_in: 'maximize/minimize',
      contract_path: null,
      contract_frozen: false,
      note: 'SVC_CHECKPOINT_DIR is not set: no metric_contract.json was written',
    });
  });

  test('an empty text and a bad min_expected_metric are refused before anything is written', async () => {
    await expect(callTool(makeMetricSpec, { experiment_text: ' \n' }, env())).rejects.toThrow('experiment_text is empty');
    await expect(callTool(makeMetricSpec, { experiment_text: '<!-- metric: f1 -->\n<!-- min_expected_metric: high -->' }, env())).rejects.toThrow(
      "min_expected_metric 'high' is not a number",
    );
    expect(readdirSync(checkpoint)).toEqual([]);
  });

  test('a contract file that is not JSON is an error naming it, and it is left as it is', async () => {
    writeFileSync(contractFile(), '{broken');
    const err = await callTool(makeMetricSpec, { experiment_text: EXPERIMENT }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect((err as Error).message).toContain(`${contractFile()}: is not valid JSON`);
    expect(readFileSync(contractFile(), 'utf8')).toBe('{broken');
  });

  test('a checkpoint directory that does not exist is NotFound, and is not created', async () => {
    const gone = join(base, 'gone');
    await expect(callTool(makeMetricSpec, { experiment_text: EXPERIMENT }, { SVC_CHECKPOINT_DIR: gone })).rejects.toThrow(NotFoundError);
    expect(readdirSync(base)).toEqual(['checkpoint']);
  });
});
