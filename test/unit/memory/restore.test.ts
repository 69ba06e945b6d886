import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureCheckpointAgent } from '../../../src/memory/checkpoint-agent.ts';
import { BACKUP_FILE } from '../../../src/memory/backup-format.ts';
import { backupCheckpointMemory } from '../../../src/memory/backup.ts';
import type { Passage } from '../../../src/memory/client.ts';
import { autoRestoreIfEmpty, parseConflictMode, restoreCheckpointMemory } from '../../../src/memory/restore.ts';
import { liveCheckpoint, makeCheckpoint } from './backup-server.ts';

const t = liveCheckpoint();

/** A backup in the reference format (no entry ids, no tags), as an older run leaves it. */
const REFERENCE = [
  { kind: 'node_scope', node_id: 'n1', text: 'tiling by 32 is best', metadata: { src: 'a', gain: 0.3 }, ts: 1.5 },
  { kind: 'node_scope', node_id: 'n2', text: 'vectorised loop', metadata: {}, ts: 2 },
  { kind: 'react_step', text: 'ran make bench', metadata: { node_id: 'n2' }, ts: 3 },
  { kind: 'core_seed', persona: 'p', human: 'h', context: { experiment_goal: 'speed', higher_is_better: true, seeded_at: 4 }, seeded_at: 4 },
];

function writeBackup(records: unknown[], raw = ''): void {
  writeFileSync(join(t.ckpt, BACKUP_FILE), gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join('') + raw));
}

async function stored(agent: string): Promise<Passage[]> {
  return t.mem.client.listPassages(agent, { limit: 10_000 });
}

const texts = (ps: Passage[]) => ps.map((p) => p.text).sort();

