import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemoryAccess } from '../../../../src/core/checkpoint/memory-files.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const lines = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

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
