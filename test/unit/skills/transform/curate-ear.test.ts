import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { BUILTIN_SKILLS, loadSkill } from '../../../../src/skills/catalog.ts';
import { curateEar } from '../../../../src/skills/transform/curate-ear.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let root: string;
let ckpt: string;
const ctx = (env: Record<string, string> = {}) => ({ signal: new AbortController().signal, env });

beforeEach(() => {
  root = tempDir();
  ckpt = join(root, 'run');
  mkdirSync(join(ckpt, 'ear'), { recursive: true });
  writeFileSync(join(ckpt, 'tree.json'), '{}');
  writeFileSync(join(ckpt, 'ear', 'result.csv'), 'x\n1\n');
});
afterEach(() => removeDir(root));

describe('transform-skill curate_ear', () => {
  test('is a built-in skill serving curate_ear', async () => {
    expect(BUILTIN_SKILLS.has('transform-skill')).toBe(true);
    const skill = await loadSkill('transform-skill');
    expect(skill?.tools.map((t) => t.name)).toEqual(['nodes_to_science_data', 'generate_ear', 'curate_ear', 'publish_ear', 'promote_ear']);
  });

  test('curates, from the argument or SVC_CHECKPOINT_DIR; skipped without publish.yaml', async () => {
    expect(await curateEar.run({ checkpoint_dir: ckpt }, ctx())).toMatchObject({ skipped: true });
    writeFileSync(join(ckpt, 'ear', 'publish.yaml'), 'include: ["*.csv"]\n');
    const r = (await curateEar.run({}, ctx({ SVC_CHECKPOINT_DIR: ckpt }))) as Record<string, unknown>;
    expect(r).toMatchObject({ skipped: false, file_count: 1, excluded_count: 1 });
    expect(existsSync(join(ckpt, 'ear_curate.status.json'))).toBe(true);
  });

  test('bad inputs', async () => {
    await expect(Promise.resolve().then(() => curateEar.run({}, ctx()))).rejects.toThrow('no checkpoint_dir');
    await expect(Promise.resolve().then(() => curateEar.run({ checkpoint_dir: join(root, 'nope') }, ctx()))).rejects.toThrow('is not a directory');
    mkdirSync(join(root, 'plain'));
    await expect(Promise.resolve().then(() => curateEar.run({ checkpoint_dir: join(root, 'plain') }, ctx()))).rejects.toThrow('is not a checkpoint');
    expect(Value.Check(curateEar.params, { checkpoint_dir: 1 })).toBe(false);
    expect(Value.Check(curateEar.params, { other: 'x' })).toBe(false);
  });
});
