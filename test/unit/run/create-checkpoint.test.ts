import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createCheckpoint, goalSlug, namedCheckpoint, newRunId } from '../../../src/run/create-checkpoint.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('the run id is the UTC time and a slug of the first line that is not a heading', () => {
  const at = new Date('2026-11-22T13:04:05Z');
  expect(newRunId('# Sorting\n\nMinimise the comparisons of insertion sort!\n', at)).toBe('20261122130405_minimise_the_comparisons_of_insertion');
  expect(goalSlug('# Only a heading')).toBe('only_a_heading');
  expect(goalSlug('Ünïcödé café — naïve')).toBe('unicode_cafe_naive');
  expect(goalSlug('日本語だけ')).toBe('experiment');
  expect(goalSlug('')).toBe('experiment');
  expect(goalSlug('../../etc/passwd')).toBe('etc_passwd');
});

test('two runs started in the same second with the same goal get their own directories', () => {
  const at = new Date('2026-11-22T13:04:05Z');
  const a = createCheckpoint(dir, 'Same goal', () => {}, at);
  const b = createCheckpoint(dir, 'Same goal', () => {}, at);
  expect(a.runId).toBe('20261122130405_same_goal');
  expect(b.runId).toBe('20261122130405_same_goal_2');
  expect(readdirSync(dir).sort()).toEqual([a.runId, b.runId]);
  expect(readFileSync(join(b.dir, 'experiment.md'), 'utf8')).toBe('Same goal');
});

test('a named checkpoint keeps the experiment.md it was prepared with', () => {
  const named = join(dir, 'prepared');
  namedCheckpoint(named, 'first');
  namedCheckpoint(named, 'second');
  expect(readFileSync(join(named, 'experiment.md'), 'utf8')).toBe('first');
});

test('a checkpoint appears whole: what fill writes is there when the directory is; a fill that fails leaves nothing', () => {
  const at = new Date('2026-11-22T13:04:05Z');
  const seen: string[] = [];
  const { dir: made } = createCheckpoint(dir, 'Whole', (d) => {
    seen.push(...readdirSync(dir));
    writeFileSync(join(d, 'workflow.yaml'), 'llm: {}\n');
  }, at);
  // while it was filled, only a hidden directory existed
  expect(seen.every((n) => n.startsWith('.new-'))).toBe(true);
  expect(readdirSync(made).sort()).toEqual(['experiment.md', 'workflow.yaml']);
  expect(() => createCheckpoint(dir, 'Broken', () => { throw new Error('disk full'); }, at)).toThrow('disk full');
  expect(readdirSync(dir)).toEqual([basename(made)]);
});

test('what a killed process was putting together is cleared by the next checkpoint made there', () => {
  const dead = Bun.spawnSync([process.execPath, '-e', '0']).pid;
  mkdirSync(join(dir, '.new-abc123'));
  writeFileSync(join(dir, '.new-abc123', '.svc_pid'), `${dead}\n`);
  mkdirSync(join(dir, '.new-live'));
  writeFileSync(join(dir, '.new-live', '.svc_pid'), `${process.pid}\n`);
  const { runId } = createCheckpoint(dir, 'Next');
  expect(readdirSync(dir).sort()).toEqual(['.new-live', runId]);
});

test('a named checkpoint that does not exist is made whole; its parents too', () => {
  const named = join(dir, 'a', 'b', 'abc');
  namedCheckpoint(named, 'goal', (d) => writeFileSync(join(d, 'workflow.yaml'), 'x'));
  expect(readdirSync(named).sort()).toEqual(['experiment.md', 'workflow.yaml']);
  expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['abc']);
});
