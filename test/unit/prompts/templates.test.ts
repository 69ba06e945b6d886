import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../src/core/errors.ts';
import { fillOwnPrompt, fillPrompt, promptTemplate } from '../../../src/prompts/templates.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('placeholders are filled, doubled braces are literal, unknown names stay', () => {
  expect(fillPrompt('goal {experiment_goal}; json {{"a": 1}}; {other}', { experiment_goal: 'G {x}' })).toBe('goal G {x}; json {"a": 1}; {other}');
});

test('a template file is read relative to the workflow, and its placeholders are checked', () => {
  writeFileSync(join(dir, 'mine.md'), 'pick from {candidates} for {experiment_goal}');
  expect(promptTemplate('mine.md', { baseDir: dir, placeholders: ['candidates'] })).toContain('pick from');
  expect(() => promptTemplate('mine.md', { baseDir: dir, placeholders: ['candidates', 'memory_context'], setting: 'bfts.select_prompt' })).toThrow(
    new InputError("bfts.select_prompt 'mine.md' lacks the placeholder {memory_context}"),
  );
});

test('a missing template file fails at once, naming where it looked', () => {
  let err: unknown;
  try {
    promptTemplate('prompts/none.md', { baseDir: dir, setting: 'bfts.select_prompt' });
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(NotFoundError);
  expect((err as Error).message).toBe(`bfts.select_prompt 'prompts/none.md' is neither a bundled prompt nor a file (looked for ${join(dir, 'prompts/none.md')})`);
});

test("svc's own templates: every placeholder needs a value, numbers are written out", () => {
  expect(fillOwnPrompt('a {x} {{"k": 1}} n={n}', { x: '{z}', n: 3 })).toBe('a {z} {"k": 1} n=3');
  expect(() => fillOwnPrompt('{missing}', {}, 'agent/system')).toThrow('agent/system: no value for {missing}');
});