describe('restoreCheckpointMemory', () => {
  test('into an empty backend: entries stored as the memory skill stores them, core blocks set', async () => {
    writeBackup(REFERENCE);
    const r = await restoreCheckpointMemory(t.mem.client, t.ckpt);
    expect(r).toMatchObject({ mode: 'skip', read: 3, added: 3, kept: 0, merged: 0, replaced: 0, core_seed: 'restored', skipped: 0, damage: null });
    const ps = await stored(r.agent_id);
    expect(ps.map((p) => [p.text, p.tags.sort(), p.metadata])).toEqual([
      ['tiling by 32 is best', ['kind:node_scope', 'node:n1'], { node_id: 'n1', kind: 'node_scope', ts: 1.5, metadata: { src: 'a', gain: 0.3 } }],
      ['vectorised loop', ['kind:node_scope', 'node:n2'], { node_id: 'n2', kind: 'node_scope', ts: 2, metadata: {} }],
      // a trace step keeps its node in its metadata, and gets no node tag that searches would filter on
      ['ran make bench', ['kind:react_step'], { node_id: 'n2', kind: 'react_step', ts: 3, metadata: { node_id: 'n2' } }],
    ]);
    expect(await t.mem.client.getBlock(r.agent_id, 'persona')).toBe('p');
    expect(await t.mem.client.getBlock(r.agent_id, 'experiment_goal')).toBe('speed');
    expect(await t.mem.client.getBlock(r.agent_id, 'higher_is_better')).toBe('true');
    expect(await t.mem.client.getBlock(r.agent_id, 'seeded_at')).toBeNull();
    expect(await t.mem.client.getBlock(r.agent_id, 'svc_checkpoint')).toBe(t.ckpt);
  });

  test('backup then restore into a wiped backend gives back the same passages', async () => {
    const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
    await t.mem.client.addPassages(agent, [
      { text: 'a', tags: ['node:x', 'kind:procedure', 'extra'], metadata: { node_id: 'x', kind: 'procedure', ts: 5, metadata: { k: [1, 2] } } },
      { text: 'b', tags: ['kind:react_step'], metadata: { kind: 'react_step', ts: 6, metadata: {} } },
    ]);
    await backupCheckpointMemory(t.mem.client, t.ckpt);
    const before = await stored(agent);
    await t.mem.client.deleteAgent(agent);
    const r = await restoreCheckpointMemory(t.mem.client, t.ckpt);
    const after = await stored(r.agent_id);
    expect(after.map((p) => [p.text, p.tags, p.metadata])).toEqual(before.map((p) => [p.text, p.tags, p.metadata]));
  });

  describe('conflicts', () => {
    // stored: n1's text (same node, same text: a conflict) and n3's own entry (not in the backup)
    async function prepare(): Promise<string> {
      const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
      await t.mem.client.addPassages(agent, [
        { text: 'tiling by 32 is best', tags: ['node:n1', 'kind:node_scope', 'verified'], metadata: { node_id: 'n1', kind: 'node_scope', ts: 9, metadata: { src: 'live', score: 1 } } },
        { text: 'n3 only', tags: ['node:n3'], metadata: {} },
        { text: 'n2 stale note', tags: ['node:n2'], metadata: {} },
      ]);
      await t.mem.client.setBlock(agent, 'persona', 'live persona');
      await t.mem.client.setBlock(agent, 'primary_metric', 'gflops');
      await t.mem.client.setBlock(agent, 'experiment_goal', 'latency');
      writeBackup(REFERENCE);
      return agent;
    }

    test('skip: conflicting entries stay as stored, missing ones are added, set blocks are kept', async () => {
      const agent = await prepare();
      const r = await restoreCheckpointMemory(t.mem.client, t.ckpt, 'skip');
      expect(r).toMatchObject({ read: 3, added: 2, kept: 1, merged: 0, replaced: 0, core_seed: 'restored' });
      const ps = await stored(agent);
      expect(texts(ps)).toEqual(['n2 stale note', 'n3 only', 'ran make bench', 'tiling by 32 is best', 'vectorised loop']);
      expect(ps.find((p) => p.text === 'tiling by 32 is best')?.metadata.metadata).toEqual({ src: 'live', score: 1 });
      expect(await t.mem.client.getBlock(agent, 'persona')).toBe('live persona');
      expect(await t.mem.client.getBlock(agent, 'human')).toBe('h');
      expect(await t.mem.client.getBlock(agent, 'experiment_goal')).toBe('latency');
      expect(await t.mem.client.getBlock(agent, 'higher_is_better')).toBe('true');
      // a second run adds nothing
      expect(await restoreCheckpointMemory(t.mem.client, t.ckpt, 'skip')).toMatchObject({ added: 0, kept: 3, core_seed: 'kept' });
      expect((await stored(agent)).length).toBe(5);
    });

    test('overwrite: the nodes in the backup get exactly its entries; other nodes are untouched', async () => {
      const agent = await prepare();
      const r = await restoreCheckpointMemory(t.mem.client, t.ckpt, 'overwrite');
      // n1 and n2 are in the backup (the react step names n2): their three stored passages go
      expect(r).toMatchObject({ read: 3, added: 3, kept: 0, replaced: 2, core_seed: 'restored' });
      const ps = await stored(agent);
      expect(texts(ps)).toEqual(['n3 only', 'ran make bench', 'tiling by 32 is best', 'vectorised loop']);
      expect(ps.find((p) => p.text === 'tiling by 32 is best')?.metadata).toEqual({ node_id: 'n1', kind: 'node_scope', ts: 1.5, metadata: { src: 'a', gain: 0.3 } });
      expect(await t.mem.client.getBlock(agent, 'persona')).toBe('p');
      expect(await t.mem.client.getBlock(agent, 'experiment_goal')).toBe('speed');
      // a block the backup does not have stays
      expect(await t.mem.client.getBlock(agent, 'primary_metric')).toBe('gflops');
    });

    test('merge: missing entries added; a conflicting pair becomes one passage with the union of tags and metadata', async () => {
      const agent = await prepare();
      const r = await restoreCheckpointMemory(t.mem.client, t.ckpt, 'merge');
      expect(r).toMatchObject({ read: 3, added: 2, kept: 0, merged: 1, replaced: 0, core_seed: 'restored' });
      const ps = await stored(agent);
      expect(texts(ps)).toEqual(['n2 stale note', 'n3 only', 'ran make bench', 'tiling by 32 is best', 'vectorised loop']);
      const merged = ps.filter((p) => p.text === 'tiling by 32 is best');
      expect(merged.length).toBe(1);
      expect(merged[0]?.tags.sort()).toEqual(['kind:node_scope', 'node:n1', 'verified']);
      // the stored value wins where both have a key; the stored bookkeeping stays
      expect(merged[0]?.metadata).toEqual({ node_id: 'n1', kind: 'node_scope', ts: 9, metadata: { src: 'live', score: 1, gain: 0.3 } });
      expect(await t.mem.client.getBlock(agent, 'persona')).toBe('live persona');
      // the contexts' union, field by field
      expect(await t.mem.client.getBlock(agent, 'experiment_goal')).toBe('latency');
      expect(await t.mem.client.getBlock(agent, 'higher_is_better')).toBe('true');
      expect(await t.mem.client.getBlock(agent, 'primary_metric')).toBe('gflops');
      // merging again changes nothing
      expect(await restoreCheckpointMemory(t.mem.client, t.ckpt, 'merge')).toMatchObject({ added: 0, kept: 3, merged: 0 });
      expect((await stored(agent)).length).toBe(5);
    });

    test('the same text under another node is not a conflict; the same entry id is', async () => {
      const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
      const [p] = await t.mem.client.addPassages(agent, [{ text: 'shared words', tags: ['node:n1'], metadata: {} }]);
      writeBackup([
        { kind: 'node_scope', node_id: 'n9', text: 'shared words', metadata: {}, ts: 1 },
        { kind: 'node_scope', node_id: 'n1', text: 'edited elsewhere', metadata: {}, ts: 2, entry_id: p?.id },
      ]);
      expect(await restoreCheckpointMemory(t.mem.client, t.ckpt, 'skip')).toMatchObject({ read: 2, added: 1, kept: 1 });
      expect(texts(await stored(agent))).toEqual(['shared words', 'shared words']);
    });

    test('entries repeated within the backup are restored once', async () => {
      const line = { kind: 'node_scope', node_id: 'n1', text: 'twice', metadata: { a: 1 }, ts: 1 };
      writeBackup([{ ...line, tags: ['reviewed'] }, { ...line, metadata: { b: 2 }, tags: ['cited'] }]);
      const r = await restoreCheckpointMemory(t.mem.client, t.ckpt, 'merge');
      expect(r).toMatchObject({ read: 2, added: 1, merged: 1 });
      const ps = await stored(r.agent_id);
      expect(ps.map((p) => [p.metadata.metadata, p.tags.sort()])).toEqual([[{ a: 1, b: 2 }, ['cited', 'kind:node_scope', 'node:n1', 'reviewed']]]);
    });
  });

  test('a truncated archive restores the records before the cut and says where it broke off', async () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({ kind: 'node_scope', node_id: `n${i % 5}`, text: `entry ${i} ${'x'.repeat(40)}${Math.random()}`, metadata: {}, ts: i }));
    const packed = gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    writeFileSync(join(t.ckpt, BACKUP_FILE), packed.subarray(0, Math.floor(packed.length / 2)));
    const r = await restoreCheckpointMemory(t.mem.client, t.ckpt);
    expect(r.added).toBeGreaterThan(500);
    expect(r.added).toBeLessThan(3000);
    expect(r.added).toBe(r.read);
    // the line cut in half, unless the cut fell just after a newline
    expect(r.skipped).toBeLessThanOrEqual(1);
    expect(r.damage).toBe('unexpected end of file');
    const ps = await stored(r.agent_id);
    expect(ps.length).toBe(r.added);
    expect(ps.map((p) => p.metadata.ts)).toEqual(Array.from({ length: r.added }, (_, i) => i));
  });

  test('garbage lines are skipped and counted; the rest is restored', async () => {
    writeBackup(REFERENCE.slice(0, 2), '{"kind": "node_scope", "node_id": "n1", "te\nnot json at all\n[1,2]\n{"kind":"node_scope","node_id":"n4"}\n');
    const r = await restoreCheckpointMemory(t.mem.client, t.ckpt);
    expect(r).toMatchObject({ read: 2, added: 2, skipped: 4, damage: null });
  });

  test('a file that is not gzip restores nothing and reports the damage', async () => {
    writeFileSync(join(t.ckpt, BACKUP_FILE), 'plain text, not an archive\n');
    const r = await restoreCheckpointMemory(t.mem.client, t.ckpt);
    expect(r.added).toBe(0);
    expect(r.damage).toBe('incorrect header check');
  });

  test('no backup: a clear error, nothing created', async () => {
    await expect(restoreCheckpointMemory(t.mem.client, t.ckpt)).rejects.toThrow(`${t.ckpt} has no ${BACKUP_FILE}`);
    expect(await t.mem.client.listAgents()).toEqual([]);
  });

  test('the backend down: an error naming the URL', async () => {
    writeBackup(REFERENCE);
    await t.mem.server.stop();
    await expect(restoreCheckpointMemory(t.mem.client, t.ckpt)).rejects.toThrow(t.mem.url);
  });
});

