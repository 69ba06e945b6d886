import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readMemoryAccess, readMemoryBackup } from '../../../../src/core/checkpoint/memory-files.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const lines = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

const BACKUP = [
  { kind: 'core_seed', persona: 'p', human: 'h', context: 'c', seeded_at: '2026-01-01T00:00:00Z' },
  { kind: 'node_scope', node_id: 'node_a', text: 'tiling by 32 helps', metadata: { step: 1 }, ts: 1 },
  { kind: 'react_step', text: 'ran make', metadata: { node_id: 'node_b' }, ts: 2 },
  { kind: 'node_scope', node_id: 'node_b', text: 'vectorised', metadata: {}, ts: 3 },
];

const pick = (...indexes: number[]) => BACKUP.filter((_, i) => indexes.includes(i));

describe('readMemoryBackup', () => {
  test('no backup: an empty answer naming no source', () => {
    expect(readMemoryBackup(dir)).toEqual({ source: null, entries: [], skipped: 0, problems: [] });
  });

  test('every record of the archive, in order; a node filter keeps that node’s records', () => {
    writeFileSync(join(dir, 'memory_backup.jsonl.gz'), gzipSync(lines(BACKUP)));
    expect(readMemoryBackup(dir)).toEqual({ source: 'memory_backup.jsonl.gz', entries: BACKUP, skipped: 0, problems: [] });
    expect(readMemoryBackup(dir, 'node_b').entries).toEqual(pick(2, 3));
    expect(readMemoryBackup(dir, 'node_zzz').entries).toEqual([]);
  });

  test('damaged lines are skipped and counted', () => {
    writeFileSync(join(dir, 'memory_backup.jsonl.gz'), gzipSync(`${JSON.stringify(BACKUP[1])}\n{"kind": "node_sc\n[1,2]\n\n${JSON.stringify(BACKUP[3])}\n`));
    const r = readMemoryBackup(dir);
    expect(r.entries).toEqual(pick(1, 3));
    expect(r.skipped).toBe(2);
    expect(r.problems).toEqual([`${join(dir, 'memory_backup.jsonl.gz')}: 2 damaged line(s) skipped`]);
  });

  test('an archive cut off by a crash gives the records before the cut', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ kind: 'node_scope', node_id: `n${i}`, text: `entry ${i} ${'x'.repeat(i % 50)}`, metadata: {}, ts: i }));
    const packed = gzipSync(lines(many));
    writeFileSync(join(dir, 'memory_backup.jsonl.gz'), packed.subarray(0, Math.floor(packed.length / 2)));
    const r = readMemoryBackup(dir);
    expect(r.entries.length).toBeGreaterThan(10);
    expect(r.entries.length).toBeLessThan(400);
    expect(r.entries).toEqual(many.slice(0, r.entries.length));
  });

  test('a file that is not gzip is a problem, not an error', () => {
    writeFileSync(join(dir, 'memory_backup.jsonl.gz'), lines(BACKUP));
    const r = readMemoryBackup(dir);
    expect(r.entries).toEqual([]);
    expect(r.problems[0]).toContain('is not a gzip archive');
  });
});

const event = (ts: number, node: string, op = 'write') => ({ ts, node_id: node, op, collection: 'c', entry_id: `e${ts}` });

describe('readMemoryAccess', () => {
  test('no log: empty', () => {
    expect(readMemoryAccess(dir, { limit: 10 })).toEqual({ sources: [], events: [], truncated: false, skipped: 0, summary: null, problems: [] });
  });

  test('rotated logs come first, oldest first; the summary is attached', () => {
    writeFileSync(join(dir, 'memory_access.1700000200.jsonl'), lines([event(3, 'a'), event(4, 'b')]));
    writeFileSync(join(dir, 'memory_access.1700000100.jsonl'), lines([event(1, 'a'), event(2, 'b', 'read')]));
    writeFileSync(join(dir, 'memory_access.jsonl'), lines([event(5, 'a')]));
    writeFileSync(join(dir, 'memory_access.summary.json'), JSON.stringify({ writes: 4, reads: 1 }));
    const r = readMemoryAccess(dir, { limit: 100 });
    expect(r.sources).toEqual(['memory_access.1700000100.jsonl', 'memory_access.1700000200.jsonl', 'memory_access.jsonl']);
    expect(r.events.map((e) => e.ts)).toEqual([1, 2, 3, 4, 5]);
    expect(r.summary).toEqual({ writes: 4, reads: 1 });
    expect(r.truncated).toBe(false);
  });

  test('the limit keeps the newest events; the node filter applies before it', () => {
    writeFileSync(join(dir, 'memory_access.1700000100.jsonl'), lines([event(1, 'a'), event(2, 'b')]));
    writeFileSync(join(dir, 'memory_access.jsonl'), lines([event(3, 'a'), event(4, 'b'), event(5, 'a')]));
    const newest = readMemoryAccess(dir, { limit: 2 });
    expect(newest.events.map((e) => e.ts)).toEqual([4, 5]);
    expect(newest.truncated).toBe(true);
    const a = readMemoryAccess(dir, { limit: 100, nodeId: 'a' });
    expect(a.events.map((e) => e.ts)).toEqual([1, 3, 5]);
    expect(a.truncated).toBe(false);
  });

  test('damaged lines and a damaged summary are counted and named, the rest still read', () => {
    writeFileSync(join(dir, 'memory_access.jsonl'), `${JSON.stringify(event(1, 'a'))}\nnot json\n${JSON.stringify(event(2, 'a'))}\n{"ts": 3, "node_`);
    writeFileSync(join(dir, 'memory_access.summary.json'), '{');
    const r = readMemoryAccess(dir, { limit: 100 });
    expect(r.events.map((e) => e.ts)).toEqual([1, 2]);
    expect(r.skipped).toBe(2);
    expect(r.summary).toBeNull();
    expect(r.problems).toHaveLength(2);
  });

  test('a directory where a log should be is a problem, not an error', () => {
    mkdirSync(join(dir, 'memory_access.jsonl'));
    const r = readMemoryAccess(dir, { limit: 10 });
    expect(r.events).toEqual([]);
    expect(r.problems[0]).toContain('is not a regular file');
  });
});
