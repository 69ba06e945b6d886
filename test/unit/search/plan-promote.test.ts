import { afterEach, beforeEach, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_END, PLAN_START, promotePlan } from '../../../src/search/plan-promote.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-plan-');
  writeFileSync(join(dir, 'experiment.md'), '# Goal\n\nSort faster.\n');
});
afterEach(() => removeDir(dir));

const read = () => readFileSync(join(dir, 'experiment.md'), 'utf8');
const IDEA = { title: 'Radix sort', description: 'Use an LSD radix sort.', experiment_plan: '§baseline: std::sort\n§metric: time' };

test('full writes the idea and plan between the markers; a second call is byte-identical', () => {
  expect(promotePlan(dir, IDEA, 'full')).toBe(true);
  const once = read();
  expect(once.startsWith('# Goal\n\nSort faster.\n\n')).toBe(true);
  expect(once).toContain(`${PLAN_START}\n## Selected research idea\n\n### Radix sort\n\nUse an LSD radix sort.\n\n### Experiment plan\n\n§baseline: std::sort`);
  expect(once.endsWith(`${PLAN_END}\n`)).toBe(true);
  expect(promotePlan(dir, IDEA, 'full')).toBe(false);
  expect(read()).toBe(once);
});

test('a new idea or mode replaces the block; text after the block is kept; off and no idea change nothing', () => {
  promotePlan(dir, IDEA, 'full');
  writeFileSync(join(dir, 'experiment.md'), `${read()}\nA note the user added.\n`);
  promotePlan(dir, { title: 'Merge sort' }, 'index_only');
  const text = read();
  expect(text.split(PLAN_START)).toHaveLength(2);
  expect(text).toContain('A note the user added.');
  expect(text).toContain('Merge sort');
  expect(text).not.toContain('Radix');
  expect(promotePlan(dir, IDEA, 'off')).toBe(false);
  expect(promotePlan(dir, null, 'full')).toBe(false);
  expect(read()).toBe(text);
});

test("the reference implementation's block is replaced by ours", () => {
  writeFileSync(join(dir, 'experiment.md'), '# Goal\n\n<!-- AUTO-APPENDED BY VirSci (idea.json) — DO NOT EDIT -->\nold\n<!-- END AUTO-APPENDED -->\n');
  promotePlan(dir, IDEA, 'index_only');
  expect(read()).not.toContain('old');
  expect(read()).not.toContain('VirSci');
});

test('a missing experiment.md is an error naming it', () => {
  removeDir(dir);
  expect(() => promotePlan(dir, IDEA, 'full')).toThrow('experiment.md');
});