describe('parseConflictMode', () => {
  test('the three modes, and a clear error listing them for anything else', () => {
    for (const m of ['skip', 'overwrite', 'merge']) expect(parseConflictMode(m)).toBe(m as 'skip');
    expect(() => parseConflictMode('replace')).toThrow("--on-conflict must be one of skip, overwrite, merge, got 'replace'");
  });
});

describe('autoRestoreIfEmpty', () => {
  test('restores into a backend that has nothing for the checkpoint', async () => {
    writeBackup(REFERENCE);
    const r = await autoRestoreIfEmpty(t.mem.client, t.ckpt, {});
    expect(r.restored).toBe(true);
    if (r.restored) expect(r.report).toMatchObject({ mode: 'skip', added: 3 });
  });

  test('an agent that exists but is empty is restored too', async () => {
    await ensureCheckpointAgent(t.mem.client, t.ckpt);
    writeBackup(REFERENCE);
    expect((await autoRestoreIfEmpty(t.mem.client, t.ckpt, { SVC_MEMORY_AUTO_RESTORE: 'true' })).restored).toBe(true);
  });

  test('never over an agent that has passages', async () => {
    const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
    await t.mem.client.addPassages(agent, [{ text: 'live', tags: [], metadata: {} }]);
    writeBackup(REFERENCE);
    expect(await autoRestoreIfEmpty(t.mem.client, t.ckpt, {})).toEqual({ restored: false, reason: 'the agent already has passages' });
    expect((await stored(agent)).length).toBe(1);
  });

  test('off by SVC_MEMORY_AUTO_RESTORE, or without a backup; a bad value is refused', async () => {
    writeBackup(REFERENCE);
    expect(await autoRestoreIfEmpty(t.mem.client, t.ckpt, { SVC_MEMORY_AUTO_RESTORE: 'false' })).toEqual({ restored: false, reason: 'SVC_MEMORY_AUTO_RESTORE is off' });
    await expect(autoRestoreIfEmpty(t.mem.client, t.ckpt, { SVC_MEMORY_AUTO_RESTORE: 'sometimes' })).rejects.toThrow("SVC_MEMORY_AUTO_RESTORE must be on or off, got 'sometimes'");
    const other = makeCheckpoint(t.dir, '20261102120000_other');
    expect(await autoRestoreIfEmpty(t.mem.client, other, {})).toEqual({ restored: false, reason: `no ${BACKUP_FILE}` });
    expect(await t.mem.client.listAgents()).toEqual([]);
  });
});
