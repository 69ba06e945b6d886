import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNotInherited } from '../../../src/agent/files-diff.ts';
import { buildWorkDir, providedFiles } from '../../../src/search/inherit.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let ckpt: string;
let parent: string;
let work: string;
let logs: string[];
beforeEach(() => {
  dir = tempDir('svc-inherit-');
  ckpt = join(dir, 'ckpt');
  parent = join(dir, 'exp', 'parent');
  work = join(dir, 'exp', 'child');
  mkdirSync(ckpt, { recursive: true });
  mkdirSync(join(parent, 'src'), { recursive: true });
  logs = [];
});
afterEach(() => removeDir(dir));

const build = (goal = '# Goal\n') => buildWorkDir(work, { checkpointDir: ckpt, parentDir: parent, goal, log: (m) => void logs.push(m) });
const has = (rel: string) => existsSync(join(work, rel));

test('the parent files come over, less run records and outputs, at every level', () => {
  for (const f of ['sort.c', 'src/util.h', 'results.csv', 'src/results_1.csv', 'run_2.log', 'slurm-9.out', 'x.metrics.json', 'tree.json', 'node_report.json', 'idea.json', 'notes.md']) writeFileSync(join(parent, f), f);
  build();
  expect(['sort.c', 'src/util.h', 'notes.md'].every(has)).toBe(true);
  expect(['results.csv', 'src/results_1.csv', 'run_2.log', 'slurm-9.out', 'x.metrics.json', 'tree.json', 'node_report.json', 'idea.json'].some(has)).toBe(false);
  expect(isNotInherited('my_results.csv')).toBe(true);
  expect(isNotInherited('results.py')).toBe(false);
});

test('provided files, the checkpoint files and uploads follow, never overwriting; uploads land twice', () => {
  writeFileSync(join(parent, 'data.csv'), 'from parent');
  writeFileSync(join(ckpt, 'data.csv'), 'from checkpoint');
  writeFileSync(join(ckpt, 'bench.py'), 'bench');
  writeFileSync(join(ckpt, 'experiment.md'), 'goal');
  writeFileSync(join(ckpt, '.tree.json.123.tmp'), 'partial');
  mkdirSync(join(ckpt, 'inputs'));
  writeFileSync(join(ckpt, 'inputs', 'a.txt'), 'a');
  mkdirSync(join(ckpt, 'uploads', 'sub'), { recursive: true });
  writeFileSync(join(ckpt, 'uploads', 'sub', 'u.bin'), 'u');
  build('# Goal\n\n## Provided Files\n- `inputs/a.txt`: the input\n- ../../etc/passwd\n\n## Other\n- not/a/file\n');
  expect(readFileSync(join(work, 'data.csv'), 'utf8')).toBe('from parent');
  expect(['bench.py', 'inputs/a.txt', 'sub/u.bin', 'uploads/sub/u.bin'].every(has)).toBe(true);
  expect(['experiment.md', '.tree.json.123.tmp', 'not/a/file'].some(has)).toBe(false);
  expect(logs.some((l) => l.includes('../../etc/passwd') && l.includes('outside'))).toBe(true);
});

test('links are followed only inside the parent directory', () => {
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFileSync(join(parent, 'real.txt'), 'real');
  symlinkSync(join(dir, 'secret.txt'), join(parent, 'out.txt'));
  symlinkSync(join(parent, 'real.txt'), join(parent, 'in.txt'));
  symlinkSync(parent, join(parent, 'src', 'loop'));
  symlinkSync(join(dir, 'missing'), join(parent, 'dangling'));
  build();
  expect(has('out.txt')).toBe(false);
  expect(readFileSync(join(work, 'in.txt'), 'utf8')).toBe('real');
  expect(has('dangling')).toBe(false);
});

test('a work directory built again starts empty', () => {
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'half_done.o'), 'x');
  build();
  expect(has('half_done.o')).toBe(false);
});

test('Provided Files: list items until the next heading', () => {
  expect(providedFiles('## Provided files\n* data/x.csv — the data\n- `a b.txt`\ntext\n# Next\n- no.txt')).toEqual(['data/x.csv', 'a b.txt']);
  expect(providedFiles('# Goal\n- a.txt')).toEqual([]);
});

test('an uploads directory that is a link out of the checkpoint is not copied', () => {
  const outside = join(dir, 'home-ssh');
  mkdirSync(outside);
  writeFileSync(join(outside, 'id_rsa'), 'PRIVATE');
  symlinkSync(outside, join(ckpt, 'uploads'));
  build();
  expect(has('id_rsa') || has('uploads/id_rsa')).toBe(false);
  expect(logs.some((l) => l.includes('uploads'))).toBe(true);
});
