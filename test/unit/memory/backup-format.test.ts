import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BACKUP_FILE, type BackupLine, readBackupLines, readMemoryBackup, type ReadTally, writeBackupFile } from '../../../src/memory/backup-format.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

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

describe('writeBackupFile', () => {
  const written: BackupLine[] = [
    { kind: 'node_scope', node_id: 'node_a', text: 'tiling by 32 helps', metadata: { step: 1 }, ts: 1, entry_id: 'e1', tags: ['node:node_a', 'kind:node_scope'] },
    { kind: 'react_step', text: 'ran make', metadata: { node_id: 'node_b' }, ts: 2 },
    { kind: 'core_seed', persona: 'p', human: 'h', context: { metric: 'mse' }, seeded_at: 0 },
  ];
  async function* source(): AsyncGenerator<BackupLine> {
    yield* written;
  }

  test('what it writes, both readers read back as written', async () => {
    const file = join(dir, BACKUP_FILE);
    await writeBackupFile(file, source());
    const tally: ReadTally = { lines: 0, skipped: 0, damage: null };
    const streamed: BackupLine[] = [];
    for await (const line of readBackupLines(file, tally, { gzip: true })) streamed.push(line);
    expect(streamed).toEqual(written);
    expect(tally).toEqual({ lines: 3, skipped: 0, damage: null });
    expect(readMemoryBackup(dir)).toEqual({ source: BACKUP_FILE, entries: written, skipped: 0, problems: [] });
    expect(readMemoryBackup(dir, 'node_b').entries).toEqual(written.slice(1, 2));
  });

  test('a source that fails mid-way leaves the previous backup as it was', async () => {
    const file = join(dir, BACKUP_FILE);
    await writeBackupFile(file, source());
    async function* failing(): AsyncGenerator<BackupLine> {
      yield written[0] as BackupLine;
      throw new Error('backend went away');
    }
    await expect(writeBackupFile(file, failing())).rejects.toThrow('backend went away');
    expect(readMemoryBackup(dir).entries).toEqual(written);
  });
});
