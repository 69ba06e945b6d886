import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BACKUP_FILE } from '../../../src/memory/backup-format.ts';
import { agentNameFor, MemoryClient } from '../../../src/memory/client.ts';
import { LEGACY_NODE_FILE, LEGACY_REACT_FILE, migrateCheckpointMemory } from '../../../src/memory/migrate.ts';
import { deadUrl, liveCheckpoint, writeLines } from './backup-server.ts';

const t = liveCheckpoint();

/** The files a checkpoint of the file-memory era holds, and a backup beside them. */
function legacyFiles(): void {
  writeLines(join(t.ckpt, LEGACY_NODE_FILE), [
    { node_id: 'n1', text: 'loop unrolling helped', metadata: { gain: 0.2 }, ts: '2025-01-02T03:04:05+00:00' },
    { node_id: 'n2', content: 'old field name', metadata: {} },
  ]);
  writeFileSync(join(t.ckpt, LEGACY_NODE_FILE), `${readFileSync(join(t.ckpt, LEGACY_NODE_FILE), 'utf8')}{"node_id": "n3", "te\n`);
  writeFileSync(join(t.ckpt, LEGACY_REACT_FILE), JSON.stringify([{ content: 'step 1: read the code', metadata: { node_id: 'n1' }, ts: '2025-01-02T03:04:06+00:00' }, 'not an entry']));
  const backup = [
    { kind: 'node_scope', node_id: 'n1', text: 'loop unrolling helped', metadata: { gain: 0.2 }, ts: 1 },
    { kind: 'failure_case', node_id: 'n4', text: 'segfault at -O3', metadata: {}, ts: 2 },
    { kind: 'react_step', text: 'step 2: ran it', metadata: { node_id: 'n4' }, ts: 3 },
  ];
  writeFileSync(join(t.ckpt, BACKUP_FILE), gzipSync(backup.map((b) => `${JSON.stringify(b)}\n`).join('')));
}

describe('migrateCheckpointMemory', () => {
  test('imports the backup and memory_store.jsonl, leaving react steps out without --react', async () => {
    legacyFiles();
    const r = await migrateCheckpointMemory(t.mem.client, t.ckpt, { react: false, dryRun: false });
    expect(r.sources.map((s) => [s.file, s.kinds, s.skipped, s.damage])).toEqual([
      [BACKUP_FILE, { node_scope: 1, failure_case: 1, react_step: 1 }, 0, null],
      [LEGACY_NODE_FILE, { node_scope: 2 }, 1, null],
    ]);
    expect(r.excluded).toBe(1);
    // the same n1 text in both files is one memory
    expect(r.imported).toMatchObject({ read: 4, added: 3, kept: 1 });
    const agent = (await t.mem.client.findAgent(agentNameFor(t.ckpt))) ?? '';
    const ps = await t.mem.client.listPassages(agent);
    expect(ps.map((p) => [p.text, p.tags.sort()])).toEqual([
      ['loop unrolling helped', ['kind:node_scope', 'node:n1']],
      ['segfault at -O3', ['kind:failure_case', 'node:n4']],
      ['old field name', ['kind:node_scope', 'node:n2']],
    ]);
    // legacy ISO times become epoch seconds
    expect(ps[0]?.metadata.ts).toBe(1);
    expect(ps[2]?.metadata.ts).toBe(0);
    // the files are left as they are
    expect(readdirSync(t.ckpt)).toContain(LEGACY_NODE_FILE);
  });

  test('--react adds the react steps of the backup and of memory.json; a second run adds nothing', async () => {
    legacyFiles();
    const r = await migrateCheckpointMemory(t.mem.client, t.ckpt, { react: true, dryRun: false });
    expect(r.sources.map((s) => s.file)).toEqual([BACKUP_FILE, LEGACY_NODE_FILE, LEGACY_REACT_FILE]);
    expect(r.sources[2]).toMatchObject({ kinds: { react_step: 1 }, skipped: 1 });
    expect(r.excluded).toBe(0);
    expect(r.imported).toMatchObject({ added: 5, kept: 1 });
    const again = await migrateCheckpointMemory(t.mem.client, t.ckpt, { react: true, dryRun: false });
    expect(again.imported).toMatchObject({ added: 0, kept: 6 });
    const agent = (await t.mem.client.findAgent(agentNameFor(t.ckpt))) ?? '';
    const react = await t.mem.client.listPassages(agent, { tags: ['kind:react_step'] });
    expect(react.map((p) => [p.text, p.metadata.node_id])).toEqual([
      ['step 2: ran it', 'n4'],
      ['step 1: read the code', 'n1'],
    ]);
  });

  test('a dry run counts without a backend and writes nothing', async () => {
    legacyFiles();
    const client = new MemoryClient({ baseUrl: await deadUrl(), timeoutMs: 1000 });
    const r = await migrateCheckpointMemory(client, t.ckpt, { react: true, dryRun: true });
    expect(r.imported).toBeUndefined();
    expect(r.sources.map((s) => Object.values(s.kinds).reduce((a, b) => a + b, 0))).toEqual([3, 2, 1]);
    expect(await t.mem.client.listAgents()).toEqual([]);
  });

  test('a checkpoint without file memory: no sources, nothing created', async () => {
    const r = await migrateCheckpointMemory(t.mem.client, t.ckpt, { react: true, dryRun: false });
    expect(r.sources).toEqual([]);
    expect(r.imported).toBeUndefined();
    expect(await t.mem.client.listAgents()).toEqual([]);
  });

  test('a memory.json that is not a JSON array is reported, the rest still imports', async () => {
    writeLines(join(t.ckpt, LEGACY_NODE_FILE), [{ node_id: 'n1', text: 'kept' }]);
    writeFileSync(join(t.ckpt, LEGACY_REACT_FILE), '{"entries": [');
    const r = await migrateCheckpointMemory(t.mem.client, t.ckpt, { react: true, dryRun: false });
    expect(r.sources[1]?.damage).toStartWith('not valid JSON');
    expect(r.imported).toMatchObject({ added: 1 });
  });
});
