import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';
import { pipelineStages, skillName, usableOutput } from '../../../src/pipeline/stages.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe('pipelineStages', () => {
  test('the bundled pipeline: enabled stages in file order, the enabled ear_publish entry (local-tarball) the one kept', () => {
    const stages = pipelineStages(bundledWorkflow());
    const names = stages.map((s) => s.stage);
    expect(names.filter((n) => n === 'ear_publish')).toHaveLength(1);
    expect(stages.find((s) => s.stage === 'ear_publish')?.inputs?.backend).toBe('local-tarball');
    for (const s of stages) for (const d of s.deps) expect(names.indexOf(d)).toBeLessThan(names.indexOf(s.stage));
    expect(stages.find((s) => s.stage === 'ors_grade')).toMatchObject({ skillName: 'paper-re-skill', tool: 'grade_with_judge', deps: ['ors_run_reproduce'] });
  });

  test('skill shorthand: foo is foo-skill', () => {
    expect(skillName('paper')).toBe('paper-skill');
    expect(skillName('paper-skill')).toBe('paper-skill');
    expect(skillName('')).toBe('');
  });
});

describe('usableOutput (skip_if_exists)', () => {
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  test('a non-empty file, or a JSON object without a top-level error, is usable', () => {
    expect(usableOutput(put('paper.tex', '\\documentclass{article}'))).toBe(true);
    expect(usableOutput(put('refs.json', '{"refs":[],"note":{"error":"nested is fine"}}'))).toBe(true);
  });
  test('missing, empty, a directory, JSON with a top-level error, broken JSON or a JSON non-object is not', () => {
    expect(usableOutput(join(dir, 'missing.json'))).toBe(false);
    expect(usableOutput(put('empty.tex', ''))).toBe(false);
    mkdirSync(join(dir, 'd.json'));
    expect(usableOutput(join(dir, 'd.json'))).toBe(false);
    expect(usableOutput(put('err.json', '{"error":"stage failed"}'))).toBe(false);
    expect(usableOutput(put('torn.json', '{"refs": ['))).toBe(false);
    expect(usableOutput(put('list.json', '[1,2]'))).toBe(false);
  });
});
