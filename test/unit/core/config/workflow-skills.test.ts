import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editCheckpointWorkflow } from '../../../../src/core/config/workflow-edit.ts';
import { setDisabledTools, setSkillEnabled } from '../../../../src/core/config/workflow-skills.ts';
import { parseWorkflow } from '../../../../src/core/config/workflow.ts';
import { NotFoundError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const copy = () => join(dir, 'workflow.yaml');
const toggle = (name: string, enabled: boolean) => editCheckpointWorkflow(dir, {}, (doc, wf) => setSkillEnabled(doc, wf, name, enabled));
const disable = (skill: string, tools: string[]) => editCheckpointWorkflow(dir, {}, (doc, wf) => setDisabledTools(doc, wf, skill, tools));
const current = () => parseWorkflow(readFileSync(copy(), 'utf8'), copy(), {});
const skill = (name: string) => current().skills.find((s) => s.name === name) as Record<string, unknown> | undefined;

describe('switching skills', () => {
  test('off sets phase none and keeps the phase; on restores it', () => {
    toggle('coding-skill', false);
    expect(skill('coding-skill')).toMatchObject({ phase: 'none', phase_when_enabled: ['bfts', 'reproduce'] });
    toggle('coding-skill', true);
    expect(skill('coding-skill')).toEqual({ name: 'coding-skill', path: 'builtin', phase: ['bfts', 'reproduce'] });
  });

  test('on without a kept phase takes the bundled default phase', () => {
    writeFileSync(copy(), 'skills:\n  - {name: web-skill, path: builtin, phase: none}\n  - {name: idea-skill, path: builtin, phase: bfts}\n');
    toggle('web-skill', true);
    expect(skill('web-skill')?.phase).toEqual(['paper', 'reproduce']);
    expect(current().skills).toHaveLength(2);
  });

  test('on for a skill the default does not know, with no kept phase, is refused', () => {
    writeFileSync(copy(), 'skills:\n  - {name: my-skill, path: /x, phase: none}\n');
    expect(() => toggle('my-skill', true)).toThrow("skill 'my-skill' has no phase to return to");
  });

  test('switching to the state it is in changes nothing', () => {
    toggle('idea-skill', true);
    expect(skill('idea-skill')).toEqual({ name: 'idea-skill', path: 'builtin', phase: 'bfts' });
    toggle('idea-skill', false);
    toggle('idea-skill', false);
    expect(skill('idea-skill')).toMatchObject({ phase: 'none', phase_when_enabled: 'bfts' });
  });

  test('an unknown skill is not found and nothing is written', () => {
    expect(() => toggle('nope-skill', false)).toThrow(NotFoundError);
    expect(existsSync(copy())).toBe(false);
  });

  test('comments and other keys of the copy stay', () => {
    writeFileSync(copy(), '# chosen for this run\nllm: {model: m} # small model\n');
    toggle('plot-skill', false);
    const text = readFileSync(copy(), 'utf8');
    expect(text).toContain('# chosen for this run');
    expect(text).toContain('# small model');
    expect(current().llm.model).toBe('m');
  });
});

describe('disabled tools', () => {
  test('stored as skill:tool, replacing that skill only; bare names stay', () => {
    writeFileSync(copy(), 'disabled_tools: [run_bash, web-skill:old, paper-skill:compile_paper]\n');
    disable('web-skill', ['search', 'fetch']);
    expect(current().disabled_tools).toEqual(['run_bash', 'paper-skill:compile_paper', 'web-skill:search', 'web-skill:fetch']);
    disable('web-skill', []);
    expect(current().disabled_tools).toEqual(['run_bash', 'paper-skill:compile_paper']);
  });

  test('an unknown skill is not found; a bad tool name is refused; nothing is written', () => {
    expect(() => disable('nope-skill', ['x'])).toThrow(NotFoundError);
    expect(() => disable('web-skill', ['a b'])).toThrow("'a b' is not a tool name");
    expect(existsSync(copy())).toBe(false);
  });
});
