import { describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { InputError, InvalidRecordError, NotFoundError } from '../../../../src/core/errors.ts';
import { analyzeResults } from '../../../../src/skills/benchmark/analyze-results.ts';
import { useWorkDir } from './work-dir-fixture.ts';

const { base, work, ctx } = useWorkDir();

type Summary = { n: number; mean: number; std: number | null; min: number; max: number; median: number; ignored?: number };
type Analysis = { path: string; format: string; metrics: Record<string, Summary>; missing: string[]; not_numeric: string[] };

function analyze(file: string, content: string, metrics: string[] = []): Analysis {
  writeFileSync(join(work(), file), content);
  return analyzeResults.run({ result_path: file, metrics }, ctx()) as Analysis;
}

describe('analyze_results', () => {
  test("the coding skill's results.json: measurements, then scores, then predictions", () => {
    const results = {
      schema_version: '1.0',
      params: { lr: 0.01, epochs: 3 },
      measurements: { accuracy: [0.9, 0.92, 0.94, 0.91], wall_time_s: 12.5, device: 'cpu' },
      predictions: [0.2, 0.4],
      scores: { accuracy: 0.92, f1: 0.81 },
    };
    const r = analyze('results.json', JSON.stringify(results));
    expect(r.format).toBe('json');
    expect(r.path).toBe(join(work(), 'results.json'));
    expect(Object.keys(r.metrics)).toEqual(['accuracy', 'wall_time_s', 'scores.accuracy', 'f1', 'predictions']);
    const acc = r.metrics.accuracy as Summary;
    expect(acc).toMatchObject({ n: 4, min: 0.9, max: 0.94, median: 0.915 });
    expect(acc.mean).toBeCloseTo(0.9175, 12);
    // sample standard deviation (n − 1)
    expect(acc.std as number).toBeCloseTo(0.017078251276599347, 12);
    expect(r.metrics.wall_time_s).toEqual({ n: 1, mean: 12.5, std: null, min: 12.5, max: 12.5, median: 12.5 });
    expect(r.metrics).not.toHaveProperty('lr');
  });

  test('requested metrics: found, missing, and present without numbers', () => {
    const r = analyze('results.json', JSON.stringify({ schema_version: '1.0', measurements: { acc: 1, device: 'cpu' } }), ['acc', 'loss', 'device', 'acc']);
    expect(Object.keys(r.metrics)).toEqual(['acc']);
    expect(r.missing).toEqual(['loss']);
    expect(r.not_numeric).toEqual(['device']);
  });

  test('a list of records', () => {
    const r = analyze('runs.json', JSON.stringify([{ seed: 1, acc: 0.8 }, { seed: 2, acc: 0.9, note: 'x' }, { seed: 3, acc: null }]));
    expect(r.metrics.acc).toMatchObject({ n: 2, ignored: 1, min: 0.8, max: 0.9 });
    expect(r.metrics.seed).toMatchObject({ n: 3, mean: 2, std: 1, median: 2 });
    expect(r.metrics).not.toHaveProperty('note');
  });

  test('{metric: number[]}', () => {
    const r = analyze('m.json', JSON.stringify({ latency_ms: [3, 1, 2, 10], name: 'run' }));
    expect(r.metrics).toEqual({ latency_ms: { n: 4, mean: 4, std: Math.sqrt(50 / 3), min: 1, max: 10, median: 2.5 } });
  });

  test('JSON lines', () => {
    const r = analyze('log.jsonl', '{"step": 1, "loss": 2.0}\n\n{"step": 2, "loss": 1.0}\n');
    expect(r.format).toBe('jsonl');
    expect(r.metrics.loss).toMatchObject({ n: 2, mean: 1.5 });
  });

  test('CSV with quotes, empty cells and text columns', () => {
    const csv = '\uFEFFmodel,acc,loss,note\r\nA,0.9,1.2,"x, y"\r\nB,0.8,,ok\r\n"C",0.85,1.0,"say ""hi""\nthere"\r\n';
    const r = analyze('r.csv', csv, ['acc', 'loss', 'note']);
    expect(r.format).toBe('csv');
    expect(r.metrics.acc).toMatchObject({ n: 3, min: 0.8, max: 0.9, median: 0.85 });
    expect(r.metrics.loss).toMatchObject({ n: 2, ignored: 1, mean: 1.1 });
    expect(r.not_numeric).toEqual(['note']);
  });

  test('TSV, and a file without a known extension read by its content', () => {
    expect(analyze('r.tsv', 'a\tb\n1\t2\n3\t4\n').metrics.b).toMatchObject({ n: 2, mean: 3 });
    expect(analyze('r.txt', 'a,b\n1,2\n').metrics.a).toMatchObject({ n: 1 });
    expect(analyze('r.out', '{"a": [1, 2]}').format).toBe('json');
  });

  test('a CSV with only a header lists its columns as not numeric', () => {
    expect(analyze('h.csv', 'acc,loss\n', ['acc'])).toMatchObject({ metrics: {}, not_numeric: ['acc'], missing: [] });
  });

  test('the schema takes metrics as optional', () => {
    expect(Value.Check(analyzeResults.params, { result_path: 'r.json' })).toBe(true);
    expect(Value.Check(analyzeResults.params, { result_path: 'r.json', metrics: 'acc' })).toBe(false);
  });
});

describe('analyze_results refuses bad input', () => {
  
  test.each([
    ['not JSON', 'r.json', '{"a": ', InvalidRecordError, /^result_path 'r\.json' is not valid JSON/],
    ['a JSON scalar', 'r.json', '42', InvalidRecordError, /holds neither an object nor a list of records/],
    ['a list of non-records', 'r.json', '[1, 2]', InvalidRecordError, /is a list whose entries are not all objects/],
    ['a ragged CSV', 'r.csv', 'a,b\n1,2\n3\n', InvalidRecordError, /data row 2 has 1 fields but the header has 2/],
    ['an unclosed quote', 'r.csv', 'a,b\n"1,2\n', InvalidRecordError, /quoted field that is never closed/],
    ['an empty CSV', 'r.csv', '', InvalidRecordError, /^result_path 'r\.csv' is empty$/],
  ])('%s', (_, file, content, kind, message) => {
    writeFileSync(join(work(), file), content);
    const call = () => analyzeResults.run({ result_path: file, metrics: [] }, ctx());
    expect(call).toThrow(kind);
    expect(call).toThrow(message);
    expect(readFileSync(join(work(), file), 'utf8')).toBe(content);
  });

  test('a missing file', () => {
    expect(() => analyzeResults.run({ result_path: 'nope.json', metrics: [] }, ctx())).toThrow(NotFoundError);
    expect(() => analyzeResults.run({ result_path: 'nope.json', metrics: [] }, ctx())).toThrow(/^result_path 'nope\.json' is not a file/);
  });

  test.each(['../secret.json', '/etc/passwd', 'link/secret.json', ''])('a path outside the work dir: %j', (p) => {
    mkdirSync(join(base(), 'outside'));
    writeFileSync(join(base(), 'outside', 'secret.json'), '{"a": [1]}');
    writeFileSync(join(base(), 'secret.json'), '{"a": [1]}');
    symlinkSync(join(base(), 'outside'), join(work(), 'link'));
    const call = () => analyzeResults.run({ result_path: p, metrics: [] }, ctx());
    expect(call).toThrow(InputError);
    expect(call).toThrow(p === '' ? /^result_path is empty/ : /is outside/);
    expect(readdirSync(work())).toEqual(['link']);
  });
});
