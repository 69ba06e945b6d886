import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../../src/core/errors.ts';
import { emitResults } from '../../../../src/skills/coding/emit-results.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from './tool-call.ts';

let base: string;
let work: string;
let checkpoint: string;
beforeEach(() => {
  base = tempDir();
  work = join(base, 'work');
  checkpoint = join(base, 'checkpoint');
  mkdirSync(work);
  mkdirSync(checkpoint);
});
afterEach(() => removeDir(base));

const env = () => ({ PATH: process.env.PATH, SVC_WORK_DIR: work, SVC_CHECKPOINT_DIR: checkpoint });
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

describe('emit_results', () => {
  test('writes the per-node results.json and lists the keys it wrote', async () => {
    const r = await callTool(
      emitResults,
      {
        params: { batch_size: 64, optimizer: 'adam' },
        measurements: { accuracy: 0.91, runtime_s: [1.2, 1.3, 1.25] },
        predictions: { accuracy: 0.9 },
        scores: { gain: 0.01 },
        provenance: { command: 'python train.py', seed: 1 },
      },
      env(),
    );
    expect(r).toEqual({
      path: join(work, 'results.json'),
      written_keys: { params: ['batch_size', 'optimizer'], measurements: ['accuracy', 'runtime_s'], predictions: ['accuracy'], scores: ['gain'] },
      contract_warnings: [],
    });
    expect(readJson(r.path)).toEqual({
      schema_version: '1.0',
      params: { batch_size: 64, optimizer: 'adam' },
      measurements: { accuracy: 0.91, runtime_s: [1.2, 1.3, 1.25] },
      predictions: { accuracy: 0.9 },
      scores: { gain: 0.01 },
      _provenance: { command: 'python train.py', seed: 1 },
    });
  });

  test('without provenance there is no _provenance key; defaults fill params, predictions and scores', async () => {
    const r = await callTool(emitResults, { measurements: { gflops: 12.5 }, file: 'out/run1.json' }, env());
    expect(r.path).toBe(join(work, 'out', 'run1.json'));
    expect(readJson(r.path)).toEqual({ schema_version: '1.0', params: {}, measurements: { gflops: 12.5 }, predictions: {}, scores: {} });
  });

  test('a key in both params and measurements is an error naming the keys, and nothing is written', async () => {
    writeFileSync(join(work, 'results.json'), '{"previous": true}\n');
    const err = await callTool(emitResults, { params: { lr: 0.1, accuracy: 1, n: 3 }, measurements: { accuracy: 0.9, n: 3 } }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe("params and measurements share the keys 'accuracy', 'n'");
    expect(readFileSync(join(work, 'results.json'), 'utf8')).toBe('{"previous": true}\n');
    expect(readdirSync(work)).toEqual(['results.json']);
  });

  test('measurements must be numbers or lists of numbers, and not empty', async () => {
    await expect(callTool(emitResults, { measurements: { accuracy: '0.9' } }, env())).rejects.toThrow(/measurements/);
    await expect(callTool(emitResults, { measurements: { runs: [] } }, env())).rejects.toThrow(/measurements/);
    await expect(callTool(emitResults, { measurements: {} }, env())).rejects.toThrow('measurements is empty');
    // JSON cannot carry NaN, a direct caller can
    const direct = { params: {}, measurements: { x: [1, Number.NaN] }, predictions: {}, scores: {}, file: 'results.json' };
    expect(() => emitResults.run(direct, { signal: new AbortController().signal, env: env() })).toThrow('measurements.x is not a finite number');
    expect(readdirSync(work)).toEqual([]);
  });

  test('file must be a .json file', async () => {
    await expect(callTool(emitResults, { measurements: { a: 1 }, file: 'results.txt' }, env())).rejects.toThrow("file 'results.txt' is not a .json file");
    expect(readdirSync(work)).toEqual([]);
  });

  test('measurements the metric contract requires and the result lacks come back as warnings', async () => {
    writeFileSync(join(checkpoint, 'metric_contract.json'), JSON.stringify({ key: 'accuracy', required_measured: ['accuracy', 'latency_ms'] }));
    const r = await callTool(emitResults, { measurements: { accuracy: 0.8 } }, env());
    expect(r.contract_warnings).toEqual(["measurement 'latency_ms' required by metric_contract.json is missing"]);
  });

  test('an unreadable contract is a warning, not a lost result', async () => {
    writeFileSync(join(checkpoint, 'metric_contract.json'), '{not json');
    const r = await callTool(emitResults, { measurements: { accuracy: 0.8 } }, env());
    expect(r.contract_warnings).toHaveLength(1);
    expect(r.contract_warnings[0]).toContain('metric_contract.json: is not valid JSON');
    expect(readJson(join(work, 'results.json')).measurements).toEqual({ accuracy: 0.8 });
  });
});
