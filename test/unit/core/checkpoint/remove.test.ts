import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCheckpoint, listCheckpointDirs } from '../../../../src/core/checkpoint/locate.ts';
import { executeDelete, planDelete } from '../../../../src/core/checkpoint/remove.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
let root: string;
beforeEach(() => {
  ws = tempDir();
  root = join(ws, 'checkpoints');
  mkdirSync(root);
});
afterEach(() => removeDir(ws));

describe('findCheckpoint and listCheckpointDirs', () => {
  test('by id inside the checkpoints directory, or by path', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a' });
    expect(findCheckpoint('20260101000000_a', root)).toBe(ck);
    expect(findCheckpoint(ck, '/nowhere')).toBe(ck);
  });

  test('missing, a file, or a directory that is not a checkpoint: clear errors', () => {
    expect(() => findCheckpoint('nope', root)).toThrow("checkpoint 'nope' does not exist");
    writeFileSync(join(ws, 'file'), 'x');
    expect(() => findCheckpoint(join(ws, 'file'), root)).toThrow('is a file, not a checkpoint directory');
    mkdirSync(join(root, 'plain'));
    expect(() => findCheckpoint('plain', root)).toThrow('is not a checkpoint');
    expect(() => findCheckpoint('', root)).toThrow('no checkpoint given');
  });

  test('lists checkpoints newest name first, skipping other entries', () => {
    writeCheckpoint(root, { runId: '20260101000000_a' });
    writeCheckpoint(root, { runId: '20260201000000_b' });
    mkdirSync(join(root, 'not_a_checkpoint'));
    writeFileSync(join(root, 'stray.log'), '');
    mkdirSync(join(root, '.deleting-x'));
    writeFileSync(join(root, '.deleting-x', 'tree.json'), '{"nodes": []}');
    expect(listCheckpointDirs(root).map((d) => d.slice(root.length + 1))).toEqual(['20260201000000_b', '20260101000000_a']);
    expect(listCheckpointDirs(join(ws, 'missing'))).toEqual([]);
  });
});

describe('delete', () => {
  test('removes the checkpoint and its experiments directory, nothing else', () => {
    const ck = writeCheckpoint(root, { runId: 'r1' });
    const keep = writeCheckpoint(root, { runId: 'r2' });
    const exp = join(ws, 'experiments', 'r1', 'node_a');
    mkdirSync(exp, { recursive: true });
    mkdirSync(join(ws, 'experiments', 'r2'), { recursive: true });
    const plan = planDelete('r1', root);
    expect(plan).toEqual({ checkpoint: ck, experiments: join(ws, 'experiments', 'r1') });
    executeDelete(plan);
    expect(existsSync(ck)).toBe(false);
    expect(existsSync(join(ws, 'experiments', 'r1'))).toBe(false);
    expect(existsSync(keep)).toBe(true);
    expect(readdirSync(join(ws, 'experiments'))).toEqual(['r2']);
    expect(readdirSync(root)).toEqual(['r2']);
  });

  test('refuses paths outside the checkpoints directory and the directory itself', () => {
    const elsewhere = writeCheckpoint(ws, { runId: 'elsewhere' });
    expect(() => planDelete(elsewhere, root)).toThrow('is outside the checkpoints directory');
    expect(() => planDelete(join(root, '..', 'elsewhere'), root)).toThrow('is outside the checkpoints directory');
    expect(() => planDelete(root, root)).toThrow('is the checkpoints directory itself');
    expect(existsSync(elsewhere)).toBe(true);
  });

  test('refuses a symlink inside that points at a checkpoint outside', () => {
    const elsewhere = writeCheckpoint(ws, { runId: 'elsewhere' });
    symlinkSync(elsewhere, join(root, 'link'));
    expect(() => planDelete('link', root)).toThrow('is outside the checkpoints directory');
    expect(existsSync(join(elsewhere, 'tree.json'))).toBe(true);
  });

  test('the experiments directory is the one beside this checkpoints directory, however deep it sits', () => {
    // a path with another `checkpoints` higher up must not send delete to <that>/experiments
    const deep = join(ws, 'checkpoints', 'proj', 'workspace', 'checkpoints');
    const ck = writeCheckpoint(deep, { runId: 'run7' });
    const unrelated = join(ws, 'experiments', 'run7');
    const own = join(ws, 'checkpoints', 'proj', 'workspace', 'experiments', 'run7');
    mkdirSync(unrelated, { recursive: true });
    mkdirSync(own, { recursive: true });
    executeDelete(planDelete('run7', deep));
    expect(existsSync(ck)).toBe(false);
    expect(existsSync(own)).toBe(false);
    expect(existsSync(unrelated)).toBe(true);
  });

  test('missing, empty, nested and symlinked names: clear errors, nothing removed', () => {
    const ck = writeCheckpoint(root, { runId: 'r1' });
    expect(() => planDelete('nosuch', root)).toThrow("checkpoint 'nosuch' does not exist");
    expect(() => planDelete('', root)).toThrow('no checkpoint given');
    expect(planDelete('r1/', root).checkpoint).toBe(ck);
    mkdirSync(join(ck, 'inner'));
    writeFileSync(join(ck, 'inner', 'tree.json'), '{"nodes": []}');
    expect(() => planDelete(join(ck, 'inner'), root)).toThrow('is not directly in the checkpoints directory');
    symlinkSync(ck, join(root, 'alias'));
    expect(() => planDelete('alias', root)).toThrow('is a symlink');
    expect(existsSync(join(ck, 'tree.json'))).toBe(true);
  });

  test('a project directory with only an experiment.md is not a checkpoint', () => {
    mkdirSync(join(root, 'myproj', 'src'), { recursive: true });
    writeFileSync(join(root, 'myproj', 'experiment.md'), '# goal\n');
    expect(() => planDelete('myproj', root)).toThrow('is not a checkpoint');
    expect(existsSync(join(root, 'myproj', 'src'))).toBe(true);
  });

  test('refuses a running checkpoint', () => {
    const ck = writeCheckpoint(root, { runId: 'live', pid: process.pid });
    expect(() => planDelete('live', root)).toThrow(`checkpoint live is running (pid ${process.pid})`);
    expect(existsSync(ck)).toBe(true);
  });
});
