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
    expect(() => planDelete('../elsewhere', root)).toThrow('is outside the checkpoints directory');
    expect(() => planDelete(root, root)).toThrow('is the checkpoints directory itself');
    expect(existsSync(elsewhere)).toBe(true);
  });

  test('refuses a symlink inside that points at a checkpoint outside', () => {
    const elsewhere = writeCheckpoint(ws, { runId: 'elsewhere' });
    symlinkSync(elsewhere, join(root, 'link'));
    expect(() => planDelete('link', root)).toThrow('is outside the checkpoints directory');
    expect(existsSync(join(elsewhere, 'tree.json'))).toBe(true);
  });

  test('refuses a running checkpoint', () => {
    const ck = writeCheckpoint(root, { runId: 'live', pid: process.pid });
    expect(() => planDelete('live', root)).toThrow(`checkpoint live is running (pid ${process.pid})`);
    expect(existsSync(ck)).toBe(true);
  });
});
