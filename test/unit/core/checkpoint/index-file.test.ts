import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFile } from '../../../../src/core/checkpoint/index-file.ts';
import { type CheckpointListEntry, listCheckpointIndex } from '../../../../src/core/checkpoint/index.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const INDEX_MODULE = join(import.meta.dir, '../../../../src/core/checkpoint/index.ts');

let ws: string;
let root: string;
beforeEach(() => {
  ws = tempDir();
  root = join(ws, 'checkpoints');
  mkdirSync(root);
});
afterEach(() => removeDir(ws));

/** The listing as a dashboard started afresh answers it: another process, with no cache in memory. */
async function listInNewProcess(dir: string): Promise<CheckpointListEntry[]> {
  const code = `import { listCheckpointIndex } from ${JSON.stringify(INDEX_MODULE)};
    console.log(JSON.stringify(listCheckpointIndex(${JSON.stringify(dir)})));`;
  const p = Bun.spawn([process.execPath, '-e', code], { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(p.stdout).text();
  expect(await p.exited).toBe(0);
  return JSON.parse(out);
}

const stored = (dir = root) => JSON.parse(readFileSync(indexFile(dir), 'utf8'));

/** Two checkpoints, listed once by this process, which leaves the index file behind. */
function twoListed(): { a: string; b: string; first: CheckpointListEntry[] } {
  const a = writeCheckpoint(root, { runId: '20260101000000_a', nodes: 3 });
  const b = writeCheckpoint(root, { runId: '20260102000000_b', nodes: 5 });
  // a snapshot taken within moments of a write is not trusted, and would be rebuilt anyway
  Bun.sleepSync(60);
  return { a, b, first: listCheckpointIndex(root) };
}

describe('the checkpoint index kept on disk', () => {
  test('a new process answers the entries the last one kept, without rewriting the file', async () => {
    const { first } = twoListed();
    expect(stored()).toMatchObject({ format: 4, root, checkpoints: { '20260101000000_a': { entry: first[1] }, '20260102000000_b': { entry: first[0] } } });
    expect(await listInNewProcess(root)).toEqual(first);

    // an entry changed only in the file shows that the new process took it from there
    const file = stored();
    file.checkpoints['20260101000000_a'].entry.goal = 'kept in the index';
    writeFileSync(indexFile(root), JSON.stringify(file));
    const before = statSync(indexFile(root));
    const listed = await listInNewProcess(root);
    expect(listed.map((e) => e.goal)).toEqual([first[0]?.goal ?? null, 'kept in the index']);
    const after = statSync(indexFile(root));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  test('a checkpoint changed, added or removed since the index was written shows as it is now', async () => {
    const { a, b } = twoListed();
    const tree = JSON.parse(readFileSync(join(a, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_added', status: 'success', metrics: { _scientific_score: 0.99 } });
    writeFileSync(join(a, 'tree.json'), JSON.stringify(tree)); // in place, as the reference implementation writes
    writeFileSync(join(b, 'review_report.json'), JSON.stringify({ overall_score: 8 }));
    writeCheckpoint(root, { runId: '20260103000000_c', nodes: 2 });

    const listed = await listInNewProcess(root);
    expect(listed.map((e) => [e.id, e.node_count, e.review_score])).toEqual([
      ['20260103000000_c', 2, null],
      ['20260102000000_b', 5, 8],
      ['20260101000000_a', 4, null],
    ]);
    expect(listed[2]?.best_scientific_score).toBe(0.99);
    // the new state is what the next start reads
    expect(stored().checkpoints['20260101000000_a'].entry.node_count).toBe(4);

    rmSync(b, { recursive: true });
    expect((await listInNewProcess(root)).map((e) => e.id)).toEqual(['20260103000000_c', '20260101000000_a']);
    expect(Object.keys(stored().checkpoints).sort()).toEqual(['20260101000000_a', '20260103000000_c']);
  });

  test('whether a recorded process still runs is asked anew, not taken from the file', async () => {
    const sleeper = Bun.spawn(['sleep', '60']);
    try {
      writeCheckpoint(root, { runId: '20260101000000_live', pid: sleeper.pid });
      Bun.sleepSync(60);
      expect(listCheckpointIndex(root)[0]?.status).toBe('running');
      expect(stored().checkpoints['20260101000000_live']).toMatchObject({ pid: sleeper.pid, entry: { status: 'done' } });
      expect((await listInNewProcess(root))[0]?.status).toBe('running');
    } finally {
      sleeper.kill();
      await sleeper.exited;
    }
    expect((await listInNewProcess(root))[0]?.status).toBe('done');
  });

  test('a moved checkpoints directory lists its new paths', async () => {
    twoListed();
    const moved = join(ws, 'moved');
    renameSync(root, moved);
    const listed = await listInNewProcess(moved);
    expect(listed.map((e) => e.path)).toEqual([join(moved, '20260102000000_b'), join(moved, '20260101000000_a')]);
    expect(stored(moved).root).toBe(moved);
  });

  const damage: [string, () => void][] = [
    ['garbage', () => writeFileSync(indexFile(root), '\u0000not json')],
    ['truncated JSON', () => writeFileSync(indexFile(root), JSON.stringify(healthy()).slice(0, 300))],
    ['another format', () => writeFileSync(indexFile(root), JSON.stringify({ ...healthy(), format: 999 }))],
    ['another svc version', () => writeFileSync(indexFile(root), JSON.stringify({ ...healthy(), svc: '0.0.0-other' }))],
    ['records of the wrong shape', () => writeFileSync(indexFile(root), JSON.stringify({ ...healthy(), checkpoints: { '20260101000000_a': { entry: 'x' }, '20260102000000_b': null } }))],
    ['an empty directory', () => mkdirSync(indexFile(root))],
  ];

  /** An index as a run of this svc writes it, but with every entry wrong, so that trusting it shows. */
  function healthy(): Record<string, unknown> {
    listCheckpointIndex(root);
    const file = stored();
    for (const r of Object.values(file.checkpoints) as { entry: { node_count: number } }[]) r.entry.node_count = 999;
    rmSync(indexFile(root));
    return file;
  }

  for (const [what, spoil] of damage) {
    test(`an index file that is ${what} is ignored and replaced`, async () => {
      writeCheckpoint(root, { runId: '20260101000000_a', nodes: 3 });
      writeCheckpoint(root, { runId: '20260102000000_b', nodes: 5 });
      Bun.sleepSync(60);
      spoil();
      const expected = [
        ['20260102000000_b', 5],
        ['20260101000000_a', 3],
      ];
      expect((await listInNewProcess(root)).map((e) => [e.id, e.node_count])).toEqual(expected);
      const file = stored();
      expect(file.format).toBe(4);
      expect(Object.keys(file.checkpoints).sort()).toEqual(['20260101000000_a', '20260102000000_b']);
    });
  }

  test('where the index cannot be written, the listing goes on without it', async () => {
    writeCheckpoint(root, { runId: '20260101000000_a', nodes: 3 });
    // a directory with content in the file's place is not removed, so no file can be written there
    mkdirSync(join(indexFile(root), 'kept'), { recursive: true });
    expect((await listInNewProcess(root)).map((e) => [e.id, e.node_count])).toEqual([['20260101000000_a', 3]]);
    expect(statSync(join(indexFile(root), 'kept')).isDirectory()).toBe(true);
  });

  test('a missing checkpoints directory is not created for its index', () => {
    twoListed();
    rmSync(root, { recursive: true });
    expect(listCheckpointIndex(root)).toEqual([]);
    expect(() => statSync(root)).toThrow();
  });
});
