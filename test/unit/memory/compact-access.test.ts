import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemoryAccess } from '../../../src/core/checkpoint/memory-files.ts';
import { compactAccessLog } from '../../../src/memory/compact-access.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { makeCheckpoint } from './backup-server.ts';

let dir: string;
let ckpt: string;
beforeEach(() => {
  dir = tempDir();
  ckpt = makeCheckpoint(dir);
});
afterEach(() => removeDir(dir));

const write = (ts: number, node: string) => JSON.stringify({ ts, node_id: node, op: 'write', collection: 'node_scope', entry_id: `e${ts}`, text_preview: 'x', metadata: {} });
const read = (ts: number, node: string) => JSON.stringify({ ts, node_id: node, op: 'read', collection: 'node_scope', query: 'q', ancestor_ids: ['root'], limit: 5, results: [] });

const accessFiles = () => readdirSync(ckpt).filter((n) => n.startsWith('memory_access')).sort();

describe('compactAccessLog', () => {
  test('merges the rotated parts and the live log, oldest first, and writes per-node counts', async () => {
    // epochs sort numerically, not as text: 900 is older than 1000
    writeFileSync(join(ckpt, 'memory_access.1000.jsonl'), `${write(3, 'b')}\n${read(4, 'a')}\n`);
    writeFileSync(join(ckpt, 'memory_access.900.jsonl'), `${write(1, 'a')}\nnot json\n\n${read(2, 'b')}\n`);
    writeFileSync(join(ckpt, 'memory_access.jsonl'), `${read(5, 'a')}\n${write(6, '')}\n{"cut": tr`);
    const r = await compactAccessLog(ckpt);
    expect(r).toEqual({
      parts: ['memory_access.900.jsonl', 'memory_access.1000.jsonl', 'memory_access.jsonl'],
      events: 6,
      skipped: 2,
      duplicates: 0,
      summary: { a: { writes: 1, reads: 2 }, b: { writes: 1, reads: 1 }, '': { writes: 1, reads: 0 } },
    });
    expect(accessFiles()).toEqual(['memory_access.jsonl', 'memory_access.summary.json']);
    const merged = readFileSync(join(ckpt, 'memory_access.jsonl'), 'utf8').trimEnd().split('\n');
    expect(merged.map((l) => JSON.parse(l).ts)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(JSON.parse(readFileSync(join(ckpt, 'memory_access.summary.json'), 'utf8'))).toEqual(r.summary);
    // the dashboard reads the compacted log like any other
    const seen = readMemoryAccess(ckpt, { limit: 100 });
    expect(seen.events.length).toBe(6);
    expect(seen.summary).toEqual(r.summary);
  });

  test('lines repeated by an interrupted earlier compaction are kept once', async () => {
    writeFileSync(join(ckpt, 'memory_access.5.jsonl'), `${write(1, 'a')}\n`);
    writeFileSync(join(ckpt, 'memory_access.jsonl'), `${write(1, 'a')}\n${read(2, 'a')}\n`);
    const r = await compactAccessLog(ckpt);
    expect(r).toMatchObject({ events: 2, duplicates: 1, summary: { a: { writes: 1, reads: 1 } } });
  });

  test('only rotated parts (the live log not started yet) still give one live log', async () => {
    writeFileSync(join(ckpt, 'memory_access.7.jsonl'), `${write(1, 'a')}\n`);
    await compactAccessLog(ckpt);
    expect(accessFiles()).toEqual(['memory_access.jsonl', 'memory_access.summary.json']);
  });

  test('no log at all: nothing written', async () => {
    expect(await compactAccessLog(ckpt)).toEqual({ parts: [], events: 0, skipped: 0, duplicates: 0, summary: {} });
    expect(accessFiles()).toEqual([]);
  });

  test('a running checkpoint is refused and its files are left alone', async () => {
    writeFileSync(join(ckpt, 'memory_access.3.jsonl'), `${write(1, 'a')}\n`);
    writeFileSync(join(ckpt, '.svc_pid'), `${process.pid}\n`);
    await expect(compactAccessLog(ckpt)).rejects.toThrow(`checkpoint ${ckpt} is running (pid ${process.pid}) and still writes memory_access.jsonl`);
    expect(accessFiles()).toEqual(['memory_access.3.jsonl']);
  });
});
