import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { experimentDetail, experimentGoal, experimentMetric, experimentTitle, MAX_EXPERIMENT_BYTES, mentionedFileNames } from '../../../../src/core/config/experiment-detail.ts';
import { NotFoundError, TooLargeError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

describe('experimentTitle', () => {
  test.each([
    ['# Speed\n\nx', 'Speed'],
    ['intro\n\n#   Spaced title  \n', 'Spaced title'],
    ['# Closed heading #\n', 'Closed heading'],
    ['## Only a section\n', null],
    ['#NoSpace\n', null],
    ['# C#\n', 'C#'],
    ['#\n\nnot a title\n', null],
    ['', null],
  ])('%j -> %j', (md, title) => expect(experimentTitle(md)).toBe(title));
});

describe('experimentGoal', () => {
  test.each([
    ['# T\n\nPreamble.\n\n## Research Goal\nLine one\nline two.\n\nNext paragraph.\n', 'Line one line two.'],
    ['# T\n\n## Goal\n\n  Indented goal.  \n## Next\n', 'Indented goal.'],
    ['# T\n\n### research goal:\nLower case heading.\n', 'Lower case heading.'],
    ['# T\n\nFirst paragraph\ncontinues.\n\nSecond.\n', 'First paragraph continues.'],
    ['# Research Goal\nTop-level goal heading.\n', 'Top-level goal heading.'],
    ['# Only a title\n', null],
  ])('%j', (md, goal) => expect(experimentGoal(md)).toBe(goal));
});

describe('experimentMetric', () => {
  test.each([
    ['Metric: accuracy', 'accuracy'],
    ['metrics: F1, recall', 'F1, recall'],
    ['PRIMARY METRIC: GFLOP/s', 'GFLOP/s'],
    ['- Primary metric: latency_ms', 'latency_ms'],
    ['* **Metric:** `throughput`', 'throughput'],
    ['  - **Metrics**: wall time', 'wall time'],
    ['The metric is accuracy', null],
    ['Metric:', null],
    ['Secondary metric: energy', null],
  ])('%j -> %j', (line, metric) => expect(experimentMetric(`# T\n\n${line}\n`)).toBe(metric));
});

describe('mentionedFileNames', () => {
  test('bare and backticked names, with directories; URLs and plain words are not', () => {
    const md = 'Use `data.csv` and inputs/train.parquet, plus run.sh. See https://example.org/x.html and www words. Also model.tar.gz.';
    expect(mentionedFileNames(md)).toEqual(['data.csv', 'inputs/train.parquet', 'run.sh', 'model.tar.gz']);
  });
  test('a traversal is kept as written; the caller decides where it may look', () => {
    expect(mentionedFileNames('read ../secret.txt')).toEqual(['../secret.txt']);
  });
});

describe('experimentDetail', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => removeDir(dir));

  test('provided files: all of uploads/, and named files beside the experiment; nothing outside', () => {
    const ck = join(dir, 'ck');
    mkdirSync(join(ck, 'uploads'), { recursive: true });
    writeFileSync(join(dir, 'secret.txt'), 's');
    writeFileSync(join(dir, 'linked.txt'), 'l');
    symlinkSync(join(dir, 'linked.txt'), join(ck, 'linked.txt'));
    writeFileSync(join(ck, 'uploads', 'a.csv'), '12');
    writeFileSync(join(ck, 'uploads', '.a.csv.1.tmp'), 'partial');
    symlinkSync(join(dir, 'secret.txt'), join(ck, 'uploads', 'link.txt'));
    writeFileSync(join(ck, 'beside.json'), '{}');
    mkdirSync(join(ck, 'folder.d'));
    writeFileSync(join(ck, 'experiment.md'), '# T\n\nUses a.csv, beside.json, folder.d, ../secret.txt, linked.txt, experiment.md and gone.txt.\n');
    expect(experimentDetail(join(ck, 'experiment.md')).provided_files).toEqual([
      { name: 'beside.json', path: 'beside.json', size: 2, mentioned: true },
      { name: 'a.csv', path: 'uploads/a.csv', size: 2, mentioned: true },
    ]);
  });

  test('uploads/ as a symlink is not listed', () => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'x.bin'), 'x');
    mkdirSync(join(dir, 'ck'));
    symlinkSync(join(dir, 'real'), join(dir, 'ck', 'uploads'));
    writeFileSync(join(dir, 'ck', 'experiment.md'), '# T\n');
    expect(experimentDetail(join(dir, 'ck', 'experiment.md')).provided_files).toEqual([]);
  });

  test('missing, not a file, or oversized', () => {
    expect(() => experimentDetail(join(dir, 'experiment.md'))).toThrow(NotFoundError);
    mkdirSync(join(dir, 'd.md'));
    expect(() => experimentDetail(join(dir, 'd.md'))).toThrow(NotFoundError);
    writeFileSync(join(dir, 'big.md'), Buffer.alloc(MAX_EXPERIMENT_BYTES + 1, 'a'));
    expect(() => experimentDetail(join(dir, 'big.md'))).toThrow(TooLargeError);
  });
});
