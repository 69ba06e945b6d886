import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ensureCheckpointAgent } from '../../../src/memory/checkpoint-agent.ts';
import { BACKUP_FILE } from '../../../src/memory/backup-format.ts';
import { backupCheckpointMemory } from '../../../src/memory/backup.ts';
import { backupIntervalS, startPeriodicBackup } from '../../../src/memory/backup-schedule.ts';
import { MemoryClient, agentNameFor } from '../../../src/memory/client.ts';
import { liveCheckpoint } from './backup-server.ts';

const t = liveCheckpoint();

const lines = (file: string) =>
  gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

/** An entry stored the way the memory skill stores it: metadata {node_id, kind, ts, metadata}, node and kind tags. */
const entry = (node: string, kind: string, text: string, own: Record<string, unknown>, ts: number, extraTags: string[] = []) => ({
  text,
  tags: [`node:${node}`, `kind:${kind}`, ...extraTags],
  metadata: { node_id: node, kind, ts, metadata: own },
});

async function seed(client: MemoryClient): Promise<string> {
  const agent = await ensureCheckpointAgent(client, t.ckpt);
  await client.addPassages(agent, [
    entry('n1', 'node_scope', 'baseline runs at 1.2 GFLOP/s', { source: 'agent' }, 100.5),
    { text: 'called run_bash make', tags: ['kind:react_step'], metadata: { node_id: 'n1', kind: 'react_step', ts: 101, metadata: { tool: 'run_bash' } } },
    entry('n2', 'experiment_result', 'speedup 2.1x', { metric: 2.1 }, 102, ['artifact:sha256:ab']),
  ]);
  await client.setBlock(agent, 'persona', 'a careful researcher');
  await client.setBlock(agent, 'experiment_goal', 'faster kernel');
  await client.setBlock(agent, 'higher_is_better', 'true');
  await client.setBlock(agent, 'selected_idea', JSON.stringify({ title: 'tiling' }));
  return agent;
}

