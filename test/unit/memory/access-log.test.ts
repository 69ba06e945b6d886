import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemoryAccess } from '../../../src/core/checkpoint/memory-files.ts';
import { AccessLog, deleteEvent, readEvent, writeEvent } from '../../../src/memory/access-log.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const lines = (file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const write = (n: number, node = 'n1') => writeEvent({ node_id: node, entry_id: `e${n}`, kind: 'node_scope', text: 'y'.repeat(300), metadata: { n } });

describe('memory_access.jsonl', () => {
  test('writes and reads in the reference format, one JSON object a line', () => {
    const log = AccessLog.fromEnv({ SVC_CHECKPOINT_DIR: dir }) as AccessLog;
    log.append([write(1), readEvent({ node_id: 'n2', query: 'tiling', ancestor_ids: ['root', 'n1'], limit: 5, results: [{ src_node_id: 'n1', entry_id: 'e1', score: 2.5 }] })]);
    log.append([deleteEvent({ node_id: 'n1', entry_ids: ['e1'] })]);
    expect(lines('memory_access.jsonl')).toEqual([
      { ts: expect.any(Number), op: 'write', node_id: 'n1', collection: 'node_scope', entry_id: 'e1', kind: 'node_scope', text_preview: 'y'.repeat(200), metadata: { n: 1 } },
      { ts: expect.any(Number), op: 'read', node_id: 'n2', collection: 'node_scope', query: 'tiling', ancestor_ids: ['root', 'n1'], limit: 5, results: [{ src_node_id: 'n1', entry_id: 'e1', score: 2.5 }] },
      { ts: expect.any(Number), op: 'delete', node_id: 'n1', collection: 'node_scope', entry_ids: ['e1'] },
    ]);
    // ts is epoch seconds, as the reference writes it
    expect(Math.abs(lines('memory_access.jsonl')[0].ts - Date.now() / 1000)).toBeLessThan(3600);
  });

  test('SVC_MEMORY_ACCESS_LOG=off (or false, 0, no) turns it off; without a checkpoint there is none', () => {
    for (const off of ['off', 'OFF', 'false', '0', 'no']) expect(AccessLog.fromEnv({ SVC_CHECKPOINT_DIR: dir, SVC_MEMORY_ACCESS_LOG: off })).toBeNull();
    expect(AccessLog.fromEnv({})).toBeNull();
    expect(AccessLog.fromEnv({ SVC_CHECKPOINT_DIR: dir, SVC_MEMORY_ACCESS_LOG: 'on' })).not.toBeNull();
    expect(existsSync(join(dir, 'memory_access.jsonl'))).toBe(false);
  });

  test('past SVC_MEMORY_ACCESS_LOG_MAX_MB the log is rotated to memory_access.<n>.jsonl, which the dashboard reads back in order', () => {
    const log = AccessLog.fromEnv({ SVC_CHECKPOINT_DIR: dir, SVC_MEMORY_ACCESS_LOG_MAX_MB: String(2000 / 1024 / 1024) }) as AccessLog;
    for (let n = 0; n < 20; n++) log.append([write(n)]);
    const rotated = readdirSync(dir).filter((f) => /^memory_access\.\d+\.jsonl$/.test(f));
    expect(rotated.length).toBeGreaterThanOrEqual(2);
    for (const f of rotated) expect(readFileSync(join(dir, f)).length).toBeGreaterThanOrEqual(2000);
    const read = readMemoryAccess(dir, { limit: 1000 });
    expect(read.problems).toEqual([]);
    expect(read.events.map((e) => e.entry_id)).toEqual(Array.from({ length: 20 }, (_, n) => `e${n}`));
  });

  test('a rotated name already taken (or a newer one) is never overwritten', () => {
    const future = Math.floor(Date.now() / 1000) + 1000;
    writeFileSync(join(dir, `memory_access.${future}.jsonl`), `${JSON.stringify(write(-1))}\n`);
    const log = new AccessLog(dir, 500);
    // two lines pass 500 bytes: the third and the fifth append rotate first
    for (let n = 0; n < 5; n++) log.append([write(n)]);
    expect(readdirSync(dir).sort()).toEqual(['memory_access.jsonl', `memory_access.${future}.jsonl`, `memory_access.${future + 1}.jsonl`, `memory_access.${future + 2}.jsonl`].sort());
    expect(readMemoryAccess(dir, { limit: 1000 }).events.map((e) => e.entry_id)).toEqual(['e-1', 'e0', 'e1', 'e2', 'e3', 'e4']);
  });

  test('a stale rotation lock left by a dead writer is cleared; meanwhile appends go on', () => {
    const lock = join(dir, '.memory_access.rotate.lock');
    writeFileSync(lock, '');
    const log = new AccessLog(dir, 500);
    log.append([write(0)]);
    log.append([write(1)]);
    expect(readdirSync(dir).filter((f) => f.startsWith('memory_access.'))).toEqual(['memory_access.jsonl']);
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    log.append([write(2)]);
    log.append([write(3)]);
    expect(existsSync(lock)).toBe(false);
    expect(readMemoryAccess(dir, { limit: 1000 }).events.map((e) => e.entry_id)).toEqual(['e0', 'e1', 'e2', 'e3']);
  });

  test('a log that cannot be written does not fail the caller', () => {
    const notADir = join(dir, 'file');
    writeFileSync(notADir, '');
    const log = new AccessLog(notADir, 1000);
    expect(() => log.append([write(0)])).not.toThrow();
  });

  test('parallel processes appending and rotating lose no event and never interleave lines', async () => {
    const writers = 4;
    const each = 400;
    const env = { ...process.env, SVC_MEMORY_ACCESS_LOG_MAX_MB: String(40_000 / 1024 / 1024) };
    const procs = Array.from({ length: writers }, (_, w) =>
      Bun.spawn([process.execPath, join(import.meta.dir, 'access-log-writer.ts'), dir, `w${w}`, String(each)], { env, stderr: 'inherit' }),
    );
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual(Array(writers).fill(0));
    const files = readdirSync(dir).filter((f) => /^memory_access(\.\d+)?\.jsonl$/.test(f));
    expect(files.length).toBeGreaterThan(2);
    const seen = files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).entry_id as string));
    expect(seen.length).toBe(writers * each);
    expect(new Set(seen).size).toBe(writers * each);
    // each writer's events stay in its order across the rotated files
    const read = readMemoryAccess(dir, { limit: 100_000 });
    for (let w = 0; w < writers; w++) {
      const mine = read.events.filter((e) => e.node_id === `w${w}`).map((e) => (e.metadata as { i: number }).i);
      expect(mine).toEqual(Array.from({ length: each }, (_, i) => i));
    }
  });
});
