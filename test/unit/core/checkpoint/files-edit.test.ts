import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeContent, deleteCheckpointFile, isRunRecord, saveCheckpointFile } from '../../../../src/core/checkpoint/files-edit.ts';
import { InputError, NotFoundError } from '../../../../src/core/errors.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
let ck: string;
let treeBefore: string;
beforeEach(() => {
  ws = tempDir();
  ck = writeCheckpoint(join(ws, 'checkpoints'), { runId: '20260101000000_TestExp', nodes: 2 });
  mkdirSync(join(ck, 'paper'));
  writeFileSync(join(ck, 'paper', 'full_paper.tex'), '\\documentclass{article}\n');
  writeFileSync(join(ws, 'outside.txt'), 'outside');
  treeBefore = readFileSync(join(ck, 'tree.json'), 'utf8');
});
afterEach(() => removeDir(ws));

const bytes = (s: string) => Buffer.from(s);

describe('saveCheckpointFile', () => {
  test('overwrites in place and creates parent directories, leaving no temp file', () => {
    expect(saveCheckpointFile(ck, 'paper/full_paper.tex', bytes('\\documentclass{article}\n% edited\n'))).toEqual({ path: 'paper/full_paper.tex', size: 33 });
    expect(readFileSync(join(ck, 'paper', 'full_paper.tex'), 'utf8')).toContain('% edited');
    expect(saveCheckpointFile(ck, 'notes/2026/today.md', bytes('hi'))).toEqual({ path: 'notes/2026/today.md', size: 2 });
    expect(readFileSync(join(ck, 'notes', '2026', 'today.md'), 'utf8')).toBe('hi');
    expect(readdirSync(join(ck, 'paper'))).toEqual(['full_paper.tex']);
  });

  test('run records are refused and stay unchanged, also through a link or a ./ spelling', () => {
    for (const rel of ['tree.json', './tree.json', 'paper/../tree.json', 'cost_summary.json', 'memory_access.3.jsonl', 'viz_access.jsonl', '.svc_pid']) {
      expect(() => saveCheckpointFile(ck, rel, bytes('{}'))).toThrow('is a run record');
    }
    symlinkSync(join(ck, 'tree.json'), join(ck, 'tree-link.json'));
    expect(() => saveCheckpointFile(ck, 'tree-link.json', bytes('{}'))).toThrow('is a run record');
    symlinkSync(ck, join(ck, 'paper', 'up'));
    expect(() => saveCheckpointFile(ck, 'paper/up/tree.json', bytes('{}'))).toThrow('is a run record');
    expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe(treeBefore);
    expect(existsSync(join(ck, 'memory_access.3.jsonl'))).toBe(false);
    // the same names deeper down are ordinary files
    expect(saveCheckpointFile(ck, 'code/results.json', bytes('{}')).size).toBe(2);
  });

  test('saving through a link inside the checkpoint changes the file it points to', () => {
    symlinkSync(join(ck, 'paper', 'full_paper.tex'), join(ck, 'paper.tex'));
    saveCheckpointFile(ck, 'paper.tex', bytes('new'));
    expect(lstatSync(join(ck, 'paper.tex')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(ck, 'paper', 'full_paper.tex'), 'utf8')).toBe('new');
  });

  test('directories, paths under a file, traversal, links out and secrets are refused', () => {
    expect(() => saveCheckpointFile(ck, 'paper', bytes('x'))).toThrow("'paper' is a directory");
    expect(() => saveCheckpointFile(ck, 'paper/full_paper.tex/x', bytes('x'))).toThrow('part of its directory path is a file');
    expect(() => saveCheckpointFile(ck, '../outside.txt', bytes('x'))).toThrow(InputError);
    expect(() => saveCheckpointFile(ck, join(ws, 'outside.txt'), bytes('x'))).toThrow('is absolute');
    symlinkSync(join(ws, 'outside.txt'), join(ck, 'out.txt'));
    expect(() => saveCheckpointFile(ck, 'out.txt', bytes('x'))).toThrow('is outside');
    symlinkSync(ws, join(ck, 'outdir'));
    expect(() => saveCheckpointFile(ck, 'outdir/new.txt', bytes('x'))).toThrow('is outside');
    expect(() => saveCheckpointFile(ck, '.env', bytes('KEY=x'))).toThrow('holds secrets');
    expect(readFileSync(join(ws, 'outside.txt'), 'utf8')).toBe('outside');
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
    expect(existsSync(join(ck, '.env'))).toBe(false);
  });
});

describe('decodeContent', () => {
  test('utf8 by default, base64 with or without padding', () => {
    expect(decodeContent('héllo').toString('utf8')).toBe('héllo');
    expect([...decodeContent('gASV', 'base64')]).toEqual([0x80, 0x04, 0x95]);
    expect(decodeContent('aGk=', 'base64').toString()).toBe('hi');
    expect(decodeContent('aGk', 'base64').toString()).toBe('hi');
    expect(decodeContent('aG\nk=', 'base64').toString()).toBe('hi');
  });

  test('not base64: refused', () => {
    for (const bad of ['not base64!', 'a', 'aGk==x']) expect(() => decodeContent(bad, 'base64')).toThrow('not valid base64');
    expect(() => decodeContent('x', 'hex')).toThrow("encoding must be 'utf8' or 'base64', got 'hex'");
  });
});

describe('deleteCheckpointFile', () => {
  test('removes one file', () => {
    expect(deleteCheckpointFile(ck, 'paper/full_paper.tex')).toEqual({ path: 'paper/full_paper.tex' });
    expect(existsSync(join(ck, 'paper', 'full_paper.tex'))).toBe(false);
    expect(existsSync(join(ck, 'paper'))).toBe(true);
  });

  test('a link is removed, not what it points to', () => {
    symlinkSync(join(ck, 'tree.json'), join(ck, 'tree-link.json'));
    deleteCheckpointFile(ck, 'tree-link.json');
    expect(existsSync(join(ck, 'tree-link.json'))).toBe(false);
    expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe(treeBefore);
  });

  test('missing, directories, run records, traversal and secrets are refused', () => {
    expect(() => deleteCheckpointFile(ck, 'nope.txt')).toThrow(NotFoundError);
    expect(() => deleteCheckpointFile(ck, 'paper')).toThrow("'paper' is a directory");
    expect(() => deleteCheckpointFile(ck, '.')).toThrow('is a directory');
    expect(() => deleteCheckpointFile(ck, 'tree.json')).toThrow('is a run record');
    expect(() => deleteCheckpointFile(ck, '../outside.txt')).toThrow(InputError);
    writeFileSync(join(ck, '.env'), 'KEY=x\n');
    expect(() => deleteCheckpointFile(ck, '.env')).toThrow('holds secrets');
    expect(existsSync(join(ck, 'tree.json'))).toBe(true);
    expect(existsSync(join(ck, 'paper'))).toBe(true);
    expect(existsSync(join(ck, '.env'))).toBe(true);
    expect(existsSync(join(ws, 'outside.txt'))).toBe(true);
  });
});

describe('isRunRecord', () => {
  test('root-level records only', () => {
    for (const r of ['tree.json', 'nodes_tree.json', '.ari_pid', 'cost_trace.jsonl', 'launch_config.json', 'meta.json', 'idea.json', 'results.json', 'memory_access.jsonl']) {
      expect(isRunRecord(r)).toBe(true);
    }
    for (const r of ['paper/tree.json', 'experiment.md', 'notes.json', 'memory_access.txt']) expect(isRunRecord(r)).toBe(false);
  });
});