describe('backupCheckpointMemory', () => {
  test('writes every passage as a reference-format line, oldest first, then the core seed', async () => {
    const agent = await seed(t.mem.client);
    const r = await backupCheckpointMemory(t.mem.client, t.ckpt);
    expect(r).toEqual({ file: join(t.ckpt, BACKUP_FILE), written: true, entries: 3, core_seed: true });
    const got = lines(r.file);
    expect(got.map((l) => l.kind)).toEqual(['node_scope', 'react_step', 'experiment_result', 'core_seed']);
    expect(got[0]).toMatchObject({ kind: 'node_scope', node_id: 'n1', text: 'baseline runs at 1.2 GFLOP/s', metadata: { source: 'agent' }, ts: 100.5 });
    expect(Object.keys(got[0]).slice(0, 5)).toEqual(['kind', 'node_id', 'text', 'metadata', 'ts']);
    // the reference keeps a react step's node in its metadata, not on the line
    expect(got[1]).toMatchObject({ kind: 'react_step', text: 'called run_bash make', metadata: { tool: 'run_bash', node_id: 'n1' }, ts: 101 });
    expect(got[1].node_id).toBeUndefined();
    expect(got[2]).toMatchObject({ kind: 'experiment_result', node_id: 'n2', metadata: { metric: 2.1 }, tags: ['node:n2', 'kind:experiment_result', 'artifact:sha256:ab'] });
    expect(got[2].entry_id).toStartWith('passage-');
    expect(got[3]).toEqual({
      kind: 'core_seed',
      persona: 'a careful researcher',
      human: '',
      context: { experiment_goal: 'faster kernel', higher_is_better: true, selected_idea: { title: 'tiling' } },
      seeded_at: 0,
    });
    expect(readdirSync(t.ckpt).filter((n) => n.includes('.tmp'))).toEqual([]);
    expect(agent).toBe((await t.mem.client.findAgent(agentNameFor(t.ckpt))) ?? '');
  });

  test('passages other programs wrote (plain metadata) are backed up with that metadata', async () => {
    const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
    await t.mem.client.addPassages(agent, [{ text: 'step', tags: ['kind:react_step', 'node:n3'], metadata: { ts: 1 } }, { text: 'loose note', tags: [], metadata: { a: 1 } }]);
    const [step, loose] = lines((await backupCheckpointMemory(t.mem.client, t.ckpt)).file);
    expect(step).toMatchObject({ kind: 'react_step', metadata: { ts: 1, node_id: 'n3' }, ts: 1 });
    expect(step.node_id).toBeUndefined();
    expect(loose).toMatchObject({ kind: 'node_scope', text: 'loose note', metadata: { a: 1 } });
    expect(loose.node_id).toBeUndefined();
  });

  test('the agent named with the checkpoint workflow\'s collection_prefix is the one backed up', async () => {
    writeFileSync(join(t.ckpt, 'workflow.yaml'), 'memory:\n  membackend:\n    collection_prefix: lab_\n');
    const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
    expect((await t.mem.client.listAgents()).map((a) => a.name)).toEqual([agentNameFor(t.ckpt, 'lab_')]);
    await t.mem.client.addPassages(agent, [entry('n1', 'node_scope', 'prefixed', {}, 1)]);
    expect(await backupCheckpointMemory(t.mem.client, t.ckpt)).toMatchObject({ written: true, entries: 1 });
  });

  test('an agent of 5,000 passages is walked page by page into one archive', async () => {
    const agent = await ensureCheckpointAgent(t.mem.client, t.ckpt);
    await t.mem.client.addPassages(agent, Array.from({ length: 5000 }, (_, i) => ({ text: `entry ${i}`, tags: [`node:n${i % 7}`], metadata: { i } })));
    const r = await backupCheckpointMemory(t.mem.client, t.ckpt);
    expect(r.entries).toBe(5000);
    const got = lines(r.file);
    expect(got.length).toBe(5000);
    expect(got.map((l) => l.metadata.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  test('no agent: nothing written, and an existing backup is left alone', async () => {
    writeFileSync(join(t.ckpt, BACKUP_FILE), 'previous');
    const r = await backupCheckpointMemory(t.mem.client, t.ckpt);
    expect(r).toMatchObject({ written: false, reason: 'the memory backend has no agent for this checkpoint' });
    expect(readFileSync(join(t.ckpt, BACKUP_FILE), 'utf8')).toBe('previous');
  });

  test('an empty agent never replaces a backup that has content (a wiped backend looks like that)', async () => {
    await seed(t.mem.client);
    await backupCheckpointMemory(t.mem.client, t.ckpt);
    const before = readFileSync(join(t.ckpt, BACKUP_FILE));
    await t.mem.client.deleteAgent((await t.mem.client.findAgent(agentNameFor(t.ckpt))) ?? '');
    await ensureCheckpointAgent(t.mem.client, t.ckpt);
    const r = await backupCheckpointMemory(t.mem.client, t.ckpt);
    expect(r).toMatchObject({ written: false, reason: `the agent is empty; kept the existing ${BACKUP_FILE}` });
    expect(readFileSync(join(t.ckpt, BACKUP_FILE))).toEqual(before);
  });

  test('a connection that drops mid-backup leaves the previous backup whole and no temp file', async () => {
    const agent = await seed(t.mem.client);
    await t.mem.client.addPassages(agent, Array.from({ length: 1200 }, (_, i) => ({ text: `bulk ${i}`, tags: ['node:n3'], metadata: {} })));
    await backupCheckpointMemory(t.mem.client, t.ckpt);
    const before = readFileSync(join(t.ckpt, BACKUP_FILE));
    await t.mem.client.addPassages(agent, [{ text: 'newer', tags: ['node:n3'], metadata: {} }]);
    // the second page of passages never arrives
    let lists = 0;
    const dropping = (async (input: Request | string | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).includes('/archival-memory?') && ++lists === 2) throw new TypeError('connection reset');
      return fetch(input, init);
    }) as typeof fetch;
    const flaky = new MemoryClient({ baseUrl: t.mem.url, timeoutMs: 5000, fetch: dropping });
    await expect(backupCheckpointMemory(flaky, t.ckpt)).rejects.toThrow();
    expect(readFileSync(join(t.ckpt, BACKUP_FILE))).toEqual(before);
    expect(readdirSync(t.ckpt).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  test('the backend down: an error naming the URL, the old backup untouched', async () => {
    await seed(t.mem.client);
    await backupCheckpointMemory(t.mem.client, t.ckpt);
    const before = readFileSync(join(t.ckpt, BACKUP_FILE));
    await t.mem.server.stop();
    await expect(backupCheckpointMemory(t.mem.client, t.ckpt)).rejects.toThrow(t.mem.url);
    expect(readFileSync(join(t.ckpt, BACKUP_FILE))).toEqual(before);
  });
});

describe('startPeriodicBackup', () => {
  test('SVC_MEMORY_BACKUP_INTERVAL_S unset or 0: off', async () => {
    await seed(t.mem.client);
    for (const env of [{}, { SVC_MEMORY_BACKUP_INTERVAL_S: '0' }]) {
      const p = startPeriodicBackup(t.mem.client, t.ckpt, env);
      expect(p.intervalS).toBe(0);
      await p.stop();
    }
    expect(readdirSync(t.ckpt)).not.toContain(BACKUP_FILE);
  });

  test('backs up on its interval until stopped; stop waits for the backup under way', async () => {
    await seed(t.mem.client);
    const seen: unknown[] = [];
    const p = startPeriodicBackup(t.mem.client, t.ckpt, { SVC_MEMORY_BACKUP_INTERVAL_S: '0.05' }, (r) => seen.push(r));
    while (seen.length < 2) await Bun.sleep(20);
    await p.stop();
    const count = seen.length;
    expect(seen[0]).toMatchObject({ written: true, entries: 3 });
    expect(lines(join(t.ckpt, BACKUP_FILE)).length).toBe(4);
    await Bun.sleep(150);
    expect(seen.length).toBe(count);
  });

  test('a backend that goes down costs the outcome an error, not the caller', async () => {
    await seed(t.mem.client);
    await t.mem.server.stop();
    const seen: unknown[] = [];
    const p = startPeriodicBackup(t.mem.client, t.ckpt, { SVC_MEMORY_BACKUP_INTERVAL_S: '0.05' }, (r) => seen.push(r));
    while (seen.length < 2) await Bun.sleep(20);
    await p.stop();
    expect(seen.every((r) => r instanceof Error)).toBe(true);
  });

  test('a value that is not a number of seconds is refused', () => {
    for (const bad of ['-1', 'often', '1e3x']) {
      expect(() => backupIntervalS({ SVC_MEMORY_BACKUP_INTERVAL_S: bad })).toThrow(`SVC_MEMORY_BACKUP_INTERVAL_S must be a number of seconds (0 = off), got '${bad}'`);
    }
    expect(backupIntervalS({ SVC_MEMORY_BACKUP_INTERVAL_S: '300' })).toBe(300);
  });
});
